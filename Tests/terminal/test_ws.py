"""The `ws` commands on a real terminal: a frame that arrives with a
half-typed line on the prompt appears above it and the line is intact after
(bob, over REST from this test, sends alice a chat message); a 10 MB frame, a
silent peer, TLS failures, TAB on `ws connect`'s flags, and `ws recv` not
showing again what was printed. The misbehaving peers are written here on
plain sockets, 127.0.0.1 and ephemeral ports (`localhost` where TLS needs a
host name), every socket operation with a timeout.
"""
import contextlib
import json
import re
import shutil
import ssl
import subprocess
import time
import urllib.request

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from support import (BINARY, ALICE_PROMPT, CTRL_C, CTRL_D, ENTER, PROMPT, TAB, close_frame, history_lines, isolated_env, make_certificate,
                     run_explorer, text_frame, websocket_accept)


def call(base, method, path, body, token=None):
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method=method,
                                     headers={"Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def bob_sends_alice(base, content):
    """Bob logs in over REST and sends alice (user 1) a chat message."""
    bob = call(base, "POST", "/api/secure-auth/login", {"email": "bob@example.com", "password": "bob12345"})["access_token"]
    call(base, "POST", "/api/users/messages/send", {"receiver_id": 1, "content": content}, token=bob)


def test_a_frame_arriving_mid_line_prints_above_it_and_keeps_the_line(spawn):
    x = spawn()
    base = re.search(r"(http://127\.0\.0\.1:\d+)", x.welcome).group(1)
    x.run("login alice@example.com alice123", prompt=ALICE_PROMPT)
    assert "connected to ws://" in x.run("ws connect", prompt=ALICE_PROMPT)

    x.type_visibly("get /api/ta", prompt=ALICE_PROMPT)
    bob_sends_alice(base, "hello-while-you-type")

    x.expect("hello-while-you-type")
    x.wait_for_line(ALICE_PROMPT + "get /api/ta")
    screen = x.screen.text()
    # The frame is one timestamped line (wrapped by the window), then the prompt
    # and the partial line again, as the last row.
    rows = screen.rstrip().splitlines()
    frame = [i for i, row in enumerate(rows) if re.match(r"^\d\d:\d\d:\d\d ← \{\"type\":\"message\"", row)]
    assert frame, screen
    assert "hello-while-you-type" in "".join(rows[frame[-1]:-1]), screen
    assert rows[-1] == ALICE_PROMPT + "get /api/ta", screen

    x.send("sks page_size==1" + ENTER)
    x.expect("HTTP/1.1 200 OK")
    x.expect(ALICE_PROMPT)


def test_a_recording_begun_with_a_socket_open_replays_its_logout(spawn, env, tmp_path):
    # logout closes the socket opened before `record`, and the recording wrote that note: its own replay,
    # which has no socket, failed on it.
    x = spawn()
    x.run("login alice@example.com alice123", prompt=ALICE_PROMPT)
    assert "connected to ws://" in x.run("ws connect", prompt=ALICE_PROMPT)
    path = tmp_path / "logout.transcript"
    x.run(f"record {path}", prompt=ALICE_PROMPT)
    assert "WebSocket closed: it was opened with that login" in x.run("logout")
    x.run("record stop")
    assert "WebSocket closed" not in path.read_text()
    replay = subprocess.run([BINARY, "replay", str(path)], env=env, capture_output=True, text=True, timeout=60)
    assert replay.returncode == 0, replay.stdout + replay.stderr


def test_ws_subcommands_complete_on_tab(spawn):
    x = spawn()
    x.send("ws st\t")
    x.wait_for_line("linku> ws status ")


# --------------------------------------------------------------------------
# Peers that misbehave, written on plain sockets (the `socket_server` fixture:
# 127.0.0.1, ephemeral ports; every socket operation has a timeout, the
# accept loop stops within 0.2 s).
# --------------------------------------------------------------------------


def read_head(conn):
    """The request's head as it came (up to its blank line), or None when the client closed first."""
    request = b""
    while b"\r\n\r\n" not in request:
        chunk = conn.recv(4096)
        if not chunk:
            return None
        request += chunk
    return request


def websocket_handshake(server, conn):
    """Reads the upgrade request and answers 101 (RFC 6455 section 4.2.2)."""
    request = read_head(conn)
    if request is None:
        raise OSError("closed before the request ended")
    conn.sendall(websocket_accept(request))
    server.handshakes += 1


TEN_MB = 10 * 1024 * 1024


def test_a_10_mb_frame_is_previewed_on_one_line_and_the_repl_stays_responsive(spawn, socket_server):
    big = b'{"type":"big","data":"' + b"x" * (TEN_MB - 25) + b'"}'
    assert len(big) == TEN_MB - 1

    def send_big(server, conn):
        websocket_handshake(server, conn)
        conn.sendall(text_frame(big))
        server.stopped.wait(30)  # keep the socket open

    server = socket_server(send_big)
    x = spawn()
    assert "connected to ws://" in x.run(f"ws connect ws://127.0.0.1:{server.port}/")
    x.expect("← ", timeout=60)
    preview = x.expect("in all; `show` prints it", timeout=60)
    assert len(preview) < 2100, f"the preview is {len(preview)} characters"
    assert preview.startswith('{"type":"big","data":"xxx')
    assert "10.0 MiB" in preview
    x.expect(PROMPT)  # redrawn under the frame
    # The REPL goes on: a half-typed line is intact, commands answer.
    x.type_visibly("ws sta")
    x.send("tus" + ENTER)
    x.expect("state: ")
    status = x.expect(PROMPT)
    assert status.startswith("open") and "received: 1," in status, status
    assert x.run("show .type").strip() == '"big"'


def test_a_burst_of_frames_redraws_the_prompt_only_under_new_text(spawn, socket_server):
    # Each wake of the editor cleared the line and drew the prompt again, with
    # or without text to print: a frame posted as the editor took the last
    # ones left a wake with nothing behind it, and a second prompt. A script
    # reading the terminal took it for the end of its next command's output
    # (a `ws status` read empty). A race: caught in some runs of a burst.
    count = 2000

    def burst(server, conn):
        websocket_handshake(server, conn)
        for n in range(count):
            conn.sendall(text_frame(b'{"n":%d}' % n))
            time.sleep(0.0002 * (n % 3))  # uneven: frames now one by one, now a few at once
        server.stopped.wait(30)

    server = socket_server(burst)
    x = spawn()
    assert "connected to " in x.run(f"ws connect ws://127.0.0.1:{server.port}/")
    x.expect('{"n":%d}' % (count - 1), timeout=60)
    x.expect(PROMPT)
    x.type_visibly("ws sta")
    x.send("tus" + ENTER)
    status = x.expect(PROMPT)
    assert "received: %d," % count in status, status
    # Every redraw (a clear to the end of the screen) is followed by frames, then the prompt.
    redraws = x.transcript.split("\x1b[J")[1:]
    empty = [r for r in redraws if r.lstrip("\r").startswith(PROMPT)]
    assert not empty, f"{len(empty)} of {len(redraws)} redraws printed nothing: {empty[:3]!r}"


def test_a_silent_peer_is_dropped_by_the_heartbeat_and_retried_per_the_flags(spawn, socket_server):
    def silent(server, conn):
        websocket_handshake(server, conn)
        server.stopped.wait(30)  # never reads, never answers a ping

    server = socket_server(silent, connections=1)  # the retry is refused
    x = spawn()
    url = f"ws://127.0.0.1:{server.port}/"
    assert "connected to " + url in x.run(f"ws connect {url} --heartbeat 0.2 --retries 1 --backoff 0.1")
    x.expect("connection lost")
    x.expect("retrying in 0.1 s (try 1 of 1)")
    x.expect("reconnecting (try 1 of 1)")
    x.expect("gave up reconnecting after 1 try")
    x.expect(PROMPT)  # redrawn under the notice
    assert server.handshakes == 1
    status = x.run("ws status")
    assert "state: closed" in status, status
    assert "policy: a ping every 0.2 s; up to 1 reconnect, the first after 0.1 s" in status, status


def test_wss_to_a_plain_server_is_one_line(spawn, socket_server):
    def plain_http(server, conn):
        conn.recv(4096)
        conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        conn.close()

    server = socket_server(plain_http)
    x = spawn()
    out = x.run(f"ws connect wss://localhost:{server.port}/")
    lines = [l for l in out.splitlines() if l.strip()]
    assert lines == [f"error: TLS failure with wss://localhost:{server.port}/: the server does not speak TLS on this port (try ws://)"], out
    assert "state: closed" in x.run("ws status")  # the REPL goes on


def test_a_101_with_a_wrong_accept_key_is_one_line_in_words(spawn, socket_server):
    # It was NIO's enum name: "upgraderDeniedUpgrade".
    def wrong_accept(server, conn):
        conn.recv(4096)
        conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     b"Sec-WebSocket-Accept: bogus\r\n\r\n")

    server = socket_server(wrong_accept)
    x = spawn()
    out = x.run(f"ws connect ws://127.0.0.1:{server.port}/")
    lines = [l for l in out.splitlines() if l.strip()]
    assert lines == [f"error: handshake refused: ws://127.0.0.1:{server.port}/ answered 101 with a Sec-WebSocket-Accept "
                     "or Upgrade header that does not follow RFC 6455"], out


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is needed to make a self-signed certificate")
def test_wss_to_a_self_signed_server_is_one_line(spawn, socket_server, tmp_path):
    cert, key = make_certificate(tmp_path, "cert", "localhost", alt_names=None)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)

    def tls(server, conn):
        with context.wrap_socket(conn, server_side=True) as wrapped:
            websocket_handshake(server, wrapped)

    server = socket_server(tls)
    x = spawn()
    out = x.run(f"ws connect wss://localhost:{server.port}/")
    lines = [l for l in out.splitlines() if l.strip()]
    assert lines == [f"error: TLS failure with wss://localhost:{server.port}/: the server's certificate could not be verified: "
                     "not signed by a CA explorer trusts, expired or not yet valid "
                     "(--verify CA_FILE trusts a private CA; --verify no checks nothing)"], out
    assert server.handshakes == 0
    assert "state: closed" in x.run("ws status")  # the REPL goes on


