"""Streamed answers on a real terminal, from Python's http.server: JSON
lines and Server-Sent Events are shown as they come (before the answer
ends), an endless event stream is left with Ctrl-C and the REPL goes on,
and the status line says how many lines were shown rather than showing the
body again. A script (`-c`) writes the rows out as they come too, and stops
an endless stream when its reader goes away. Issue 14, "Streaming".
"""
import json
import subprocess
import time

import pytest

from support import BINARY, ENTER, QuietHandler, isolated_env, run_explorer


class Streams(QuietHandler):
    protocol_version = "HTTP/1.1"

    def chunk(self, data):
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def do_GET(self):
        if self.path.startswith("/sign-in"):
            self.send_response(204)
            self.send_header("Set-Cookie", "sid=jarcookie7f3a91; Path=/")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if self.path.startswith("/moved"):
            self.send_response(302)
            self.send_header("Location", "/lines")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        if self.path.startswith("/echo"):
            # The rows echo what the request carried and what this answer sets.
            self.send_header("Content-Type", "application/x-ndjson")
            self.send_header("Set-Cookie", "csrf=headcookie55e2b0; Path=/")
            self.send_header("Content-Length", str(len(self.echoed())))
            self.end_headers()
            self.wfile.write(self.echoed())
            return
        if self.path.startswith("/lines"):
            self.send_header("Content-Type", "application/x-ndjson")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for n in range(3):
                self.chunk((json.dumps({"n": n}) + "\n").encode())
                time.sleep(0.3)
            # The last line comes after a pause long enough to see the others first.
            time.sleep(3)
            self.chunk(b'{"n": "last"}\n')
            self.wfile.write(b"0\r\n\r\n")
            return
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        if self.path.startswith("/quiet"):
            # One event, then silence.
            self.chunk(b"data: only one\n\n")
            time.sleep(20)
            return
        if self.path.startswith("/broken"):
            # Two events, half of a third, and the connection drops.
            for n in range(2):
                self.chunk(f"data: kept {n}\n\n".encode())
            self.chunk(b"data: half of the ")
            self.close_connection = True
            return
        if self.path.startswith("/drip"):
            # An event every 0.6 s: each gap longer than a --timeout of 0.5.
            try:
                for n in range(8):
                    self.chunk(f"data: drop {n}\n\n".encode())
                    time.sleep(0.6)
                self.wfile.write(b"0\r\n\r\n")
            except OSError:
                pass
            return
        n = 0
        try:
            while n < 200:
                event = f"event: tick\nid: {n}\ndata: {{\"i\": {n}}}\n\n" if n % 2 else f": keep-alive\ndata: hello {n}\ndata: more\n\n"
                self.chunk(event.encode())
                n += 1
                time.sleep(0.2)
        except OSError:
            pass


    def echoed(self):
        carried = self.headers.get("Cookie", "") + " " + self.headers.get("Authorization", "")
        return (json.dumps({"carried": carried}) + "\n" + json.dumps({"set": "headcookie55e2b0"}) + "\n").encode()


@pytest.fixture
def server(http_server):
    return http_server(Streams).server_address[1]


def test_json_lines_show_as_they_come(spawn, server, tmp_path):
    prompt = f"127.0.0.1:{server}> "
    recorded = tmp_path / "lines.transcript"
    x = spawn("--base-url", f"http://127.0.0.1:{server}", "--record", str(recorded), prompt=prompt)
    x.send("get /lines" + ENTER)
    x.expect('⇣ {"n":2}')
    assert '"last"' not in x.transcript, "the first lines show before the answer ends"
    after = x.expect(prompt, timeout=15)
    assert '⇣ {"n":"last"}' in after and "HTTP/1.1 200 OK" in after and "4 lines streamed above" in after, after
    assert after.count('"last"') == 1, "the body is not shown again"
    assert '"n": "last"' in x.run("show", prompt=prompt)
    x.close()
    # How the terminal showed it is not recorded: a replay, which shows the body whole, passes.
    assert "streamed above" not in recorded.read_text(), recorded.read_text()
    replayed = run_explorer(["replay", str(recorded)], env=isolated_env(tmp_path), timeout=60)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr


