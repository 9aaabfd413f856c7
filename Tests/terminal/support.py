"""What the terminal tests share (issue 12): where the binary is, an
environment of a test's own, running the binary, the REPL on a
pseudo-terminal (Screen, Explorer, its keys and prompts, its history file),
and local servers on 127.0.0.1 and ephemeral ports. The fixtures that start
servers or the REPL and stop them after the test are in conftest.py.

    from support import BINARY, isolated_env, run_explorer
    from support import ENTER, PROMPT, Explorer
"""
import base64
import hashlib
import http.server
import os
import pathlib
import re
import socket
import ssl
import subprocess
import termios
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
_binary = pathlib.Path(os.environ.get("EXPLORER_BIN", ROOT / ".build" / "debug" / "explorer"))
# $EXPLORER_BIN, by default .build/debug/explorer; a relative path is taken from the repository.
BINARY = str(_binary if _binary.is_absolute() else ROOT / _binary)


# --------------------------------------------------------------------------
# Running the binary
# --------------------------------------------------------------------------


def isolated_env(folder, *, no_proxy=False, drop_prefixes=(), **extra):
    """The environment for a binary that must touch nothing of the user's:
    os.environ with HOME at `folder`, XDG_STATE_HOME and XDG_CONFIG_HOME in
    it, and NO_COLOR=1. `no_proxy` leaves out every *proxy* variable (for a
    test that sets its own); `drop_prefixes` leaves out the variables whose
    names start so; `extra` adds or overrides variables (TERM="xterm", ...)."""
    env = {name: value for name, value in os.environ.items()
           if not (no_proxy and "proxy" in name.lower()) and not name.startswith(tuple(drop_prefixes))}
    env.update(HOME=str(folder), XDG_STATE_HOME=str(folder / "state"), XDG_CONFIG_HOME=str(folder / "config"), NO_COLOR="1")
    env.update(extra)
    return env


def run_explorer(args, *, env=None, input=None, cwd=None, timeout=60, text=True, **options):
    """Runs the binary with `args` to its end and returns the
    subprocess.CompletedProcess, stdout and stderr captured (as text unless
    `text=False`). `options` go to subprocess.run (stdin=, check=, ...)."""
    return subprocess.run([BINARY, *args], input=input, capture_output=True, text=text, timeout=timeout,
                          env=env, cwd=cwd, **options)


def pty_explorer(args, env, timeout):
    """The binary under pexpect on a 40x120 pseudo-terminal, for a test that
    talks to it line by line (expect_exact, sendline); close it with
    child.close(force=True)."""
    import pexpect  # only where it is used: the rest of this module needs nothing but the standard library

    return pexpect.spawn(BINARY, list(args), env=env, dimensions=(40, 120), encoding="utf-8", timeout=timeout)


# --------------------------------------------------------------------------
# The REPL on a pseudo-terminal (the `env` and `spawn` fixtures in
# conftest.py start it): keys, prompts, a screen that replays the output
# and an Explorer that waits on it. pexpect and pytest are imported where
# they are used, so that the rest of this module needs only the standard
# library.
# --------------------------------------------------------------------------

ROWS, COLS = 40, 120
TIMEOUT = 10  # seconds, for every wait on the binary
PROMPT = "linku> "
ALICE_PROMPT = "linku alice> "
ESC = "\x1b"

ENTER = "\r"
TAB = "\t"
CTRL_C = "\x03"
CTRL_D = "\x04"


# --------------------------------------------------------------------------
# A minimal VT100/xterm screen: enough for libedit's redraws (CR, LF, BS,
# cursor moves, column set, erase in line/display). Colours are ignored.
# --------------------------------------------------------------------------