def demanding_a_client_certificate(cert, key):
    """A TLS 1.3 server's context that asks for a client certificate `cert` signed."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_3
    context.load_cert_chain(cert, key)
    context.load_verify_locations(cert)
    context.verify_mode = ssl.CERT_REQUIRED
    return context


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is needed to make a self-signed certificate")
def test_wss_takes_verify_from_its_line_and_from_defaults(socket_server, tmp_path):
    """`ws connect --verify FILE`, and `defaults --verify FILE` before a
    plain `ws connect`, trust a private CA for wss:// as for requests; the
    socket ignored both and refused every self-signed server."""
    cert, key = make_certificate(tmp_path, "cert", "localhost")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)

    def tls(server, conn):
        with context.wrap_socket(conn, server_side=True) as wrapped:
            websocket_handshake(server, wrapped)
            wrapped.recv(4096)  # the client's close frame, answered
            wrapped.sendall(close_frame(1000))

    server = socket_server(tls)
    url = f"wss://localhost:{server.port}/"
    result = run_explorer(["--base-url", f"https://localhost:{server.port}"], cwd=tmp_path, input="\n".join([
        f"ws connect {url} --retries 0 --verify cert.pem",
        "ws close",
        "defaults --verify cert.pem",
        f"ws connect {url} --retries 0",
        "ws close",
        f"ws connect {url} --retries 0 --verify nowhere.pem",
    ]) + "\n", env=isolated_env(tmp_path))
    assert result.stdout.count(f"connected to {url}") == 2, result.stdout + result.stderr
    assert server.handshakes == 2
    assert "stdin:6: error: --verify takes yes, no, or a CA file (PEM) that can be read; nowhere.pem cannot" in result.stderr

    # A server that asks for a client certificate: said in the words requests get
    # (it was BoringSSL's own error-stack line).
    strict = demanding_a_client_certificate(cert, key)

    def demanding(server, conn):
        with strict.wrap_socket(conn, server_side=True) as wrapped:
            websocket_handshake(server, wrapped)

    other = socket_server(demanding)
    asked = run_explorer(["--base-url", f"https://localhost:{other.port}"], cwd=tmp_path, env=isolated_env(tmp_path),
                         input=f"ws connect wss://localhost:{other.port}/ --retries 0 --verify cert.pem\n")
    assert f"TLS failure with wss://localhost:{other.port}/: the server asks for a client certificate (--cert FILE)" in asked.stderr, asked.stderr


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is needed to make a self-signed certificate")
def test_wss_shows_the_sessions_client_certificate_only_to_the_backends_origin(socket_server, tmp_path):
    """`defaults --cert` is the backend's credential: a socket on another
    origin (another port) opens without it, and the line says so; one typed
    on `ws connect` goes where the line goes."""
    cert, key = make_certificate(tmp_path, "cert", "localhost")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    context.load_verify_locations(cert)
    context.verify_mode = ssl.CERT_OPTIONAL
    seen = []

    def tls(server, conn):
        with context.wrap_socket(conn, server_side=True) as wrapped:
            seen.append(bool(wrapped.getpeercert()))
            websocket_handshake(server, wrapped)
            wrapped.recv(4096)  # the client's close frame, answered
            wrapped.sendall(close_frame(1000))

    server = socket_server(tls)
    url = f"wss://localhost:{server.port}/"

    def connect(base, *lines):
        return run_explorer(["--base-url", base], cwd=tmp_path, env=isolated_env(tmp_path), input="\n".join(
            ["defaults --verify cert.pem --cert cert.pem --cert-key cert-key.pem"] + list(lines)) + "\n")

    own = connect(f"https://localhost:{server.port}", f"ws connect {url} --retries 0", "ws close")
    elsewhere = connect("https://localhost:9", f"ws connect {url} --retries 0", "ws close",
                        f"ws connect {url} --retries 0 --cert cert.pem --cert-key cert-key.pem", "ws close")
    assert seen == [True, False, True], own.stdout + own.stderr + elsewhere.stdout + elsewhere.stderr
    note = f"client certificate not sent: wss://localhost:{server.port} is not the backend's origin (https://localhost:9)"
    assert elsewhere.stdout.count(note) == 1 and "not sent" not in own.stdout, elsewhere.stdout


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is needed to make a self-signed certificate")
def test_a_tls_failure_where_the_sessions_certificate_stayed_behind_says_so(socket_server, tmp_path):
    """A server elsewhere that asks for a client certificate: the session's
    stayed behind (another origin), which is the cause; the note came only
    when the request worked, and the error said to give --cert, which was given."""
    cert, key = make_certificate(tmp_path, "cert", "localhost")
    make_certificate(tmp_path, "wrong", "localhost")
    strict = demanding_a_client_certificate(cert, key)

    def demanding(server, conn):
        try:
            with strict.wrap_socket(conn, server_side=True) as wrapped:
                websocket_handshake(server, wrapped)
        except OSError:
            pass

    # Under TLS 1.3 a server that wants one may close after the handshake instead: "closed before answering".
    lenient = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    lenient.load_cert_chain(cert, key)

    def closing(server, conn):
        try:
            with lenient.wrap_socket(conn, server_side=True) as wrapped:
                wrapped.recv(4096)
        except OSError:
            pass

    other = socket_server(demanding)
    closer = socket_server(closing)
    result = run_explorer(["--base-url", "https://localhost:9"], cwd=tmp_path, env=isolated_env(tmp_path), input="\n".join([
        "defaults --verify cert.pem --cert cert.pem --cert-key cert-key.pem",
        f"get https://localhost:{closer.port}/x",
        f"get https://localhost:{other.port}/x",
        f"ws connect wss://localhost:{other.port}/ --retries 0",
        f"ws connect wss://localhost:{other.port}/ --retries 0 --verify wrong.pem"]) + "\n")
    # The defaults' confirmation first (on standard error in a script), then each line's failure.
    lines = result.stderr.splitlines()
    assert len(lines) == 5 and lines.pop(0).startswith("every request line: --verify cert.pem"), result.stderr
    closed = lines.pop(0)
    assert "closed the connection before answering" in closed and closed.endswith(
        f"; client certificate not sent: https://localhost:{closer.port} is not the backend's origin (https://localhost:9)"), closed
    # A CA file given that did not sign it is named, as a request's failure names it (it said to give one).
    assert "the server's certificate could not be verified against wrong.pem" in lines[2], lines[2]
    assert lines[0].endswith(f"; client certificate not sent: https://localhost:{other.port} is not the backend's origin (https://localhost:9)"), lines[0]
    assert "--cert FILE" not in lines[0], lines[0]
    assert f"client certificate not sent: wss://localhost:{other.port} is not the backend's origin (https://localhost:9)" in lines[1], lines[1]


def test_a_handshake_answer_with_headers_past_the_librarys_limit_says_so(env, socket_server):
    # It said the server "answered with something that is not HTTP".
    def big(server, conn):
        if read_head(conn) is None:
            return
        conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\n" + b"".join(b"X-Pad-%d: %s\r\n" % (n, b"v" * 100) for n in range(1000)) + b"\r\n")
        time.sleep(1)

    server = socket_server(big)
    result = script(env, f"http://127.0.0.1:{server.port}", [f"ws connect ws://127.0.0.1:{server.port}/ --retries 0"])
    assert "answered with headers past what the WebSocket library reads" in result.stderr, result.stderr


def test_ws_connect_flags_complete_on_tab(spawn):
    x = spawn()
    x.send("ws connect --h" + TAB)
    x.wait_for_line(PROMPT + "ws connect --heartbeat ")


def test_ws_recv_does_not_show_again_a_frame_printed_as_it_arrived_and_its_recording_replays(spawn, env, tmp_path):
    path = tmp_path / "echo.transcript"
    x = spawn("--record", str(path))
    assert "connected to ws://" in x.run("ws connect /__sandbox/echo")
    x.send('ws send {"n":"echo-once"}' + ENTER)
    x.expect('← {"n":"echo-once"}')
    x.expect(PROMPT)
    out = x.run("ws recv --timeout 0.3")
    assert "no frame within 0.3 s" in out, out
    assert x.transcript.count('← {"n":"echo-once"}') == 1
    x.send(CTRL_D)
    x.expect_exit()
    # The echo shown above the prompt is written under `ws send`; the replay
    # (frames: live) does not hand it to `ws recv`, which got nothing here.
    text = path.read_text()
    assert "frames: live\n" in text and "> ws recv --timeout 0.3\nerror: no frame within 0.3 s\n" in text, text
    replay = run_explorer(["replay", str(path)], env=env, cwd=tmp_path, timeout=60)
    assert replay.returncode == 0 and "3 steps: 3 passed" in replay.stdout, replay.stdout + replay.stderr + text


def test_a_supplied_secret_is_hidden_in_frames_shown_as_they_arrive(spawn, env, tmp_path):
    # The frames above the prompt were printed by a copy of the renderer
    # taken when the socket was opened: a secret supplied later was shown in
    # clear in the frame sent and in its echo.
    env["EXPLORER_SECRET_NOTE"] = "note-value-xyz"
    path = tmp_path / "secret-echo.transcript"
    x = spawn("--record", str(path), env=env)
    assert "connected to ws://" in x.run("ws connect /__sandbox/echo")
    x.send('ws send {"n":"{{secret:note}}"}' + ENTER)
    x.expect('← {"n":"<hidden: 14 characters>"}')
    x.expect(PROMPT)
    out = x.run("ws recv --timeout 0.3")
    assert "no frame within 0.3 s" in out, out
    x.send(CTRL_D)
    x.expect_exit()
    assert "note-value-xyz" not in x.transcript, x.transcript
    text = path.read_text()
    assert "note-value-xyz" not in text and '{"n":"{{secret:note}}"}' in text, text


def test_ws_close_on_a_peer_that_never_answers_comes_back_to_the_prompt(spawn, socket_server):
    def silent(server, conn):
        websocket_handshake(server, conn)
        server.stopped.wait(30)  # never reads: no answer to the close frame

    server = socket_server(silent, connections=1)
    x = spawn()
    url = f"ws://127.0.0.1:{server.port}/"
    assert "connected to " + url in x.run(f"ws connect {url} --heartbeat 0 --retries 0")
    # The close timeout is 5 s; the wait below allows 10 before failing.
    x.send("ws close" + ENTER)
    x.expect("closed")
    x.expect(PROMPT)
    assert "no WebSocket" in x.run("ws status")


def test_ctrl_c_during_ws_close_on_a_peer_that_never_answers_drops_the_socket_at_once(spawn, socket_server):
    # Ctrl-C stopped `ws recv` and `ws connect`, not `ws close`: it waited out the 5 s close timeout.
    def silent(server, conn):
        websocket_handshake(server, conn)
        server.stopped.wait(30)

    server = socket_server(silent, connections=1)
    x = spawn()
    url = f"ws://127.0.0.1:{server.port}/"
    assert "connected to " + url in x.run(f"ws connect {url} --heartbeat 0 --retries 0")
    x.send("ws close" + ENTER)
    time.sleep(0.5)
    started = time.monotonic()
    x.send(CTRL_C)
    x.expect(PROMPT)
    # Well before the close timeout (5 s): the Ctrl-C did it.
    assert time.monotonic() - started < 4
    assert "no WebSocket" in x.run("ws status")


def test_leaving_with_a_socket_open_closes_it_quietly(spawn):
    x = spawn()
    assert "connected to ws://" in x.run("ws connect /__sandbox/echo")
    x.send(CTRL_D)
    assert x.expect_exit() == 0
    after = x.transcript[x.mark:]
    assert "closed" not in after and "connection lost" not in after, after


def test_a_frame_arriving_while_the_line_wraps_leaves_no_stale_row(spawn):
    # Issue 11 #26: only the cursor's row was cleared, so the first row of a
    # wrapped line stayed on screen above the frame.
    x = spawn()
    base = re.search(r"(http://127\.0\.0\.1:\d+)", x.welcome).group(1)
    x.run("login alice@example.com alice123", prompt=ALICE_PROMPT)
    assert "connected to ws://" in x.run("ws connect", prompt=ALICE_PROMPT)
    cols = x.screen.cols
    long_line = "get /api/tasks city==" + "a" * (cols + 10)  # wraps onto a second row
    x.send(long_line)
    x.wait_until(lambda: x.screen.line().endswith("a" * 10), "the long line to be typed")
    bob_sends_alice(base, "while-wrapped")
    x.expect("while-wrapped")
    x.settle()
    rows = x.screen.text().rstrip().splitlines()
    frame = [i for i, row in enumerate(rows) if re.match(r"^\d\d:\d\d:\d\d ← ", row)]
    assert frame, rows
    before = "\n".join(rows[:frame[-1]])
    assert ALICE_PROMPT + "get /api/tasks city==" not in before, "a stale copy of the line's first row is above the frame:\n" + "\n".join(rows)
    assert "".join(rows[-2:]).startswith(ALICE_PROMPT + "get /api/tasks city==")


def read_until_close(conn):
    """Reads the client's frames until its close frame (opcode 8) or EOF."""
    data = b""
    conn.settimeout(10)
    try:
        while True:
            chunk = conn.recv(4096)
            if not chunk:
                return data
            data += chunk
            # Client frames are masked: the first byte of a close frame is 0x88.
            if b"\x88" in data:
                return data
    except OSError:
        return data