def test_an_endless_event_stream_stops_on_ctrl_c(spawn, server):
    prompt = f"127.0.0.1:{server}> "
    x = spawn("--base-url", f"http://127.0.0.1:{server}", prompt=prompt)
    x.send("get /events" + ENTER)
    x.expect("⇣ hello 0\\nmore")
    x.expect('⇣ tick: {"i": 1}')
    x.send("\x03")
    stopped = x.expect(prompt)
    assert "stopped: " in stopped and "lines streamed above" in stopped, stopped
    assert "^Cstopped" not in x.transcript, "on a line of its own, not after the echoed ^C"
    assert "keep-alive" not in x.transcript and "id: " not in x.transcript
    # `show` has what came of the stopped stream, not an earlier answer or "no response yet".
    shown = x.run("show", prompt=prompt)
    assert "data: hello 0" in shown and "no response yet" not in shown, shown
    assert "usage: next" in x.run("help next", prompt=prompt)  # the REPL goes on


def test_a_stream_that_goes_silent_ends_after_the_timeout_given(spawn, server):
    # It waited for ever: the head and one event came, then nothing, and --timeout 1 did not apply.
    prompt = f"127.0.0.1:{server}> "
    x = spawn("--base-url", f"http://127.0.0.1:{server}", prompt=prompt)
    started = time.monotonic()
    x.send("get /quiet --timeout 1" + ENTER)
    x.expect("⇣ only one")
    said = x.expect(prompt, timeout=10)
    assert "did not answer in time: it sent nothing for 1 s" in said, said
    assert time.monotonic() - started < 8
    assert "usage: next" in x.run("help next", prompt=prompt)  # the REPL goes on


def test_a_silence_longer_than_the_timeout_ends_the_stream_at_the_first_gap(server, tmp_path):
    # The silence was looked at every `--timeout` seconds: gaps of 0.6 s with --timeout 0.5 each fell
    # between two looks, and the stream ran to its end (a 0.9 s limit let 1 s gaps through nine times in ten).
    result = run_explorer(["--base-url", f"http://127.0.0.1:{server}", "-c", "get /drip --timeout 0.5 -b"],
                          env=isolated_env(tmp_path), timeout=30)
    assert "it sent nothing for 0.5 s" in result.stderr, result.stderr
    assert result.stdout.count("drop ") < 4, result.stdout


def test_show_and_save_have_what_a_broken_stream_sent(server, tmp_path):
    # The rows shown, then "the last request got no answer: nothing to show": what came was lost.
    saved = tmp_path / "came.txt"
    result = run_explorer(["--base-url", f"http://127.0.0.1:{server}", "-c", "get /broken", "-c", "show",
                           "-c", f"save {saved}", "-c", "get /quiet --timeout 1", "-c", "show"], env=isolated_env(tmp_path), timeout=30)
    assert "the server closed the connection" in result.stderr and "show and save have what came" in result.stderr, result.stderr
    assert "no answer" not in result.stderr, result.stderr
    # The half event it broke inside is shown as the rows before it were, said to be cut.
    assert "kept 1\nhalf of the   (cut: the stream ended inside this event)\n" in result.stdout, result.stdout
    assert saved.read_text() == "data: kept 0\n\ndata: kept 1\n\ndata: half of the ", saved.read_text()
    assert "did not answer in time" in result.stderr and result.stdout.rstrip().endswith("data: only one"), result.stdout


