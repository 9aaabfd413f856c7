"""`explorer mock` through the built binary, driven by clients nobody here
wrote: Python's urllib.request for HTTP and the `websockets` package for the
socket. The mock serves sessions/linku (or a copy, or a folder made here) on
127.0.0.1 and a port it picks (`--port 0`, read from its first line), and is
stopped with SIGTERM, which must end it with status 0 at once.

Covered: alice's flow as create-task.transcript and chat.transcript recorded
it (a JWT-shaped token, a task read back by the id it was given, a chat frame
acked with an integer id that the REST read receipt then takes); bad input,
each with one clear answer and the mock serving on after it (a body that is not
JSON, a body over 8 MiB, an unknown path, a frame nothing recorded, a
transcript deleted while serving, one that does not parse, a folder with none);
/__mock/state and /__mock/reset; and no secret in clear on stderr or in a 404.

Three tests here found defects when written (a client that sends
`Connection: close` with a body over the limit waited forever; a socket on an
unrecorded path got a bare 400; an empty folder got two lines); each now
guards its fix.
"""
import base64
import inspect
import json
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as websocket_connect

from support import BINARY, ROOT, isolated_env

LINKU = ROOT / "sessions" / "linku"
MIB = 1 << 20
SECRET = "hunter2-secret"
JWT = re.compile(r"^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$")
NEW_TASK = {"title": "Fix my bike", "description": "The rear wheel is buckled.", "price": 25, "city": "Leeds", "category": "repair"}
# chat.transcript line 100: what alice sends over her socket.
CHAT_FRAME = {"type": "message", "client_message_id": "a-2", "receiver_id": 2, "content": "I can come at 10."}
# Loopback only: no proxy from the environment, for either client.
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class Mock:
    """One `explorer mock` child: its port, and what it printed so far."""

    def __init__(self, args, tmp_path, cwd):
        env = isolated_env(tmp_path, drop_prefixes=("EXPLORER_SANDBOX_",))
        self.process = subprocess.Popen([BINARY, "mock", *args, "--port", "0", "--host", "127.0.0.1"], cwd=cwd, env=env,
                                        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.out, self.err = [], []
        self.readers = [threading.Thread(target=self._read, args=(stream, lines), daemon=True)
                        for stream, lines in ((self.process.stdout, self.out), (self.process.stderr, self.err))]
        for reader in self.readers:
            reader.start()
        self.returncode = None

    def _read(self, stream, lines):
        for line in stream:
            lines.append(line.rstrip("\n"))

    def wait_until(self, seen, timeout=20):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if seen():
                return True
            if self.process.poll() is not None:
                for reader in self.readers:
                    reader.join(5)
                return seen()
            time.sleep(0.02)
        return False

    def started(self):
        """Waits for `Ctrl-C stops.`; the port is on the first line."""
        assert self.wait_until(lambda: "Ctrl-C stops." in self.out), f"the mock did not start:\n{self.said()}"
        first = re.fullmatch(r"Mock listening on http://127\.0\.0\.1:(\d+) \((match|scenario) mode\)", self.out[0])
        assert first, self.said()
        self.port = int(first.group(1))
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        return self

    def said(self):
        return "stdout:\n" + "\n".join(self.out) + "\nstderr:\n" + "\n".join(self.err)

    def log_line(self, text, timeout=5):
        """The stderr line holding `text`, once it is written."""
        assert self.wait_until(lambda: any(text in line for line in self.err), timeout), f"no stderr line with {text!r}:\n{self.said()}"
        return next(line for line in self.err if text in line)

    def finish(self, timeout=20):
        """The status of a mock that ends by itself, once all it printed is read."""
        self.returncode = self.process.wait(timeout)
        for reader in self.readers:
            reader.join(5)
        return self.returncode

    def stop(self):
        """SIGTERM; the mock must be gone within 5 s, with status 0."""
        if self.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.returncode = self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                self.returncode = "still running 5 s after SIGTERM"
            for reader in self.readers:
                reader.join(5)
        return self.returncode

    # HTTP, through urllib.request

    def call(self, method, path, body=None, *, raw=None, content_type="application/json", session=None, token=None,
             headers=(), timeout=10):
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", content_type)
        if session:
            request.add_header("X-Mock-Session", session)
        if token:
            request.add_header("Authorization", "Bearer " + token)
        for name, value in headers:
            request.add_header(name, value)
        try:
            with OPENER.open(request, timeout=timeout) as response:
                status, payload = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, payload = error.code, error.read()
        return status, (json.loads(payload) if payload else None)

    def login(self, email="alice@example.com", password="any-password-will-do", session=None):
        status, body = self.call("POST", "/api/secure-auth/login", {"email": email, "password": password}, session=session)
        assert status == 200, (status, body)
        return body

    def socket(self, path, session=None):
        headers = {"X-Mock-Session": session} if session else None
        return websocket_connect(self.ws_base + path, additional_headers=headers, open_timeout=5, close_timeout=5, **NO_PROXY)

    def assert_serving(self):
        """A fresh client session still logs in: the mock survived what came before."""
        body = self.login(session=f"still-serving-{time.monotonic_ns()}")
        assert JWT.match(body["access_token"]), body


# websockets 15 and later read proxies from the environment unless told not to.
NO_PROXY = {"proxy": None} if "proxy" in inspect.signature(websocket_connect).parameters else {}


@pytest.fixture
def start(tmp_path):
    """start(*args, cwd=ROOT) runs `explorer mock ARGS --port 0`; each is stopped with SIGTERM afterwards."""
    mocks = []

    def starting(*args, cwd=ROOT, wait=True):
        mock = Mock(args, tmp_path, cwd)
        mocks.append(mock)
        return mock.started() if wait else mock

    yield starting
    for mock in mocks:
        if mock.process.poll() is None:
            assert mock.stop() == 0, f"SIGTERM did not stop the mock cleanly: {mock.returncode}\n{mock.said()}"


def unmatched(status, body):
    """A 404 in LinkU's envelope: the message, for more checks."""
    assert status == 404, (status, body)
    assert set(body) == {"error", "message", "error_code", "status_code"}, body
    assert body["error"] is True and body["error_code"] == "NOT_RECORDED" and body["status_code"] == 404, body
    return body["message"]


def jwt_header(token):
    head = token.split(".")[0]
    return json.loads(base64.urlsafe_b64decode(head + "=" * (-len(head) % 4)))


# --------------------------------------------------------------------------
# Starting and stopping
# --------------------------------------------------------------------------


def test_it_prints_its_address_and_transcripts_and_sigterm_ends_it_at_once(start):
    mock = start("sessions/linku", "--mode", "scenario")
    names = sorted(p.name for p in LINKU.glob("*.transcript"))
    assert mock.out[0] == f"Mock listening on http://127.0.0.1:{mock.port} (scenario mode)"
    listed = mock.out[1:-1]
    assert [re.match(r"  sessions/linku/([^:]+): ", line).group(1) for line in listed] == names, mock.said()
    assert all(re.fullmatch(r"  sessions/linku/[\w-]+\.transcript: \d+ request steps?(, \d+ WebSocket steps?)?", line)
               for line in listed), mock.said()
    chat = next(line for line in listed if "chat.transcript" in line)
    assert re.search(r"\d+ request steps, 3 WebSocket steps$", chat), chat
    assert mock.out[-1] == "Ctrl-C stops."
    assert mock.err == [], mock.said()

    # A socket and a keep-alive connection are open when the signal comes: neither holds it up.
    with mock.socket("/ws/chat/1?token=t") as ws:
        keep_alive = socket.create_connection(("127.0.0.1", mock.port), timeout=5)
        keep_alive.sendall(b"GET /__mock/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert keep_alive.recv(100).startswith(b"HTTP/1.1 200"), "the state is served"
        began = time.monotonic()
        assert mock.stop() == 0, mock.said()
        assert time.monotonic() - began < 3
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=5)
        keep_alive.close()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", mock.port), timeout=2).close()


def test_a_sandbox_variable_that_does_not_read_is_refused_as_the_sandbox_refuses_it(tmp_path):
    # EXPLORER_SANDBOX_FAULT_SEED=seven was dropped without a word, and the faults were not repeatable.
    for name, value, said in [("EXPLORER_SANDBOX_FAULT_SEED", "seven", "expected an unsigned 64-bit integer"),
                              ("EXPLORER_SANDBOX_ERROR_RATE", "2", "expected a share from 0 to 1")]:
        env = isolated_env(tmp_path, drop_prefixes=("EXPLORER_SANDBOX_",))
        env[name] = value
        result = subprocess.run([BINARY, "mock", "sessions/linku", "--port", "0"], cwd=ROOT, env=env, capture_output=True, text=True,
                                timeout=30, stdin=subprocess.DEVNULL)
        assert result.returncode == 2 and result.stderr.strip() == f"error: {name}='{value}': {said}", result


def test_a_path_whose_percent_encoding_does_not_decode_is_a_400(start):
    # `/api/tasks/%ZZ` was answered 200 with `"id": "%ZZ"`.
    mock = start("sessions/linku")
    status, body = mock.call("GET", "/api/tasks/%ZZ")
    assert status == 400 and body["error_code"] == "BAD_REQUEST" and "percent-encoding is not valid" in body["message"], (status, body)
    # A query's too: it was "query q differs", a 404 naming a step.
    status, body = mock.call("GET", "/api/tasks?page=%ZZ")
    assert status == 400 and "the query's percent-encoding is not valid" in body["message"], (status, body)
    mock.assert_serving()


def test_a_reset_restarts_the_faults_from_their_seed(start):
    # UI tests reset between cases got faults that depended on which cases ran before.
    mock = start("sessions/linku", "--error-rate", "0.5", "--fault-seed", "7")
    def statuses():
        return [mock.call("GET", "/api/tasks")[0] for _ in range(12)]
    first = statuses()
    assert any(status < 500 for status in first) and any(status >= 500 for status in first), first
    assert mock.call("POST", "/__mock/reset")[0] == 200
    assert statuses() == first


def test_a_connection_that_sends_nothing_or_half_a_body_holds_a_stop_up_for_3_s_and_a_second_signal_not_at_all(start):
    # An idle connection, or a stalled upload, held a graceful stop for ever: SIGTERM and Ctrl-C, even twice,
    # left the mock running until `kill -9`.
    mock = start("sessions/linku")
    idle = socket.create_connection(("127.0.0.1", mock.port), timeout=5)
    half = socket.create_connection(("127.0.0.1", mock.port), timeout=5)
    half.sendall(b"POST /api/tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{")
    time.sleep(0.2)
    began = time.monotonic()
    assert mock.stop() == 0, mock.said()
    assert 2 < time.monotonic() - began < 5, time.monotonic() - began
    assert "stopped: a client still held a connection open after 3 s" in mock.err, mock.said()
    idle.close()
    half.close()

    again = start("sessions/linku")
    held = socket.create_connection(("127.0.0.1", again.port), timeout=5)
    time.sleep(0.2)
    again.process.send_signal(signal.SIGINT)
    time.sleep(0.3)
    began = time.monotonic()
    again.process.send_signal(signal.SIGINT)
    assert again.finish(5) == 128 + signal.SIGINT and time.monotonic() - began < 2
    held.close()


# --------------------------------------------------------------------------
# Alice's flows, as recorded
# --------------------------------------------------------------------------


def test_alice_logs_in_creates_a_task_and_reads_it_back(start):
    mock = start("sessions/linku", "--mode", "scenario")
    session = "alice-tasks"
    login = mock.login(password="not-what-was-recorded", session=session)
    token = login["access_token"]
    assert JWT.match(token), token
    assert jwt_header(token)["alg"] == "HS256"
    assert JWT.match(login["refresh_token"]) and login["refresh_token"] != token
    assert login["user"]["email"] == "alice@example.com" and login["user"]["id"] == 1

    status, task = mock.call("POST", "/api/tasks", NEW_TASK, session=session, token=token)
    assert status == 201, task
    assert isinstance(task["id"], int) and not isinstance(task["id"], bool)
    assert {k: task[k] for k in NEW_TASK} == NEW_TASK
    assert task["poster_id"] == 1 and task["status"] == "open"

    status, read = mock.call("GET", f"/api/tasks/{task['id']}", session=session, token=token)
    assert status == 200, read
    assert read["id"] == task["id"] and read["title"] == "Fix my bike"

    status, listed = mock.call("GET", "/api/tasks?city=Leeds", session=session, token=token)
    assert status == 200, listed
    assert [t["id"] for t in listed["tasks"]] == [task["id"]]

    # The session followed create-task.transcript to its end, and nothing was logged.
    status, state = mock.call("GET", "/__mock/state")
    assert status == 200
    mine = next(s for s in state["sessions"] if s["session"] == session)
    flow = next(t for t in mine["transcripts"] if t["transcript"].endswith("create-task.transcript"))
    assert (flow["done"], flow["steps"], flow["following"]) == (4, 4, True), flow
    assert mine["answered"] == 4, mine
    assert mock.err == [], mock.said()


def test_alice_chats_over_the_socket_and_the_read_receipt_takes_the_acked_id(start):
    mock = start("sessions/linku", "--mode", "scenario")
    session = "alice-chat"
    status, body = mock.call("POST", "/__mock/reset?scenario=chat", session=session)
    assert (status, body) == (200, {"reset": True, "scenario": "chat"})
    token = mock.login(session=session)["access_token"]

    with mock.socket(f"/ws/chat/1?token={token}", session=session) as ws:
        ws.send(json.dumps(CHAT_FRAME))
        ack = json.loads(ws.recv(timeout=5))
        assert ack["type"] == "ack" and ack["client_message_id"] == "a-2", ack
        message_id = ack["message"]["id"]
        assert isinstance(message_id, int) and not isinstance(message_id, bool), ack
        assert ack["message"]["content"] == "I can come at 10." and ack["message"]["is_read"] is False

        status, read = mock.call("PUT", f"/api/users/messages/{message_id}/read", session=session, token=token)
        assert status == 200, read
        assert read["id"] == message_id and read["is_read"] is True, read
        # The receipt reaches the socket open in the same session.
        receipt = json.loads(ws.recv(timeout=5))
        assert receipt["type"] == "read" and receipt["message_id"] == message_id, receipt
        # The application heartbeat is answered, not a reason to close.
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=5)) == {"type": "pong"}
    assert mock.err == [], mock.said()