def script(env, base, lines):
    """Runs lines through the explorer as a piped script (no terminal)."""
    return run_explorer(["--base-url", base], input="\n".join(lines) + "\n", env=env)


def test_a_script_shows_the_servers_own_close_code_and_reason(env, socket_server):
    # Issue 11 #31: in a script (no listener to print notices) a server's
    # close code was never shown.
    def closes(server, conn):
        websocket_handshake(server, conn)
        conn.sendall(text_frame(b'{"hello":1}') + close_frame(4003, b"token expired"))
        read_until_close(conn)
        conn.close()

    server = socket_server(closes)
    result = script(env, f"http://127.0.0.1:{server.port}",
                    [f"ws connect ws://127.0.0.1:{server.port}/ --retries 0 --heartbeat 0", "ws recv 3 --timeout 10"])
    said = result.stdout + result.stderr
    assert '{"hello":1}' in said, said
    assert "the server closed the socket (4003: token expired)" in said, said
    assert result.returncode != 0


def test_frames_past_the_inbox_are_said_and_recv_until_finds_its_match_far_past_it(env, socket_server):
    # A soak test: a script that read nothing while 44,000 frames came lost all but the last thousand without a
    # word, and `ws recv --until` searched its whole inbox at every frame (100% of a core, frames read at a crawl),
    # then said no frame matched, the match still on the socket.
    import time

    def floods(server, conn):
        request = read_head(conn)
        if request is None:
            return
        if request.startswith(b"GET /slow "):
            # A request that takes a while: the frames come meanwhile, with no recv waiting.
            time.sleep(1)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
            return
        conn.sendall(websocket_accept(request))
        read_until_close_or(conn, b"go")
        conn.sendall(b"".join(text_frame(b'{"seq":%d}' % n) for n in range(3000)))
        read_until_close_or(conn, b"go")
        time.sleep(0.5)  # the recv --until waits by then
        conn.sendall(b"".join(text_frame(b'{"seq":%d}' % n) for n in range(3000, 8000)))
        read_until_close(conn)
        conn.close()

    server = socket_server(floods)
    base = f"http://127.0.0.1:{server.port}"
    result = script(env, base, [f"ws connect ws://127.0.0.1:{server.port}/ --retries 0 --heartbeat 0",
                                'ws send {"go":1}', "get /slow", "ws status", "ws recv 1",
                                'ws send {"go":2}', "ws recv --until '.seq == 7999' --timeout 30", "ws status"])
    assert result.returncode == 0, result.stdout + result.stderr
    # Past the thousand unread, with no recv waiting: said once, counted.
    assert result.stderr.count("1000 frames wait unread: the oldest are dropped as more come, until a ws recv reads them") == 1, result.stderr
    assert "dropped unread: 2000" in result.stdout and '{"seq":2000}' in result.stdout, result.stdout[-800:]
    # A recv --until reads on far past a thousand for its match: the last thousand before it are kept, none "unread".
    assert '{"seq":7999}' in result.stdout and '{"seq":6999}' not in result.stdout, result.stdout[-500:]
    assert result.stdout.count("dropped unread: 2000") == 2, result.stdout[-300:]