def test_a_script_writes_the_rows_as_they_come(server, tmp_path):
    # `-c` showed nothing until the answer ended: an endless stream, nothing at all.
    url = f"http://127.0.0.1:{server}"
    script = subprocess.Popen([BINARY, "--base-url", url, "-c", "get /lines -b"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=isolated_env(tmp_path))
    started = time.monotonic()
    first = script.stdout.readline()
    assert first == '{"n":0}\n' and time.monotonic() - started < 2.5, "the first row came before the 3 s pause"
    rest, errors = script.communicate(timeout=20)
    # With the body alone (-b) the rows are all there is: `-b | jq` reads them.
    assert rest == '{"n":1}\n{"n":2}\n{"n":"last"}\n' and script.returncode == 0, (rest, errors)
    whole = run_explorer(["--base-url", url, "-c", "get /lines"], env=isolated_env(tmp_path), timeout=20)
    assert whole.stdout.startswith('{"n":0}\n') and "HTTP/1.1 200 OK" in whole.stdout, whole.stdout
    assert whole.stdout.rstrip().endswith("4 lines streamed above"), whole.stdout


def test_v_shows_a_streams_request_above_its_rows_as_httpie_does(spawn, server, tmp_path):
    # The request came after the rows, under them: HTTPie prints it first, as it went out.
    url = f"http://127.0.0.1:{server}"
    script = run_explorer(["--base-url", url, "-c", "get /lines -v", "-c", "get /lines -v"], env=isolated_env(tmp_path), timeout=30)
    first, second = script.stdout.split("streamed above\n")[:2]
    for shown in (first, second):
        assert shown.startswith("GET /lines HTTP/1.1\n") and shown.count("GET /lines HTTP/1.1") == 1, shown
        assert shown.index("GET /lines") < shown.index('{"n":0}') < shown.index("HTTP/1.1 200 OK"), shown
    # Redirects followed: the hops are known at the end only, so all of it is shown there, each request once.
    followed = run_explorer(["--base-url", url, "-c", "get /moved -v --follow"], env=isolated_env(tmp_path), timeout=30).stdout
    assert followed.index('{"n":0}') < followed.index("GET /moved HTTP/1.1") < followed.index("HTTP/1.1 302") \
        < followed.index("GET /lines HTTP/1.1") < followed.index("HTTP/1.1 200 OK"), followed
    prompt = f"127.0.0.1:{server}> "
    x = spawn("--base-url", url, prompt=prompt)
    x.send("get /lines -v" + ENTER)
    x.expect('⇣ {"n":0}')
    assert "GET /lines HTTP/1.1" in x.transcript, "the request shows before the first row"
    after = x.expect(prompt, timeout=15)
    assert "GET /lines HTTP/1.1" not in after and "HTTP/1.1 200 OK" in after, after
    x.close()


def test_a_script_stops_an_endless_stream_when_its_reader_goes_away(server, tmp_path):
    # `explorer -c 'get /events' | head -2` ran on after head had gone, for ever.
    script = subprocess.Popen([BINARY, "--base-url", f"http://127.0.0.1:{server}", "-c", "get /events"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=isolated_env(tmp_path))
    assert script.stdout.readline() == "hello 0\n"
    assert script.stdout.readline() == "more\n"
    script.stdout.close()
    script.wait(timeout=10)
    assert script.returncode == 3 and script.stderr.read() == "", "a reader that went away is worth no word"


def test_a_stream_shows_its_rows_only_where_the_body_is_asked_for(server, tmp_path):
    # -h and -p H printed the rows all the same.
    url = f"http://127.0.0.1:{server}"
    headers = run_explorer(["--base-url", url, "-c", "get /lines -h"], env=isolated_env(tmp_path), timeout=20)
    assert headers.returncode == 0 and "Content-Type: application/x-ndjson" in headers.stdout, headers.stdout
    assert '"n"' not in headers.stdout and "streamed above" not in headers.stdout, headers.stdout


def test_a_streamed_row_hides_the_cookies_and_token_the_request_went_with(server, tmp_path):
    # The jar's cookie, the session's token (both added after the line was
    # read) and a cookie the stream's own head set were shown in its rows in
    # clear, where a whole body hid them.
    url = f"http://127.0.0.1:{server}"
    result = run_explorer(["--base-url", url, "-c", "get /sign-in", "-c", "header Authorization:'Token opaque9c1d77e0'",
                           "-c", "get /echo"], env=isolated_env(tmp_path), timeout=20)
    assert result.returncode == 0, result.stderr
    rows = result.stdout[result.stdout.index('{"carried"'):]
    for secret in ("jarcookie7f3a91", "headcookie55e2b0", "opaque9c1d77e0"):
        assert secret not in rows, rows
    assert rows.count("<hidden") >= 3, rows
