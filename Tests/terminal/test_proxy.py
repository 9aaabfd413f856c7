"""HTTP_PROXY through the built binary: a request to a backend goes through
the proxy the environment names (a CONNECT tunnel, with the proxy's
credentials), and straight to a host NO_PROXY names. The proxy is a small
Python server that records each CONNECT and tunnels `backend.test`, a name
only it can resolve, to a local backend.
"""
import base64
import http.server
import json
import os
import pathlib
import subprocess
import threading

import select
import socket

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = os.environ.get("EXPLORER_BIN", str(ROOT / ".build" / "debug" / "explorer"))


class Backend(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = json.dumps({"via": "proxy", "path": self.path}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class Proxy(http.server.BaseHTTPRequestHandler):
    seen = []
    backend = 0

    def do_CONNECT(self):
        Proxy.seen.append((self.path, self.headers.get("Proxy-Authorization")))
        host, _, port = self.path.rpartition(":")
        if host != "backend.test":
            self.send_error(502)
            return
        upstream = socket.create_connection(("127.0.0.1", Proxy.backend), timeout=10)
        self.send_response(200, "Connection established")
        self.end_headers()
        sockets = [self.connection, upstream]
        while True:
            ready, _, _ = select.select(sockets, [], [], 10)
            if not ready:
                break
            for source in ready:
                data = source.recv(65536)
                if not data:
                    upstream.close()
                    return
                (upstream if source is self.connection else self.connection).sendall(data)
        upstream.close()

    def log_message(self, *args):
        pass


def serve(handler):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture
def proxy():
    Proxy.seen = []
    backend = serve(Backend)
    Proxy.backend = backend.server_address[1]
    server = serve(Proxy)
    yield server.server_address[1]
    for s in (server, backend):
        s.shutdown()
        s.server_close()


def explorer(tmp_path, extra, line):
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env.update(HOME=str(tmp_path), XDG_STATE_HOME=str(tmp_path / "state"), XDG_CONFIG_HOME=str(tmp_path / "config"), NO_COLOR="1", **extra)
    # The backend's port has no server: an answer can only come from the proxy.
    return subprocess.run([BINARY, "--base-url", "http://backend.test:9", "-c", line], capture_output=True, text=True, timeout=60, env=env)


def test_requests_go_through_the_proxy_the_environment_names(proxy, tmp_path):
    result = explorer(tmp_path, {"HTTP_PROXY": f"http://me:s3cret@127.0.0.1:{proxy}"}, "get /things a==1")
    assert result.returncode == 0, result.stderr
    assert '"via": "proxy"' in result.stdout
    assert '"path": "/things?a=1"' in result.stdout
    assert Proxy.seen[0][0] == "backend.test:9"
    assert Proxy.seen[0][1] == "Basic " + base64.b64encode(b"me:s3cret").decode()


def test_a_host_no_proxy_names_goes_straight(proxy, tmp_path):
    result = explorer(tmp_path, {"http_proxy": f"http://127.0.0.1:{proxy}", "NO_PROXY": "localhost,.test"}, "get /things")
    assert Proxy.seen == []
    assert result.returncode != 0 and "backend.test" in result.stderr, result.stderr


def test_a_websocket_goes_through_the_proxy_too(proxy, tmp_path):
    # The socket server stands behind the proxy at backend.test: a name only
    # the proxy can resolve. It greets, then answers the client's close.
    import base64 as b64
    import hashlib
    import re

    def greet(conn):
        request = b""
        while b"\r\n\r\n" not in request:
            request += conn.recv(4096)
        key = re.search(rb"(?im)^sec-websocket-key:\s*(\S+)", request).group(1)
        accept = b64.b64encode(hashlib.sha1(key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
        conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n" + bytes([0x81, 9]) + b'{"hi":1}\n')
        conn.settimeout(10)
        try:
            while conn.recv(4096):
                conn.sendall(bytes([0x88, 2]) + (1000).to_bytes(2, "big"))
                break
        except OSError:
            pass
        conn.close()

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    Proxy.backend = listener.getsockname()[1]
    threading.Thread(target=lambda: greet(listener.accept()[0]), daemon=True).start()
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env.update(HOME=str(tmp_path), XDG_STATE_HOME=str(tmp_path / "state"), XDG_CONFIG_HOME=str(tmp_path / "config"), NO_COLOR="1",
               HTTP_PROXY=f"http://me:s3cret@127.0.0.1:{proxy}")
    result = subprocess.run([BINARY, "--base-url", "http://backend.test:9"],
                            input="ws connect /socket --heartbeat 0 --retries 0\nws recv --timeout 10\nws close\n",
                            capture_output=True, text=True, timeout=60, env=env)
    said = result.stdout + result.stderr
    assert "connected to ws://backend.test:9/socket" in said, said
    assert '{"hi":1}' in said, said
    assert Proxy.seen[0] == ("backend.test:9", "Basic " + base64.b64encode(b"me:s3cret").decode())
    listener.close()