def read_until_close_or(conn, marker):
    """Reads the client's frames until one holds `marker` (masked: the frame is read whole and unmasked) or EOF."""
    conn.settimeout(10)
    data = b""
    while True:
        chunk = conn.recv(4096)
        if not chunk:
            return
        data += chunk
        while len(data) >= 6:
            length = data[1] & 0x7F
            if len(data) < 6 + length:
                break
            mask, payload = data[2:6], data[6:6 + length]
            data = data[6 + length:]
            if marker in bytes(b ^ mask[i % 4] for i, b in enumerate(payload)):
                return


def test_a_script_says_on_standard_error_that_its_socket_dropped_and_opened_again(env, socket_server):
    # In a script the REPL's "connection lost" and "open again" were never said:
    # `ws recv 2` got one frame from each of two connections as if from one.
    def drops(server, conn):
        websocket_handshake(server, conn)
        conn.sendall(text_frame(b'{"greeting":1}'))
        time.sleep(0.3)
        conn.close()

    server = socket_server(drops)
    result = script(env, f"http://127.0.0.1:{server.port}",
                    [f"ws connect ws://127.0.0.1:{server.port}/ --retries 1 --backoff 0.2 --heartbeat 0", "ws recv 2 --timeout 10"])
    assert result.stdout.count('{"greeting":1}') == 2, result.stdout + result.stderr
    lines = result.stderr.splitlines()
    said = [line.split(" ", 1)[1] for line in lines if re.match(r"^\d\d:\d\d:\d\d [·!] ", line)]
    assert said[:4] == ["· connection lost", "· retrying in 0.2 s (try 1 of 1)", "· reconnecting (try 1 of 1)", "· open again"], result.stderr
    assert "\x1b" not in result.stderr, "no colour into a pipe"