# --------------------------------------------------------------------------
# Bad input: one clear answer each, and the mock serves on
# --------------------------------------------------------------------------


def test_a_body_that_is_not_json_where_json_was_recorded_names_the_closest_step(start):
    for mode in ("match", "scenario"):
        mock = start("sessions/linku", "--mode", mode)
        session = f"not-json-{mode}"
        token = mock.login(session=session)["access_token"]
        status, body = mock.call("POST", "/api/tasks", raw=b"title=Fix my bike&price=25", session=session, token=token)
        message = unmatched(status, body)
        assert re.search(r"^no recorded step for POST /api/tasks: closest is line \d+ of [\w-]+\.transcript, "
                         r"body is not JSON, recorded a JSON body", message), message
        assert mock.log_line("POST /api/tasks → 404").endswith(message)
        # The flow did not move: the recorded body is still answered next.
        status, task = mock.call("POST", "/api/tasks", NEW_TASK, session=session, token=token)
        assert status == 201, task
        mock.assert_serving()


def test_a_body_over_8_mib_gets_413_and_8_mib_itself_is_compared(start):
    mock = start("sessions/linku")
    head, tail = b'{"title":"', b'","description":"d","price":25,"city":"Leeds","category":"repair"}'

    def body(size):
        return head + b"x" * (size - len(head) - len(tail)) + tail

    status, answer = mock.call("POST", "/api/tasks", raw=body(8 * MIB + 1), timeout=15)
    assert (status, answer) == (413, {"error": True, "message": "request body over 8 MiB", "error_code": "PAYLOAD_TOO_LARGE",
                                      "status_code": 413})
    assert mock.log_line("→ 413").startswith("POST /api/tasks → 413")

    # Chunked, with no length to go by: refused the same way.
    chunks = iter([b"x" * MIB] * 9)
    status, answer = mock.call("POST", "/api/tasks", raw=chunks, headers=[("Transfer-Encoding", "chunked")], timeout=15)
    assert status == 413, answer

    # Exactly 8 MiB is let in and compared: a 404 naming the closest step, not a 413.
    status, answer = mock.call("POST", "/api/tasks", raw=body(8 * MIB), timeout=30)
    assert "closest is line" in unmatched(status, answer)
    mock.assert_serving()


