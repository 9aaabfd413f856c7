"""What the terminal tests share (issue 12): where the binary is, an
environment of a test's own, running the binary, and local servers on
127.0.0.1 and ephemeral ports. The fixtures that start servers and stop
them after the test are in conftest.py.

    from support import BINARY, isolated_env, run_explorer
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
import threading

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
    import pexpect  # only here: the rest of this module needs nothing but the standard library

    return pexpect.spawn(BINARY, list(args), env=env, dimensions=(40, 120), encoding="utf-8", timeout=timeout)


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