def test_a_servers_close_is_recorded_and_its_replay_waits_for_it(env, socket_server, tmp_path):
    # The close was shown, not written: a `ws status` or `ws send` after it failed every replay (the socket
    # was still open there). It is a line of its own, `← (closed 4003: quota exceeded)`, waited for as a frame.
    def closes(server, conn):
        websocket_handshake(server, conn)
        conn.recv(4096)  # the client's message
        conn.sendall(close_frame(4003, b"quota exceeded"))
        read_until_close(conn)
        conn.close()

    server = socket_server(closes)
    recorded = tmp_path / "closed.transcript"
    base = f"http://127.0.0.1:{server.port}"
    result = run_explorer(["--base-url", base, "--record", str(recorded), "-c", f"ws connect ws://127.0.0.1:{server.port}/ --retries 0 --heartbeat 0",
                           "-c", 'ws send {"n":1}', "-c", "ws recv --timeout 5", "-c", "ws status"], env=env)
    text = recorded.read_text()
    assert "← (closed 4003: quota exceeded)\n" in text and "| state: closed\n" in text, text
    for _ in range(3):
        replay = run_explorer(["replay", str(recorded)], env=env, timeout=60)
        assert replay.returncode == 0, replay.stdout + replay.stderr


def record_an_end_and_replay_it(env, server, recorded, end):
    """Records a greeting and how the socket ended (`end`, its transcript line), then `ws status`;
    the recording says closed, and replays green twice. Returns the recording's path."""
    run_explorer(["--base-url", f"http://127.0.0.1:{server.port}", "--record", str(recorded),
                  "-c", f"ws connect ws://127.0.0.1:{server.port}/ --retries 0 --heartbeat 0",
                  "-c", "ws recv 2 --timeout 5", "-c", "ws status"], env=env)
    text = recorded.read_text()
    assert end + "\n" in text and "| state: closed\n" in text, text
    for _ in range(2):
        replay = run_explorer(["replay", str(recorded)], env=env, timeout=60)
        assert replay.returncode == 0, replay.stdout + replay.stderr
    return recorded