def test_a_client_that_sends_connection_close_gets_the_413_too(start):
    """Once a defect: urllib.request (like any client that writes the whole body
    before it reads) sends `Connection: close`. For a 24 MiB body the mock
    answers 413 after 8 MiB, then neither reads the rest nor closes the
    connection: the client blocks writing until its own timeout (it waited
    60 s when tried). Without `Connection: close` the same body is drained and
    the 413 read in a fraction of a second. It should be answered the same way
    either way (or at least end promptly)."""
    mock = start("sessions/linku")
    began = time.monotonic()
    try:
        status, answer = mock.call("POST", "/api/tasks", raw=b"x" * (24 * MIB), headers=[("Connection", "close")], timeout=5)
    except (urllib.error.URLError, OSError) as error:
        pytest.fail(f"no 413 within {time.monotonic() - began:.1f} s: {error!r}")
    assert status == 413, answer
    mock.assert_serving()


def test_an_unknown_path_gets_a_404_in_the_linku_envelope_naming_the_closest_step(start):
    mock = start("sessions/linku", "--mode", "scenario")
    status, body = mock.call("GET", "/api/nowhere/at/all")
    message = unmatched(status, body)
    assert re.fullmatch(r"no recorded step for GET /api/nowhere/at/all: closest is line \d+ of [\w-]+\.transcript, .+", message), message
    assert mock.log_line("GET /api/nowhere")
    line, file = re.search(r"closest is line (\d+) of ([\w-]+\.transcript)", message).groups()
    recorded = (LINKU / file).read_text().splitlines()[int(line) - 1]
    assert recorded.startswith("> "), f"line {line} of {file} is not a step: {recorded!r}"
    assert [l for l in mock.err if "/api/nowhere" in l] == [f"GET /api/nowhere/at/all → 404 {message}"]
    # A HEAD gets the status with no body; the mock serves on.
    status, body = mock.call("HEAD", "/api/nowhere/at/all")
    assert (status, body) == (404, None)
    # A token in the path (a reset or magic link) is not written in the message or the log; ids and words are.
    status, body = mock.call("GET", "/api/reset/sk_live_SECRET998877/confirm")
    message = unmatched(status, body)
    assert message.startswith("no recorded step for GET /api/reset/<hidden: 20 characters>/confirm: "), message
    assert not [l for l in mock.err if "SECRET998877" in l], mock.said()
    mock.assert_serving()


