"""Fixtures every terminal test module may use (helpers are in support.py):
local servers on 127.0.0.1 and ephemeral ports, stopped after the test."""
import pytest

from support import RawServer, start_http_server, stop_http_server


@pytest.fixture
def http_server():
    """http_server(Handler, tls=None) starts an http.server for the handler
    class (support.start_http_server) and returns it; every one started is
    stopped after the test, the last started first."""
    started = []

    def start(handler, tls=None):
        server = start_http_server(handler, tls)
        started.append(server)
        return server

    yield start
    for server in reversed(started):
        stop_http_server(server)


@pytest.fixture
def socket_server():
    """socket_server(serve=None, connections=None) starts a support.RawServer
    (a plain socket server for a peer that misbehaves) and returns it; every
    one started is stopped after the test."""
    started = []

    def start(serve=None, connections=None):
        server = RawServer(serve, connections)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
