"""Fixtures every terminal test module may use (helpers are in support.py):
the REPL on a pseudo-terminal (`env`, `spawn`), and local servers on
127.0.0.1 and ephemeral ports, stopped after the test."""
import os

import pytest

from support import PROMPT, Explorer, RawServer, start_http_server, stop_http_server


@pytest.fixture
def env(tmp_path):
    """The REPL's environment: HOME, XDG_STATE_HOME and XDG_CONFIG_HOME
    under tmp_path, TERM=xterm, LANG=C.UTF-8, NO_COLOR=1, and none of the
    user's XDG_*, EXPLORER_*, LC_*, COLUMNS or LINES. A test may change it
    before it spawns."""
    home = tmp_path / "home"
    home.mkdir()
    e = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "EXPLORER_", "LC_", "NO_COLOR"))}
    e.update(
        HOME=str(home),
        XDG_STATE_HOME=str(tmp_path / "state"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        TERM="xterm",
        LANG="C.UTF-8",
        NO_COLOR="1",
    )
    e.pop("COLUMNS", None)
    e.pop("LINES", None)
    return e


@pytest.fixture
def spawn(env):
    """spawn(*args, env=None, preexec_fn=None) -> an Explorer at its first prompt."""
    started = []

    def start(*args, env=env, prompt=PROMPT, preexec_fn=None):
        x = Explorer(args, env, preexec_fn=preexec_fn)
        started.append(x)
        x.welcome = x.expect(prompt)
        x.start = x.mark  # where the session proper begins (after the welcome)
        return x

    yield start
    for x in started:
        x.close()


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