def test_a_frame_nothing_recorded_closes_the_socket_with_1008_and_a_reason(start):
    mock = start("sessions/linku", "--mode", "scenario")
    with mock.socket("/ws/chat/1?token=t") as ws:
        ws.send(json.dumps({"type": "dance", "steps": 3}))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
    assert closed.value.rcvd is not None, "closed without a close frame"
    assert closed.value.rcvd.code == 1008
    reason = closed.value.rcvd.reason
    # A type no recording has is not named: it is the live frame's, and may be what a client got wrong with a secret.
    assert reason == "no recorded frame matches a JSON frame of a type no recording has", reason
    line = mock.log_line("no recorded frame matches")
    assert line == "ws /ws/chat/1: no recorded frame matches a JSON frame of a type no recording has; closing", line
    assert not [l for l in mock.err if "dance" in l], mock.said()
    assert len([l for l in mock.err if "/ws/chat/1" in l]) == 1, mock.said()

    # A recorded type is named: it says which recorded frame the client's was meant to be.
    with mock.socket("/ws/chat/1?token=t") as ws:
        ws.send(json.dumps({"type": "message", "to_nobody": "Sup3rS3cret"}))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
    assert closed.value.rcvd.reason == "no recorded frame matches a frame of type message", closed.value.rcvd.reason
    assert not [l for l in mock.err if "Sup3rS3cret" in l], mock.said()

    # The next socket is answered as recorded.
    with mock.socket("/ws/chat/1?token=t") as ws:
        ws.send(json.dumps(CHAT_FRAME))
        assert json.loads(ws.recv(timeout=5))["type"] == "ack"
    mock.assert_serving()


