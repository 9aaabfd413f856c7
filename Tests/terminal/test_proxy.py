"""HTTP_PROXY through the built binary: a request to a backend goes through
the proxy the environment names (plain http whole, as curl sends it; a
socket through a CONNECT tunnel; with the proxy's credentials), and straight
to a host NO_PROXY names. The proxy is a small Python server that records
each request and CONNECT and forwards `backend.test`, a name only it can
resolve, to a local backend.
"""
import base64
import http.client
import json
import urllib.parse

import select
import socket

import pytest

from support import QuietHandler, close_frame, isolated_env, run_explorer, text_frame, websocket_accept


class Backend(QuietHandler):
    def do_GET(self):
        body = json.dumps({"via": "proxy", "path": self.path}).encode()
        self.reply(200, body, [("Content-Type", "application/json")])


class Proxy(QuietHandler):
    seen = []
    backend = 0

    def do_GET(self):
        # A plain-http request comes whole: `GET http://backend.test:9/things?a=1`.
        Proxy.seen.append((self.path, self.headers.get("Proxy-Authorization")))
        parts = urllib.parse.urlsplit(self.path)
        if parts.hostname != "backend.test":
            self.send_error(502)
            return
        upstream = http.client.HTTPConnection("127.0.0.1", Proxy.backend, timeout=10)
        upstream.request("GET", parts.path + ("?" + parts.query if parts.query else ""))
        answer = upstream.getresponse()
        self.reply(answer.status, answer.read(), [("Content-Type", answer.getheader("Content-Type"))])
        upstream.close()

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


@pytest.fixture
def proxy(http_server):
    Proxy.seen = []
    Proxy.backend = http_server(Backend).server_address[1]
    return http_server(Proxy).server_address[1]


def explorer(tmp_path, extra, line):
    # The backend's port has no server: an answer can only come from the proxy.
    return run_explorer(["--base-url", "http://backend.test:9", "-c", line], env=isolated_env(tmp_path, no_proxy=True, **extra))


def test_requests_go_through_the_proxy_the_environment_names(proxy, tmp_path):
    result = explorer(tmp_path, {"HTTP_PROXY": f"http://me:s3cret@127.0.0.1:{proxy}"}, "get /things a==1")
    assert result.returncode == 0, result.stderr
    assert '"via": "proxy"' in result.stdout
    assert '"path": "/things?a=1"' in result.stdout
    # Whole, as curl and HTTPie send it: a CONNECT to port 9 was refused by a proxy that tunnels only to 443.
    assert Proxy.seen[0][0] == "http://backend.test:9/things?a=1"
    assert Proxy.seen[0][1] == "Basic " + base64.b64encode(b"me:s3cret").decode()


def test_all_proxy_is_the_proxy_of_a_scheme_with_none_of_its_own(proxy, tmp_path):
    # It was not read: on a network where traffic must go through the proxy, requests went around it.
    result = explorer(tmp_path, {"ALL_PROXY": f"http://127.0.0.1:{proxy}"}, "get /things")
    assert result.returncode == 0 and '"via": "proxy"' in result.stdout, result.stderr
    assert Proxy.seen[0][0] == "http://backend.test:9/things"


def test_a_host_no_proxy_names_goes_straight(proxy, tmp_path):
    result = explorer(tmp_path, {"http_proxy": f"http://127.0.0.1:{proxy}", "NO_PROXY": "localhost,.test"}, "get /things")
    assert Proxy.seen == []
    assert result.returncode != 0 and "backend.test" in result.stderr, result.stderr