def test_a_lost_connection_is_recorded_and_its_replay_and_the_mock_drop_it_too(env, socket_server, tmp_path):
    # A drop (no close frame) was not written: `ws status` after it said closed live and open in every replay.
    # It is written as RFC 6455's 1006, waited for as a close, and the mock drops the connection there.
    def drops(server, conn):
        websocket_handshake(server, conn)
        conn.sendall(text_frame(b'{"hello":1}'))
        time.sleep(0.3)
        conn.close()

    recorded = record_an_end_and_replay_it(env, socket_server(drops), tmp_path / "lost.transcript", "← (closed 1006)")
    # The mock drops the socket after the greeting, with no close frame: a client sees 1006.
    mock = subprocess.Popen([BINARY, "mock", str(recorded), "--port", "0"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        address = re.search(r"http://127\.0\.0\.1:\d+", mock.stdout.readline()).group(0)
        with connect(address.replace("http", "ws", 1) + "/") as ws:
            assert json.loads(ws.recv(timeout=5)) == {"hello": 1}
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=5)
        assert closed.value.rcvd is None, f"closed with a close frame: {closed.value.rcvd}"
    finally:
        mock.terminate()
        mock.communicate(timeout=30)


def test_a_close_over_a_frame_that_is_not_utf8_is_recorded_and_replays(env, socket_server, tmp_path):
    # The explorer's own close (1007, a text frame not UTF-8) was not written: `ws status` after it said
    # closed live and open in every replay. It is written as a close with its code and reason.
    def breaks(server, conn):
        websocket_handshake(server, conn)
        conn.sendall(text_frame(b'{"hello":1}') + text_frame(b"\xff\xfe not utf-8"))
        read_until_close(conn)
        conn.close()

    record_an_end_and_replay_it(env, socket_server(breaks), tmp_path / "broken.transcript",
                                "← (closed 1007: the server sent a text frame that is not valid UTF-8)")


def test_a_send_after_the_server_closed_says_who_closed_it(env, socket_server):
    # It said "no WebSocket (ws connect first)", as if none had been opened, while `ws status` showed it closed.
    def closes(server, conn):
        websocket_handshake(server, conn)
        conn.sendall(close_frame(4003, b"quota exceeded"))
        read_until_close(conn)
        conn.close()

    server = socket_server(closes)
    result = script(env, f"http://127.0.0.1:{server.port}",
                    [f"ws connect ws://127.0.0.1:{server.port}/ --retries 0 --heartbeat 0", "ws recv --timeout 10", 'ws send {"n":1}'])
    assert "error: not sent: the server closed the socket (4003: quota exceeded); ws connect opens another" in result.stderr, result.stderr


def test_a_frame_with_a_broken_header_is_closed_with_1002_and_says_why(env, socket_server):
    # Issue 11: a frame whose header alone is broken (here a reserved bit set
    # with no extension agreed) closed with the right code but no reason shown.
    got = {}

    def broken(server, conn):
        websocket_handshake(server, conn)
        conn.sendall(bytes([0x81 | 0x20, 2]) + b"hi")  # RSV2 set
        got["client"] = read_until_close(conn)
        conn.sendall(close_frame(1002))  # a server answers a close with the code it got
        conn.close()

    server = socket_server(broken)
    result = script(env, f"http://127.0.0.1:{server.port}",
                    [f"ws connect ws://127.0.0.1:{server.port}/ --retries 0 --heartbeat 0", "ws recv --timeout 10"])
    said = result.stdout + result.stderr
    assert "client" in got and got["client"][:1] == b"\x88", "the explorer sends a close frame"
    assert "no frame: the socket was closed (1002, protocol error: a frame broke RFC 6455)" in said, said


def test_json_pasted_over_several_lines_is_sent_as_one_frame(spawn, env):
    # Issue 14: `ws send` with JSON pasted over several lines sent the first
    # line alone and failed; the REPL now reads on at `... ` until it ends.
    x = spawn()
    assert "connected to ws://" in x.run("ws connect /__sandbox/echo --heartbeat 0")
    x.send('ws send {"type": "ping",' + ENTER)
    x.expect("... ")
    x.send('  "n": 2}' + ENTER)
    x.expect('← {"type":"ping","n":2}')
    x.expect(PROMPT)
    assert 'ws send {"type": "ping",   "n": 2}' in history_lines(env)
    # An empty line drops an unfinished one.
    x.send("ws send [1," + ENTER)
    x.expect("... ")
    x.send(ENTER)
    assert "ws send dropped: its JSON did not end (nothing sent)" in x.expect(PROMPT)
    # A command typed at `... ` runs: it was taken into the frame, and never ran.
    x.send('ws send {"a": 1 "b": [' + ENTER)
    x.expect("... ")
    x.send("ws status" + ENTER)
    shown = x.expect(PROMPT)
    assert "ws send dropped: its JSON did not end before the next command (nothing sent)" in shown, shown
    assert "state: open" in shown, shown


def test_json_over_several_lines_is_one_frame_in_a_script_file_and_a_pipe(env, tmp_path):
    # `ws send {` over several lines worked at the prompt only: a script sent
    # the first line alone ("invalid JSON") and ran the rest as commands.
    lines = ["ws connect /__sandbox/echo --heartbeat 0",
             "ws send {", '  "type": "ping",', '  "n": [1,', "  2]", "}",
             "ws recv",
             'ws send {"a":', "",
             "ws status"]
    path = tmp_path / "multi.txt"
    path.write_text("\n".join(lines) + "\n")
    for result, name in [(run_explorer(["run", str(path)], env=env, cwd=tmp_path, timeout=60), str(path)),
                         (run_explorer([], input="\n".join(lines) + "\n", env=env, cwd=tmp_path, timeout=60), "stdin")]:
        assert '{"type":"ping","n":[1,2]}' in result.stdout, result.stdout + result.stderr
        # An unfinished one is one error at its first line; the blank line ends it, and the script goes on.
        assert f"{name}:8: error: invalid JSON: expected a JSON value, found end of input (nothing sent)" in result.stderr, result.stderr
        assert "state: open" in result.stdout
        assert result.returncode == 1


def test_ws_connect_sends_typed_headers_and_session_headers_only_to_the_backend(spawn, socket_server, env):
    # Issue 14: `ws connect URL Header:value`; the session's headers go with a
    # handshake on the backend's origin, and not to another one.
    seen = []

    def record(server, conn):
        request = b""
        conn.settimeout(10)
        while b"\r\n\r\n" not in request:
            chunk = conn.recv(4096)
            if not chunk:
                return
            request += chunk
        seen.append({line.split(b":", 1)[0].strip().lower().decode(): line.split(b":", 1)[1].strip().decode()
                     for line in request.split(b"\r\n")[1:] if b":" in line})
        conn.sendall(websocket_accept(request))
        read_until_close(conn)
        conn.sendall(close_frame(1000))
        conn.close()

    server = socket_server(record)
    base = f"http://127.0.0.1:{server.port}"
    p = f"127.0.0.1:{server.port}> "
    x = spawn("--base-url", base, prompt=p)
    x.run("header X-Api-Key:k3y", prompt=p)
    assert "connected to" in x.run(f"ws connect ws://127.0.0.1:{server.port}/ws X-Trace:7 --heartbeat 0", prompt=p)
    x.run("ws close", prompt=p)
    said = x.run(f"ws connect ws://localhost:{server.port}/ws X-Trace:8 --heartbeat 0", prompt=p)
    assert f"session headers not sent: ws://localhost:{server.port} is not the backend's origin" in said, said
    x.run("ws close", prompt=p)
    assert seen[0]["x-api-key"] == "k3y" and seen[0]["x-trace"] == "7"
    assert "x-api-key" not in seen[1] and seen[1]["x-trace"] == "8"


def test_on_a_dumb_terminal_a_frame_arriving_is_printed_without_escape_codes(spawn, env):
    # An editor's shell buffer (TERM=dumb) showed "^[[J" before each frame.
    env["TERM"] = "dumb"
    x = spawn(env=env)
    base = re.search(r"(http://127\.0\.0\.1:\d+)", x.welcome).group(1)
    x.run("login alice@example.com alice123", prompt=ALICE_PROMPT)
    assert "connected to ws://" in x.run("ws connect", prompt=ALICE_PROMPT)
    start = len(x.transcript)
    bob_sends_alice(base, "to-a-dumb-terminal")
    x.expect("to-a-dumb-terminal")
    x.expect(ALICE_PROMPT)
    assert "\x1b[" not in x.transcript[start:], repr(x.transcript[start:])


def test_a_waiting_ws_recv_shows_each_frame_as_it_comes_and_once(spawn, env, tmp_path):
    # `ws recv 2` showed nothing until the second frame had come, then both.
    path = tmp_path / "recv.transcript"
    x = spawn("--record", str(path))
    base = re.search(r"(http://127\.0\.0\.1:\d+)", x.welcome).group(1)
    x.run("login alice@example.com alice123", prompt=ALICE_PROMPT)
    assert "connected to ws://" in x.run("ws connect", prompt=ALICE_PROMPT)
    x.send("ws recv 2 --timeout 20" + ENTER)
    x.settle()
    bob_sends_alice(base, "first-of-two")
    x.expect("first-of-two")
    assert "second-of-two" not in x.transcript
    bob_sends_alice(base, "second-of-two")
    x.expect(ALICE_PROMPT)
    assert x.transcript.count("first-of-two") == 1 and x.transcript.count("second-of-two") == 1, x.transcript
    x.send(CTRL_D)
    x.expect_exit()
    # The recording has both under the `ws recv`, as before.
    text = path.read_text()
    step = text.split("> ws recv 2 --timeout 20\n")[1]
    assert "first-of-two" in step and "second-of-two" in step, text


def test_a_refused_handshake_says_the_refusals_own_status_and_reason(tmp_path, socket_server):
    # A server that wants a subprotocol: its refusal of the upgrade is 400 with a reason; a plain GET it
    # answers 426. The status was the plain GET's (explorer asked again without the upgrade's headers).
    requests = []

    def picky(server, conn):
        request = read_head(conn)
        if request is None:
            return
        requests.append(request.decode("latin-1"))
        upgrade = b"upgrade: websocket" in request.lower()
        body = b"missing subprotocol\n" if upgrade else b"upgrade required\n"
        status = b"400 Bad Request" if upgrade else b"426 Upgrade Required"
        conn.sendall(b"HTTP/1.1 " + status + b"\r\nContent-Type: text/plain\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body)
        conn.close()

    server = socket_server(picky)
    result = run_explorer(["--base-url", f"http://127.0.0.1:{server.port}", "-c",
                           f"ws connect ws://127.0.0.1:{server.port}/chat X-Trace:7 --retries 0"], env=isolated_env(tmp_path))
    assert result.returncode == 3, result
    assert result.stderr == f"error: handshake rejected by ws://127.0.0.1:{server.port}/chat: HTTP 400 Bad Request: missing subprotocol\n", result.stderr
    assert requests and all("upgrade: websocket" in r.lower() and "x-trace: 7" in r.lower() for r in requests), requests
    assert all(r.lower().count("\norigin:") == 1 for r in requests), requests


def test_an_origin_header_on_ws_connect_is_refused_with_why(tmp_path):
    result = run_explorer(["--base-url", "http://127.0.0.1:9", "-c", "ws connect ws://127.0.0.1:9/ Origin:http://app.example.com"],
                          env=isolated_env(tmp_path))
    assert result.returncode == 1, result  # a usage error in a script line, as any other
    assert "always sends Origin: ws://HOST" in result.stderr, result.stderr


def test_a_repl_recording_of_a_recv_after_streamed_frames_replays(spawn, socket_server, tmp_path):
    # A server that answers a message with an ack and then streams tokens (an LLM's way). In the REPL the
    # `ws recv` typed right after the send got most tokens; its replay paused 250 ms first, which showed
    # (and so took away from the recv) the tokens that came in that time: the replay failed every time.
    import time

    def streams(server, conn):
        websocket_handshake(server, conn)
        conn.recv(4096)  # the client's one message
        conn.sendall(text_frame(b'{"type":"ack"}'))
        for n in range(8):
            time.sleep(0.06)
            conn.sendall(text_frame(b'{"type":"token","i":%d}' % n))
        conn.sendall(text_frame(b'{"type":"done"}'))
        server.stopped.wait(30)

    server = socket_server(streams)
    recorded = tmp_path / "tokens.transcript"
    x = spawn("--base-url", f"http://127.0.0.1:{server.port}", "--record", str(recorded), prompt=f"127.0.0.1:{server.port}> ")
    prompt = f"127.0.0.1:{server.port}> "
    assert "connected to " in x.run(f"ws connect ws://127.0.0.1:{server.port}/ --retries 0 --heartbeat 0", prompt=prompt)
    # Typed ahead: the recv is read the moment the send is done, as a quick typist's would be.
    x.send('ws send {"type":"go"}' + ENTER + "ws recv --until .type==done" + ENTER)
    x.expect('{"type":"done"}', timeout=20)
    x.expect(prompt)
    leave_and_replay(x, recorded, "> ws recv --until .type==done\n", tmp_path)


def leave_and_replay(x, recorded, last, tmp_path):
    """Leaves the REPL, waits for the recording to hold its `last` line,
    replays it and asserts it passed; returns the recording's text."""
    import time

    x.send("exit" + ENTER)
    for _ in range(50):
        if last in recorded.read_text():
            break
        time.sleep(0.1)
    text = recorded.read_text()
    assert last in text, text
    replay = run_explorer(["replay", str(recorded)], env=isolated_env(tmp_path), timeout=60)
    assert replay.returncode == 0, text + replay.stdout + replay.stderr
    return text



def test_a_socket_url_or_peer_the_client_cannot_use_is_said_in_plain_words(socket_server, tmp_path):
    # `ws://u:pw@h` was looked up as a host named `u` (the password in the error), `ws://[::1]` as
    # a host named `[`; a reset or a garbage answer was said in NIO's words.
    import socket as sockets
    import struct

    def reset(server, conn):
        conn.recv(4096)
        conn.setsockopt(sockets.SOL_SOCKET, sockets.SO_LINGER, struct.pack("ii", 1, 0))
        conn.close()

    def garbage(server, conn):
        conn.recv(4096)
        conn.sendall(b"\x00\x01 this is no HTTP\r\n\r\n")

    lines = ["ws connect --retries 0 ws://alice:hunter2@127.0.0.1:9/x", "ws connect --retries 0 ws://[::1]:9/x",
             f"ws connect --retries 0 ws://127.0.0.1:{socket_server(reset).port}/x",
             f"ws connect --retries 0 ws://127.0.0.1:{socket_server(garbage).port}/x"]
    result = run_explorer(["--base-url", "http://127.0.0.1:9"] + [a for line in lines for a in ("-c", line)], env=isolated_env(tmp_path), timeout=60)
    errors = result.stderr.splitlines()
    assert len(errors) == 4 and "hunter2" not in result.stderr, result.stderr
    assert errors[0] == ("-c 1: error: 'ws://alice:…@127.0.0.1:9/x' has a user:password@ in it, which the WebSocket client does not send; "
                         "use `auth basic USER:PASSWORD` or an Authorization: header")
    assert "names an IPv6 address" in errors[1], errors[1]
    assert errors[2].endswith(": the server reset the connection"), errors[2]
    assert errors[3].endswith("answered with something that is not HTTP"), errors[3]


def test_a_replayed_recv_waits_for_its_frames_as_long_as_its_own_timeout(socket_server, tmp_path):
    # A `ws recv --timeout 7` whose step recorded a frame that came 5.6 s in: the replay waited 5 s for it, and failed.
    import time

    def late(server, conn):
        websocket_handshake(server, conn)
        conn.sendall(text_frame(b'{"n": 1}'))
        time.sleep(5.6)
        conn.sendall(text_frame(b'{"n": 2}'))
        time.sleep(0.5)

    server = socket_server(late)
    url = f"ws://127.0.0.1:{server.port}/x"
    path = tmp_path / "late.transcript"
    path.write_text("# explorer transcript v1\nprofile: generic\nbase-url: http://127.0.0.1:9\n\n"
                    f"> ws connect --retries 0 {url}\n| connected to {url}\n← {{\n  \"n\": 1\n}}\n\n"
                    '> ws recv --timeout 7\n[\n  {\n    "n": 1\n  }\n]\n← {\n  "n": 2\n}\n')
    replayed = run_explorer(["replay", str(path)], env=isolated_env(tmp_path), timeout=60)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr


def test_a_replay_at_the_prompt_shows_its_frames_under_their_steps(spawn, env, tmp_path):
    # `replay` in the REPL printed its report at the end: the frames the
    # session showed as they came stood above the file's name.
    path = tmp_path / "ping.transcript"
    recorded = run_explorer(["--record", str(path), "-c", "ws connect /__sandbox/echo", "-c", 'ws send {"n":"under-its-step"}',
                             "-c", "ws recv", "-c", "ws close"], env=env, cwd=tmp_path, timeout=60)
    assert recorded.returncode == 0, recorded.stdout + recorded.stderr
    x = spawn()
    out = x.run(f"replay {path}")
    heading, sent, verdict = out.find(str(path)), out.find('→ {"n":"under-its-step"}'), out.find("ok      line  8")
    assert -1 < heading < sent < verdict, out
    assert "4 steps: 4 passed, 0 failed" in out, out


def test_a_repl_recording_with_ws_status_and_an_app_ping_taken_by_recv_replays(spawn, socket_server, tmp_path):
    # Frames shown as they came at connect made the replayed `ws status` say "not yet shown: 2" where the
    # REPL had said 0, every time; an app's `{"type":"ping"}` a waiting `ws recv 3` took was written in its
    # frames, and the replay handed heartbeats to no recv: "expected 3 elements, got 2", every time.
    import time

    def chat(server, conn):
        websocket_handshake(server, conn)
        conn.sendall(text_frame(b'{"type":"welcome"}') + text_frame(b'{"type":"presence","who":"bob"}'))
        conn.recv(4096)  # the sync
        time.sleep(0.3)
        conn.sendall(text_frame(b'{"type":"presence","who":"carol"}'))
        time.sleep(0.05)
        conn.sendall(text_frame(b'{"type":"ping"}'))
        time.sleep(0.05)
        conn.sendall(text_frame(b'{"type":"typing","who":"carol"}'))
        server.stopped.wait(30)

    server = socket_server(chat)
    recorded = tmp_path / "chat.transcript"
    prompt = f"127.0.0.1:{server.port}> "
    x = spawn("--base-url", f"http://127.0.0.1:{server.port}", "--record", str(recorded), prompt=prompt)
    x.send(f"ws connect ws://127.0.0.1:{server.port}/ --retries 0 --heartbeat 0" + ENTER)
    x.expect('"who":"bob"')
    x.expect(prompt)
    assert "not yet shown: 0" in x.run("ws status", prompt=prompt)
    x.send('ws send {"type":"sync"}' + ENTER + "ws recv 3" + ENTER)
    x.expect('"typing"', timeout=20)
    x.expect(prompt)
    text = leave_and_replay(x, recorded, "> ws recv 3\n", tmp_path)
    assert '"type": "ping"' in text, text


@contextlib.contextmanager
def token_backend(http_server, tmp_path, answers, admits, handler):
    """A login backend (`answers`: path -> (status, JSON) for its POSTs) and a socket beside it that refuses a
    handshake with a 401 unless `admits(path)`; yields the path of a profile file naming both, the socket's
    path carrying the access token."""
    import threading
    from http.server import BaseHTTPRequestHandler
    from websockets.sync.server import serve
    from websockets.http11 import Response
    from websockets.datastructures import Headers

    class Tokens(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            status, body = answers.get(self.path, (404, {"error": "not_found"}))
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    def refuse(connection, request):
        return None if admits(request.path) else Response(401, "Unauthorized", Headers([("Content-Length", "13")]), b"token expired")

    rest = http_server(Tokens)
    sockets = serve(handler, "127.0.0.1", 0, process_request=refuse)
    threading.Thread(target=sockets.serve_forever, daemon=True).start()
    try:
        profile = tmp_path / "app.yaml"
        profile.write_text("explorer-profile: 1\nname: app\n"
                           f"environments: {{local: {{base-url: \"http://127.0.0.1:{rest.server_address[1]}\", "
                           f"websocket-url: \"ws://127.0.0.1:{sockets.socket.getsockname()[1]}\"}}}}\n"
                           "auth: {kind: login, login-path: /login, refresh-path: /refresh, whoami-path: /me, user: .user}\n"
                           "websocket: {path: \"/ws?token={accessToken}\"}\n")
        yield profile
    finally:
        sockets.shutdown()


def test_a_first_handshake_refused_for_an_expired_token_is_tried_again_after_a_refresh(http_server, tmp_path):
    # An app resumed after sleeping opens its socket with an opaque token that has expired: `ws connect`
    # failed with the handshake's 401 and refreshed nothing, until a request happened to refresh it.
    def handler(socket):
        socket.send("hello")
        for _ in socket:
            pass

    answers = {"/login": (200, {"access_token": "A1", "refresh_token": "R1", "user": {"id": 7}}),
               "/refresh": (200, {"access_token": "A2", "refresh_token": "R2", "user": {"id": 7}})}
    with token_backend(http_server, tmp_path, answers, lambda path: "token=A2" in path, handler) as profile:
        result = run_explorer(["--profile", str(profile), "-c", "login ann@example.com pw", "-c", "ws connect", "-c", "ws recv 1"],
                              env=isolated_env(tmp_path), stdin=subprocess.DEVNULL, timeout=30)
    assert result.returncode == 0, result
    assert "connected to ws://" in result.stdout and "hello" in result.stdout, result


def test_a_socket_stops_reconnecting_when_a_refused_refresh_ends_the_login(http_server, tmp_path):
    # The refresh refused, the session ended: the socket went on trying for half a minute ("try 4 failed: not
    # logged in", "retrying in 16 s"), printing the prompt of a session that had ended.
    opened = []

    def only_once(path):
        opened.append(path)
        return len(opened) == 1

    def handler(socket):
        socket.send("hello")
        time.sleep(0.3)
        socket.close(code=1011, reason="restart")

    answers = {"/login": (200, {"access_token": "A1", "refresh_token": "R1", "user": {"id": 7}}), "/refresh": (401, {"error": "invalid_grant"})}
    with token_backend(http_server, tmp_path, answers, only_once, handler) as profile:
        started = time.monotonic()
        result = run_explorer(["--profile", str(profile), "-c", "login ann@example.com pw", "-c", "ws connect --backoff 1 --retries 5",
                               "-c", "ws recv 2 --timeout 15", "-c", "ws status"],
                              env=isolated_env(tmp_path), stdin=subprocess.DEVNULL, timeout=60)
    said = result.stdout + result.stderr
    assert "not reconnecting: session expired, please log in" in said, said
    assert "try 4" not in said and time.monotonic() - started < 14, said