def test_a_recorded_login_answers_before_a_made_up_or_a_wrong_password_one(start, tmp_path):
    # A recording begun logged in (`login:` in its header) had a login made up for it (no user id, the
    # email for a name), served first; and in match mode the same login then got the recorded wrong
    # password's 401, then 200: a secret matches any value. The recorded 200 answers every time.
    login = (ROOT / "sessions" / "linku" / "login.transcript").read_text().split("> login ", 1)[1].split("\n\n", 1)[0]
    transcript = tmp_path / "begun-logged-in.transcript"
    transcript.write_text("# explorer transcript v1\nprofile: linku\nbase-url: sandbox\nlogin: alice@example.com\n\n"
                          "> login alice@example.com {{secret:wrong_password}}\nHTTP/1.1 401 Unauthorized\n"
                          "Content-Type: application/json; charset=utf-8\n"
                          '{\n  "error": true,\n  "message": "incorrect email or password",\n  "error_code": "INVALID_CREDENTIALS",\n  "status_code": 401\n}\n'
                          "error: 401 INVALID_CREDENTIALS: incorrect email or password\n\n"
                          "> login " + login + "\n")
    mock = start(str(transcript))
    for _ in range(3):
        body = mock.login()
        assert body["user"]["id"] == 1 and body["user"]["username"] == "alice", body


def test_a_recorded_close_of_a_socket_behind_a_secret_token_is_served(start, tmp_path):
    # `ws connect /ws?token={{secret:token}}` did not parse as written: it was worked out as a request to the
    # mock's placeholder host, and the transcript was skipped ("cannot resolve host mock.invalid"). The
    # server's recorded close is the mock's too, with its code and reason.
    transcript = tmp_path / "quota.transcript"
    transcript.write_text("# explorer transcript v1\nprofile: generic\nbase-url: http://127.0.0.1:9\n\n"
                          "> ws connect /ws/chat?token={{secret:token}}\n| connected to {{ws_base_url}}/ws/chat?token=<token>\n\n"
                          '> ws send {"type":"go"}\n→ {\n  "type": "go"\n}\n← {\n  "type": "ack"\n}\n← (closed 4003: quota exceeded)\n')
    mock = start(str(transcript))
    with mock.socket("/ws/chat?token=anything") as ws:
        ws.send(json.dumps({"type": "go"}))
        assert json.loads(ws.recv(timeout=5)) == {"type": "ack"}
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
    assert closed.value.rcvd is not None and (closed.value.rcvd.code, closed.value.rcvd.reason) == (4003, "quota exceeded"), closed.value
    assert mock.process.poll() is None, mock.said()


def test_a_deleted_item_stays_deleted_under_a_trailing_slash(start, tmp_path):
    # `/items/7/` matched the item's steps, but the DELETE was noted for `/items/7` only: the deleted item came back.
    transcript = tmp_path / "gone.transcript"
    transcript.write_text("# explorer transcript v1\nprofile: generic\nbase-url: http://127.0.0.1:9\n\n"
                          '> get /items/7\nHTTP/1.1 200 OK\nContent-Type: application/json\n{\n  "id": 7\n}\n\n'
                          "> delete /items/7\nHTTP/1.1 204 No Content\n\n"
                          '> get /items/7\nHTTP/1.1 404 Not Found\nContent-Type: application/json\n{\n  "message": "no item 7"\n}\n'
                          "error: 404: no item 7\n")
    mock = start(str(transcript))
    assert mock.call("GET", "/items/7/") == (200, {"id": 7})
    assert mock.call("DELETE", "/items/7")[0] == 204
    for path in ("/items/7", "/items/7/"):
        assert mock.call("GET", path)[0] == 404, path


def test_a_recorded_304_answers_a_conditional_request_alone(start, tmp_path):
    # The ETag flow recorded a 304 for `If-None-Match:abc`; a plain GET of the item got it too, an empty body
    # an app decoding the item failed on.
    transcript = tmp_path / "etag.transcript"
    transcript.write_text("# explorer transcript v1\nprofile: generic\nbase-url: http://127.0.0.1:9\n\n"
                          '> get /items/7\nHTTP/1.1 200 OK\nContent-Type: application/json\n{\n  "id": 7\n}\n\n'
                          "> get /items/7 If-None-Match:abc\nHTTP/1.1 304 Not Modified\n\n"
                          '> get /items/7\nHTTP/1.1 200 OK\nContent-Type: application/json\n{\n  "id": 7\n}\n')
    mock = start(str(transcript))
    for _ in range(3):
        assert mock.call("GET", "/items/7") == (200, {"id": 7})
    # A client that asks as recorded gets the recorded 304.
    assert mock.call("GET", "/items/7", session="etag") == (200, {"id": 7})
    assert mock.call("GET", "/items/7", session="etag", headers=[("If-None-Match", "abc")])[0] == 304
    # With the validator recorded: a client holding another copy gets the item, not "yours is current".
    assert mock.call("GET", "/items/7", session="stale") == (200, {"id": 7})
    assert mock.call("GET", "/items/7", session="stale", headers=[("If-None-Match", "old")]) == (200, {"id": 7})