_CSI = re.compile(r"\x1b\[([0-9;?]*)([ -/]*)([@-~])")
_OSC = re.compile(r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")


class Screen:
    def __init__(self, rows=ROWS, cols=COLS):
        self.rows, self.cols = rows, cols
        self.lines = [[" "] * cols for _ in range(rows)]
        self.row = self.col = 0
        self._pending = ""  # an incomplete escape sequence from the last chunk

    def feed(self, text):
        text = self._pending + text
        self._pending = ""
        i = 0
        while i < len(text):
            ch = text[i]
            if ch == ESC:
                if i + 1 >= len(text):
                    self._pending = text[i:]
                    return
                nxt = text[i + 1]
                if nxt == "[":
                    m = _CSI.match(text, i)
                    if not m:
                        if re.fullmatch(r"\x1b\[[0-9;?]*[ -/]*", text[i:]):
                            self._pending = text[i:]
                            return
                        i += 2
                        continue
                    self._csi(m.group(1), m.group(3))
                    i = m.end()
                elif nxt == "]":
                    m = _OSC.match(text, i)
                    if not m:
                        self._pending = text[i:]
                        return
                    i = m.end()
                else:
                    i += 2  # ESC =, ESC >, ESC 7, ... : nothing visible
                continue
            if ch == "\r":
                self.col = 0
            elif ch == "\n":
                self._linefeed()
            elif ch == "\b":
                self.col = max(0, min(self.col, self.cols - 1) - 1)
            elif ch == "\t":
                self.col = min(self.cols - 1, (self.col // 8 + 1) * 8)
            elif ch < " " or ch == "\x7f":
                pass  # BEL and other controls
            else:
                if self.col >= self.cols:  # deferred autowrap
                    self.col = 0
                    self._linefeed()
                self.lines[self.row][self.col] = ch
                self.col += 1
            i += 1

    def _linefeed(self):
        if self.row == self.rows - 1:
            self.lines.pop(0)
            self.lines.append([" "] * self.cols)
        else:
            self.row += 1

    def _csi(self, params, final):
        if params.startswith("?"):
            return  # private modes
        nums = [int(p) if p else 0 for p in params.split(";")] if params else []
        n = nums[0] if nums and nums[0] > 0 else 1
        col = min(self.col, self.cols - 1)
        if final == "G":
            self.col = min(n, self.cols) - 1
        elif final == "C":
            self.col = min(self.cols - 1, col + n)
        elif final == "D":
            self.col = max(0, col - n)
        elif final == "A":
            self.row = max(0, self.row - n)
        elif final == "B":
            self.row = min(self.rows - 1, self.row + n)
        elif final in "Hf":
            r = nums[0] if nums and nums[0] > 0 else 1
            c = nums[1] if len(nums) > 1 and nums[1] > 0 else 1
            self.row, self.col = min(r, self.rows) - 1, min(c, self.cols) - 1
        elif final == "K":
            mode = nums[0] if nums else 0
            line = self.lines[self.row]
            if mode == 0:
                line[col:] = [" "] * (self.cols - col)
            elif mode == 1:
                line[: col + 1] = [" "] * (col + 1)
            else:
                line[:] = [" "] * self.cols
        elif final == "J":
            mode = nums[0] if nums else 0
            if mode == 0:
                self.lines[self.row][col:] = [" "] * (self.cols - col)
                for r in range(self.row + 1, self.rows):
                    self.lines[r] = [" "] * self.cols
            elif mode in (2, 3):
                self.lines = [[" "] * self.cols for _ in range(self.rows)]
        elif final == "P":
            line = self.lines[self.row]
            del line[col : col + n]
            line.extend([" "] * (self.cols - len(line)))
        elif final == "@":
            line = self.lines[self.row]
            line[col:col] = [" "] * n
            del line[self.cols :]
        # "m" (colours) and anything else: no effect on the text

    def line(self, row=None):
        return "".join(self.lines[self.row if row is None else row]).rstrip()

    def text(self):
        return "\n".join("".join(l).rstrip() for l in self.lines).rstrip("\n")


# --------------------------------------------------------------------------
# Driving the binary
# --------------------------------------------------------------------------


class Explorer:
    """One `explorer` process on a pty, with everything it wrote kept in
    `transcript` and replayed on `screen`."""

    def __init__(self, args, env, preexec_fn=None):
        import pexpect

        self.child = pexpect.spawn(
            BINARY, list(args), env=env, dimensions=(ROWS, COLS),
            encoding="utf-8", codec_errors="replace", timeout=TIMEOUT, preexec_fn=preexec_fn,
        )
        self.transcript = ""
        self.mark = 0  # how much of the transcript expect() has consumed
        self.screen = Screen()
        self.eof = False

    # -- reading ---------------------------------------------------------

    def _pump(self, timeout):
        """Reads what is available (waiting up to `timeout`); False on EOF/nothing."""
        import pexpect

        if self.eof:
            return False
        try:
            data = self.child.read_nonblocking(65536, timeout=timeout)
        except pexpect.TIMEOUT:
            return False
        except pexpect.EOF:
            self.eof = True
            return False
        self.transcript += data
        self.screen.feed(data)
        return True

    def _fail(self, what):
        import pytest

        pytest.fail(
            f"timed out after {TIMEOUT}s waiting for {what}\n"
            f"--- screen ---\n{self.screen.text()}\n"
            f"--- unread output ---\n{self.transcript[self.mark:]!r}\n"
            f"--- alive: {self.child.isalive()}, eof: {self.eof}"
        )

    def expect(self, text, timeout=TIMEOUT):
        """Waits for `text` after what was consumed; returns what came before it."""
        deadline = time.monotonic() + timeout
        while True:
            at = self.transcript.find(text, self.mark)
            if at >= 0:
                before = self.transcript[self.mark:at]
                self.mark = at + len(text)
                return before
            if self.eof or time.monotonic() > deadline:
                self._fail(repr(text))
            self._pump(min(0.2, max(0.01, deadline - time.monotonic())))

    def expect_prompt(self, prompt=PROMPT):
        return self.expect(prompt)

    def wait_until(self, predicate, what, timeout=TIMEOUT):
        deadline = time.monotonic() + timeout
        while not predicate():
            if self.eof or time.monotonic() > deadline:
                self._fail(what)
            self._pump(0.05)

    def wait_for_line(self, expected, timeout=TIMEOUT):
        """Waits until the cursor's screen line reads `expected` (trailing blanks ignored)."""
        self.wait_until(lambda: self.screen.line() == expected.rstrip(),
                        f"the current screen line to read {expected!r} (it reads {self.screen.line()!r})", timeout)

    def settle(self, quiet=0.3):
        """Reads until the process has been silent for `quiet` seconds."""
        while self._pump(quiet):
            pass

    def expect_exit(self, timeout=TIMEOUT):
        """Waits for the process to end; returns its exit status."""
        deadline = time.monotonic() + timeout
        while not self.eof:
            if time.monotonic() > deadline:
                self._fail("the process to exit")
            self._pump(0.2)
        while self.child.isalive() and time.monotonic() < deadline:
            time.sleep(0.05)
        if self.child.isalive():
            self._fail("the process to exit after closing its terminal")
        self.child.wait()
        assert self.child.signalstatus is None, f"killed by signal {self.child.signalstatus}"
        return self.child.exitstatus

    # -- writing ---------------------------------------------------------

    def send(self, text):
        self.child.send(text)

    def type_visibly(self, text, prompt=PROMPT):
        """Types `text` and waits until it is echoed on the prompt line (so a
        following Ctrl-C cannot make the tty driver throw it away)."""
        self.send(text)
        self.wait_for_line(prompt + text)

    def run(self, line, prompt=PROMPT):
        """Types a line, presses Enter, waits for `prompt`; returns the output
        of the command (what follows the echoed line)."""
        self.send(line + ENTER)
        echoed_and_output = self.expect(prompt)
        _, _, output = echoed_and_output.partition("\r\n")
        return output

    def wait_for_secret_mode(self):
        """Waits until the terminal is in the password reader's mode (canonical,
        echo off), so typed bytes are not flushed by its TCSAFLUSH."""
        def secret_mode():
            try:
                lflag = termios.tcgetattr(self.child.child_fd)[3]
            except termios.error:
                return False
            return bool(lflag & termios.ICANON) and not (lflag & termios.ECHO)
        self.wait_until(secret_mode, "echo to be turned off for the password")

    def close(self):
        if self.child.isalive():
            self.child.terminate(force=True)
        self.child.close(force=True)


# --------------------------------------------------------------------------
# The REPL's history file (libedit's)
# --------------------------------------------------------------------------


def history_path(env):
    """Where the REPL keeps its history under `env` (the `env` fixture's)."""
    return pathlib.Path(env["XDG_STATE_HOME"]) / "explorer" / "history"


def unvis(text):
    """Decodes libedit's history escaping (strvis: `\\040` for a space...)."""
    return re.sub(r"\\([0-7]{3}|\\)", lambda m: "\\" if m.group(1) == "\\" else chr(int(m.group(1), 8)), text)


def history_lines(env):
    """The lines of the history file, decoded (its header checked)."""
    raw = history_path(env).read_text(errors="replace").splitlines()
    assert raw and raw[0] == "_HiStOrY_V2_", f"not a libedit history file: {raw[:1]}"
    return [unvis(l) for l in raw[1:]]


# --------------------------------------------------------------------------
# HTTP servers of Python's standard library
# --------------------------------------------------------------------------


class QuietHandler(http.server.BaseHTTPRequestHandler):
    """A request handler that logs nothing, with `reply` to answer in one call."""

    def reply(self, status, body=b"", headers=()):
        """Sends `status`, the `headers` (name, value pairs), Content-Length
        and `body` (not for a HEAD)."""
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, *args):
        pass


def start_http_server(handler, tls=None):
    """A ThreadingHTTPServer for `handler` on 127.0.0.1 and an ephemeral
    port, serving on a daemon thread; HTTPS when `tls` (an ssl.SSLContext)
    is given. Stop it with stop_http_server (the `http_server` fixture does)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def stop_http_server(server):
    """Stops what start_http_server started and closes its socket."""
    server.shutdown()
    server.server_close()


def base_url(server, scheme="http", host="127.0.0.1"):
    """The URL of a server started here: http://127.0.0.1:PORT by default."""
    return f"{scheme}://{host}:{server.server_address[1]}"


def make_certificate(folder, name, common_name, alt_names="DNS:localhost,IP:127.0.0.1"):
    """A self-signed certificate and its key, made with openssl for a day:
    FOLDER/NAME.pem and FOLDER/NAME-key.pem (returned in that order), with
    `alt_names` as its subjectAltName unless that is None."""
    cert, key = folder / f"{name}.pem", folder / f"{name}-key.pem"
    command = ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
               "-keyout", str(key), "-out", str(cert), "-days", "1", "-subj", f"/CN={common_name}"]
    if alt_names is not None:
        command += ["-addext", f"subjectAltName={alt_names}"]
    subprocess.run(command, check=True, capture_output=True, timeout=30)
    return cert, key


# --------------------------------------------------------------------------
# Servers on plain sockets, for peers that misbehave
# --------------------------------------------------------------------------


class RawServer:
    """Accepts connections on 127.0.0.1 and an ephemeral port (`port`) and
    hands each to `serve(server, conn)` on a daemon thread; with no `serve`
    a connection is kept open and never answered. Accepted connections are
    in `conns`. After `connections` connections the listener closes (later
    connects are refused). `stop()` closes everything (the `socket_server`
    fixture does); the accept loop notices within 0.2 s."""

    def __init__(self, serve=None, connections=None):
        self.serve = serve
        self.connections = connections
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.2)
        self.port = self.listener.getsockname()[1]
        self.handshakes = 0
        self.conns = []
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self):
        while not self.stopped.is_set():
            try:
                conn, _ = self.listener.accept()
            except (socket.timeout, OSError):
                continue
            conn.settimeout(10)
            self.conns.append(conn)
            if self.serve is not None:
                threading.Thread(target=self._serve, args=(conn,), daemon=True).start()
            if self.connections is not None and len(self.conns) >= self.connections:
                self.listener.close()
                return

    def _serve(self, conn):
        try:
            self.serve(self, conn)
        except (OSError, ssl.SSLError):
            pass

    def stop(self):
        self.stopped.set()
        self.thread.join(5)
        for conn in self.conns:
            try:
                conn.close()
            except OSError:
                pass
        self.listener.close()


def websocket_accept(request):
    """The 101 answer to a WebSocket upgrade request (bytes, RFC 6455
    section 4.2.2), with the Sec-WebSocket-Accept its key calls for."""
    key = re.search(rb"(?im)^sec-websocket-key:\s*(\S+)", request).group(1)
    accept = base64.b64encode(hashlib.sha1(key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
    return (b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n")


def text_frame(payload):
    """One unmasked server-to-client text frame."""
    n = len(payload)
    if n < 126:
        head = bytes([0x81, n])
    elif n < 1 << 16:
        head = bytes([0x81, 126]) + n.to_bytes(2, "big")
    else:
        head = bytes([0x81, 127]) + n.to_bytes(8, "big")
    return head + payload


def close_frame(code, reason=b""):
    """One unmasked server-to-client close frame."""
    payload = code.to_bytes(2, "big") + reason
    return bytes([0x88, len(payload)]) + payload