def test_a_proxy_that_is_down_is_named_and_one_we_cannot_use_stops_the_session(tmp_path):
    # A refused proxy was reported as the backend ("is the server running?"),
    # and a socks5:// one was ignored: the request went around it.
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    down = explorer(tmp_path, {"HTTP_PROXY": f"http://127.0.0.1:{port}"}, "get /things")
    assert down.returncode == 3
    # Named by the variable it came from (with http_proxy and HTTP_PROXY both set, which one was not said).
    assert f"the proxy http://127.0.0.1:{port} (HTTP_PROXY) refused the connection" in down.stderr, down.stderr
    lower = explorer(tmp_path, {"http_proxy": f"http://127.0.0.1:{port}", "HTTP_PROXY": "http://127.0.0.1:1"}, "get /things")
    assert f"the proxy http://127.0.0.1:{port} (http_proxy) refused the connection" in lower.stderr, lower.stderr
    # A socket's too: it said "connection refused: ws://backend.test:9/socket", blaming the backend.
    socket_down = explorer(tmp_path, {"HTTP_PROXY": f"http://127.0.0.1:{port}"}, "ws connect /socket --retries 0 --heartbeat 0")
    assert f"could not connect to ws://backend.test:9/socket: the proxy http://127.0.0.1:{port} (HTTP_PROXY) refused the connection" \
        in socket_down.stderr, socket_down.stderr
    unusable = explorer(tmp_path, {"HTTP_PROXY": "socks5://me:s3cret@127.0.0.1:1"}, "get /things")
    assert unusable.returncode == 1
    assert unusable.stderr == ("error: HTTP_PROXY=socks5://me:***@127.0.0.1:1: only http:// proxies are supported, "
                               "so nothing is sent (unset it to go direct)\n")


def test_a_websocket_goes_through_the_proxy_too(proxy, tmp_path, socket_server):
    # The socket server stands behind the proxy at backend.test: a name only
    # the proxy can resolve. It greets, then answers the client's close.
    def greet(server, conn):
        request = b""
        while b"\r\n\r\n" not in request:
            request += conn.recv(4096)
        conn.sendall(websocket_accept(request) + text_frame(b'{"hi":1}\n'))
        conn.settimeout(10)
        try:
            while conn.recv(4096):
                conn.sendall(close_frame(1000))
                break
        except OSError:
            pass
        conn.close()

    Proxy.backend = socket_server(greet, connections=1).port
    env = isolated_env(tmp_path, no_proxy=True, HTTP_PROXY=f"http://me:s3cret@127.0.0.1:{proxy}")
    result = run_explorer(["--base-url", "http://backend.test:9"],
                          input="ws connect /socket --heartbeat 0 --retries 0\nws recv --timeout 10\nws close\n", env=env)
    said = result.stdout + result.stderr
    assert "connected to ws://backend.test:9/socket" in said, said
    assert '{"hi":1}' in said, said
    assert Proxy.seen[0] == ("backend.test:9", "Basic " + base64.b64encode(b"me:s3cret").decode())


class RefusingProxy(QuietHandler):
    """A proxy that asks for credentials it never accepts."""
    def do_CONNECT(self):
        self.send_response(407, "Proxy Authentication Required")
        self.send_header("Proxy-Authenticate", 'Basic realm="proxy"')
        self.send_header("Content-Length", "0")
        self.end_headers()


def test_a_websocket_a_proxy_refuses_says_what_the_proxy_answered(http_server, tmp_path):
    # swift-websocket says only "Proxy handshake failed"; a request says 407.
    port = http_server(RefusingProxy).server_address[1]
    for proxy_url, said in [(f"http://127.0.0.1:{port}", "it asks for credentials (407); give them in its URL"),
                            (f"http://me:wrong@127.0.0.1:{port}", "it refused the credentials in its URL (407)")]:
        env = isolated_env(tmp_path, no_proxy=True, HTTP_PROXY=proxy_url)
        result = run_explorer(["--base-url", "http://backend.test:9"], input="ws connect /socket --heartbeat 0 --retries 0\n", env=env)
        out = result.stdout + result.stderr
        assert f"could not connect to ws://backend.test:9/socket: the proxy http://127.0.0.1:{port} (HTTP_PROXY): {said}" in out, out
        assert "Proxy handshake failed" not in out and "wrong" not in out, out