def test_a_socket_asked_for_with_a_subprotocol_is_answered_with_it(start, tmp_path):
    # graphql-transport-ws: the mock's 101 named no subprotocol, which Node's ws, tungstenite and Python's
    # websockets refuse ("no subprotocol"), so such an app could not use the mock at all.
    transcript = tmp_path / "gql.transcript"
    transcript.write_text("# explorer transcript v1\nprofile: generic\nbase-url: http://127.0.0.1:9\n\n"
                          "> ws connect /graphql Sec-WebSocket-Protocol:graphql-transport-ws\n| connected to {{ws_base_url}}/graphql\n\n"
                          '> ws send {"type":"connection_init"}\n→ {\n  "type": "connection_init"\n}\n← {\n  "type": "connection_ack"\n}\n')
    mock = start(str(transcript))
    with websocket_connect(mock.ws_base + "/graphql", subprotocols=["graphql-transport-ws", "graphql-ws"], open_timeout=5,
                           close_timeout=5, **NO_PROXY) as ws:
        assert ws.subprotocol == "graphql-transport-ws"
        ws.send(json.dumps({"type": "connection_init"}))
        assert json.loads(ws.recv(timeout=5)) == {"type": "connection_ack"}
    # Asked for none, it names none (a client that asked for none refuses one).
    with mock.socket("/graphql") as ws:
        assert ws.subprotocol is None


def test_a_subscription_is_answered_with_the_clients_own_id_extra_members_and_its_unsubscribe(start, tmp_path):
    # An app against the mock of a GraphQL subscription: its own operation id (`abc-7`, where the recording had
    # "1"), Apollo's `operationName` beside the query, and its `complete` once done each closed the socket with 1008.
    transcript = tmp_path / "sub.transcript"
    transcript.write_text("# explorer transcript v1\nprofile: generic\nbase-url: http://127.0.0.1:9\n\n"
                          "> ws connect /graphql Sec-WebSocket-Protocol:graphql-transport-ws\n| connected to {{ws_base_url}}/graphql\n\n"
                          '> ws send {"id":"1","type":"subscribe","payload":{"query":"subscription { todoAdded { id } }"}}\n'
                          '→ {\n  "id": "1",\n  "type": "subscribe",\n  "payload": {\n    "query": "subscription { todoAdded { id } }"\n  }\n}\n'
                          '← {\n  "id": "1",\n  "type": "next",\n  "payload": {\n    "data": {\n      "todoAdded": {\n        "id": "t-1"\n      }\n    }\n  }\n}\n'
                          '← {\n  "id": "1",\n  "type": "complete"\n}\n')
    mock = start(str(transcript))
    with websocket_connect(mock.ws_base + "/graphql", subprotocols=["graphql-transport-ws"], open_timeout=5, close_timeout=5,
                           **NO_PROXY) as ws:
        ws.send(json.dumps({"id": "abc-7", "type": "subscribe", "payload": {
            "query": "subscription { todoAdded { id } }", "operationName": None, "extensions": {}}}))
        assert json.loads(ws.recv(timeout=5)) == {"id": "abc-7", "type": "next", "payload": {"data": {"todoAdded": {"id": "t-1"}}}}
        assert json.loads(ws.recv(timeout=5)) == {"id": "abc-7", "type": "complete"}
        ws.send(json.dumps({"id": "abc-7", "type": "complete"}))
        # The client's own heartbeats, which transcripts never hold, ask for nothing either.
        ws.send(json.dumps({"type": "pong"}))
        ws.send(json.dumps({"type": "ka"}))
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=5)) == {"type": "pong"}, "the socket goes on after the client's complete"
        # Another query is still not recorded: closed, as before.
        ws.send(json.dumps({"id": "2", "type": "subscribe", "payload": {"query": "subscription { other }"}}))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
        assert closed.value.rcvd.code == 1008


def test_a_frame_recorded_member_for_member_is_answered_before_one_that_lets_members_through(start, tmp_path):
    # Extra members let through, `{"type":"sync","since":5}` fitted a recorded `{"type":"sync"}` too, answered first.
    transcript = tmp_path / "sync.transcript"
    transcript.write_text("# explorer transcript v1\nprofile: generic\nbase-url: http://127.0.0.1:9\n\n"
                          "> ws connect /s\n| connected to {{ws_base_url}}/s\n\n"
                          '> ws send {"type":"sync"}\n→ {\n  "type": "sync"\n}\n← {\n  "all": true\n}\n\n'
                          '> ws send {"type":"sync","since":5}\n→ {\n  "type": "sync",\n  "since": 5\n}\n← {\n  "after": 5\n}\n')
    mock = start(str(transcript))
    with mock.socket("/s") as ws:
        ws.send(json.dumps({"type": "sync", "since": 5}))
        assert json.loads(ws.recv(timeout=5)) == {"after": 5}
        ws.send(json.dumps({"type": "sync", "since": 9}))
        assert json.loads(ws.recv(timeout=5)) == {"all": True}


def test_a_socket_on_a_path_nothing_recorded_is_closed_with_1008_naming_the_recorded_ones(start):
    """Refusing the upgrade would get the client a bare 400 from the server
    stack, with no reason; so the socket is opened and closed at once with
    1008 and a reason that names the paths sockets were recorded on."""
    mock = start("sessions/linku", "--mode", "scenario")
    with mock.socket("/ws/elsewhere?token=t") as ws:
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
    assert closed.value.rcvd.code == 1008
    assert closed.value.rcvd.reason == "no socket recorded on /ws/elsewhere; recorded: /ws/chat/2, /ws/chat/1"
    assert "/ws/elsewhere" in mock.log_line("ws /ws/elsewhere: no socket recorded")
    mock.assert_serving()


def test_a_transcript_deleted_while_the_mock_runs_is_still_served(start, tmp_path):
    copy = tmp_path / "linku"
    shutil.copytree(LINKU, copy)
    # The flea market's upload reads ../fixtures/lamp.png: without it, that step is said and left out.
    shutil.copytree(LINKU.parent / "fixtures", tmp_path / "fixtures")
    mock = start(str(copy), "--mode", "scenario")
    (copy / "create-task.transcript").unlink()
    (copy / "chat.transcript").unlink()

    session = "after-delete"
    assert mock.call("POST", "/__mock/reset?scenario=create-task", session=session)[0] == 200
    token = mock.login(session=session)["access_token"]
    status, task = mock.call("POST", "/api/tasks", NEW_TASK, session=session, token=token)
    assert status == 201, task
    status, read = mock.call("GET", f"/api/tasks/{task['id']}", session=session, token=token)
    assert (status, read["id"]) == (200, task["id"])
    with mock.socket("/ws/chat/1?token=t") as ws:
        ws.send(json.dumps(CHAT_FRAME))
        assert json.loads(ws.recv(timeout=5))["type"] == "ack"
    assert mock.err == [], mock.said()


def test_a_transcript_that_does_not_parse_is_skipped_with_its_line_and_the_rest_served(start, tmp_path):
    folder = tmp_path / "mixed"
    folder.mkdir()
    shutil.copy(LINKU / "login.transcript", folder / "good.transcript")
    (folder / "broken.transcript").write_text(
        "# explorer transcript v1\nprofile: linku\nbase-url: sandbox\n\n"
        "> get /api/tasks\nHTTP/1.1 200 OK\nContent-Type: application/json\n"
        '{"tasks": [1, 2,, 3]}\n\n'
        "> get /api/tasks\nHTTP/1.1 200 OK\n")
    mock = start(str(folder))
    skipped = [line for line in mock.err if line.startswith("skipped ")]
    assert len(skipped) == 1, mock.said()
    assert skipped[0].startswith(f"skipped {folder / 'broken.transcript'}:8:"), skipped[0]
    assert mock.out[1:-1] == [f"  {folder / 'good.transcript'}: 3 request steps"], mock.said()
    assert not any("broken" in line for line in mock.out), mock.said()
    mock.assert_serving()


def test_a_folder_with_no_transcript_to_serve_exits_2_with_one_line(start, tmp_path):
    """With only a broken transcript, the `skipped` line says
    why and one `error:` line follows: that passes. A folder with no
    *.transcript at all gets two lines for the one problem,
    `explorer mock: no *.transcript in DIR` then
    `error: no transcript could be served`; elsewhere (explorer run, a profile
    that cannot be used) one problem is one line."""
    broken = tmp_path / "only-broken"
    broken.mkdir()
    (broken / "x.transcript").write_text("not a transcript\n")
    mock = start(str(broken), wait=False)
    assert mock.finish() == 2, mock.said()
    assert mock.out == [], "nothing listens"
    assert [l.split(":")[0] for l in mock.err] == ["skipped " + str(broken / "x.transcript"), "error"], mock.said()
    assert mock.err[0].startswith(f"skipped {broken / 'x.transcript'}:1:"), mock.said()

    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.txt").write_text("no transcript here\n")
    mock = start(str(empty), wait=False)
    assert mock.finish() == 2, mock.said()
    assert mock.out == [], "nothing listens"
    assert len(mock.err) == 1 and mock.err[0].startswith("error: ") and str(empty) in mock.err[0], mock.said()


# --------------------------------------------------------------------------
# /__mock/state and /__mock/reset
# --------------------------------------------------------------------------


def test_state_shows_the_mode_and_each_client_session_and_reset_names_what_it_serves(start):
    mock = start("sessions/linku", "--mode", "scenario")
    assert mock.call("GET", "/__mock/state") == (200, {"mode": "scenario", "sessions": []})

    # Two clients, kept apart by X-Mock-Session: alice is one step into her flows, bob is pinned to chat.
    mock.login(session="one")
    assert mock.call("POST", "/__mock/reset?scenario=chat.transcript", session="two")[0] == 200
    mock.login(email="bob@example.com", session="two")
    status, state = mock.call("GET", "/__mock/state")
    assert status == 200 and state["mode"] == "scenario", state
    sessions = {s["session"]: s for s in state["sessions"]}
    assert set(sessions) == {"one", "two"}, state
    one = {t["transcript"].rsplit("/", 1)[-1]: t for t in sessions["one"]["transcripts"]}
    two = {t["transcript"].rsplit("/", 1)[-1]: t for t in sessions["two"]["transcripts"]}
    assert sessions["one"]["answered"] == 1 and one["create-task.transcript"]["done"] == 1, sessions["one"]
    assert not one["chat.transcript"]["following"], "bob's login is not alice's"
    assert [n for n, t in two.items() if t["following"]] == ["chat.transcript"], sessions["two"]
    assert two["chat.transcript"]["done"] == 1 and two["create-task.transcript"]["done"] == 0, sessions["two"]

    # A reset of everyone starts both over.
    assert mock.call("POST", "/__mock/reset") == (200, {"reset": True})
    state = mock.call("GET", "/__mock/state")[1]
    assert all(t["done"] == 0 for s in state["sessions"] for t in s["transcripts"]), state

    status, body = mock.call("POST", "/__mock/reset?scenario=nope", session="one")
    assert status == 404, body
    assert body["error"] is True and body["status_code"] == 404 and body["error_code"] == "NO_SUCH_SCENARIO", body
    assert "nope" in body["message"], body
    for name in (p.stem for p in LINKU.glob("*.transcript")):
        assert name in body["message"], body

    match = start("sessions/linku")
    match.login()
    state = match.call("GET", "/__mock/state")[1]
    assert state["mode"] == "match" and [s["session"] for s in state["sessions"]] == ["default"], state
    assert state["sessions"][0]["answered"] == 1, state


# --------------------------------------------------------------------------
# Secrets
# --------------------------------------------------------------------------


def test_a_password_is_never_written_in_clear(start):
    mock = start("sessions/linku", "--mode", "scenario")
    token = mock.login(password=SECRET)["access_token"]
    login = "/api/secure-auth/login"
    wrong = [
        mock.call("POST", login, {"email": "alice@example.com", "passwd": SECRET}),
        mock.call("POST", login, {"email": SECRET, "password": SECRET}),
        mock.call("POST", login, raw=f"email=alice%40example.com&password={SECRET}".encode(),
                  content_type="application/x-www-form-urlencoded"),
        mock.call("PUT", f"{login}?password={SECRET}", {"email": "alice@example.com", "password": SECRET}),
        mock.call("GET", f"/api/tasks?q={SECRET}", session="fresh"),
    ]
    messages = [unmatched(*answer) for answer in wrong[:4]]
    # Recorded as a 401 and a 200 elsewhere; a 404 would name the path only.
    assert wrong[4][0] in (200, 401, 404)
    messages += [answer[1]["message"] for answer in wrong[4:] if answer[0] != 200]
    # A secret was recorded as a wildcard: any value, of any kind, logs in.
    assert mock.call("POST", login, {"email": "alice@example.com", "password": [SECRET]})[0] == 200
    assert mock.stop() == 0
    for message in messages:
        assert SECRET not in message, message
    said = "\n".join(mock.out + mock.err)
    assert len([l for l in mock.err if " → 404 " in l]) == 4 + (wrong[4][0] == 404), "one line per 404:\n" + mock.said()
    assert SECRET not in said, said
    assert token not in said and token.split(".")[2] not in said, "the token the mock handed out"


def test_a_password_in_a_websocket_frame_is_not_logged_in_clear(start):
    """A frame nothing recorded is named by its kind, on stderr and in the
    close reason, never by what it holds: a socket login frame carries a
    password. (Until commit 7a3db1b its first 200 characters were logged.)"""
    mock = start("sessions/linku", "--mode", "scenario")
    with mock.socket("/ws/chat/1") as ws:
        ws.send(json.dumps({"type": "auth", "email": "alice@example.com", "password": SECRET}))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    assert SECRET not in closed.value.rcvd.reason
    mock.log_line("no recorded frame matches")
    mock.assert_serving()
    assert mock.stop() == 0
    assert SECRET not in "\n".join(mock.out + mock.err), mock.said()


def test_a_transcript_of_an_api_key_backend_is_served_without_its_key(start, tmp_path):
    """The mock checks no credential, so it needs no EXPLORER_SECRET_* to serve
    a transcript whose profile file sends an API key."""
    folder = tmp_path / "keyed"
    folder.mkdir()
    (folder / "shop.yaml").write_text(
        "explorer-profile: 1\nname: shop\nenvironments:\n  local: {base-url: \"http://127.0.0.1:9\"}\n"
        "auth: {kind: header, header: X-Api-Key, value: \"{{secret:api_key}}\"}\n")
    (folder / "items.transcript").write_text(
        "# explorer transcript v1\nprofile: shop.yaml\nbase-url: http://127.0.0.1:9\n\n"
        "> get /items\nHTTP/1.1 200 OK\nContent-Type: application/json\n{\"items\": [{\"id\": 1}]}\n\n")
    mock = start(str(folder / "items.transcript"))
    status, body = mock.call("GET", "/items")
    assert status == 200 and body == {"items": [{"id": 1}]}, mock.said()


def test_the_tokens_lifetime_is_the_one_a_recorded_login_said(start, tmp_path):
    # A login recorded with `"expires_in": 3600` was served 900 (the mock's own lifetime), so the transcript
    # failed against its own mock, and an app refreshed on another clock than its server's.
    folder = tmp_path / "shop"
    folder.mkdir()
    (folder / "shop.yaml").write_text(
        "explorer-profile: 1\nname: shop\nenvironments:\n  local: {base-url: \"http://127.0.0.1:9\"}\n"
        "auth: {kind: login, login-path: /login, refresh-path: /refresh, whoami-path: /me}\n")
    (folder / "login.transcript").write_text(
        "# explorer transcript v1\nprofile: shop.yaml\nbase-url: http://127.0.0.1:9\n\n"
        "> login ann@example.com {{secret:password}}\nHTTP/1.1 200 OK\nContent-Type: application/json\n"
        "{\"access_token\": \"{{secret:access_token}}\", \"refresh_token\": \"{{secret:refresh_token}}\", \"expires_in\": 3600}\n\n")
    mock = start(str(folder / "login.transcript"))
    status, body = mock.call("POST", "/login", {"email": "ann@example.com", "password": "pw"})
    assert status == 200 and body["expires_in"] == 3600, (status, body, mock.said())
    payload = body["access_token"].split(".")[1]
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    assert 3590 <= claims["exp"] - time.time() <= 3610, claims
