"""Ctrl-C cancels a request in flight and returns to the prompt.

A local server on 127.0.0.1 accepts connections and never answers, so the
request hangs until the user presses Ctrl-C.
"""
import time

import pexpect

from support import isolated_env, pty_explorer


def test_ctrl_c_cancels_a_request_in_flight(tmp_path, socket_server):
    server = socket_server()  # accepts, never answers
    child = pty_explorer(["--base-url", f"http://127.0.0.1:{server.port}"], isolated_env(tmp_path, TERM="xterm"), timeout=10)
    # A server named on the command line is not LinkU: the prompt names its host.
    prompt = f"127.0.0.1:{server.port}> "
    try:
        child.expect_exact(prompt)
        started = time.monotonic()
        child.sendline("get /api/tasks")
        time.sleep(0.8)
        assert server.conns, "the request never reached the server"
        child.sendcontrol("c")
        # On a line of its own, not after the echoed ^C.
        child.expect_exact("\r\nerror: request cancelled")
        child.expect_exact(prompt)
        # Well before the 30 s request timeout: the cancel did it.
        assert time.monotonic() - started < 8
        assert child.isalive()
        child.sendline("help whoami")
        child.expect_exact("usage: whoami")
        child.expect_exact(prompt)
        child.sendline("exit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)


def test_ctrl_c_in_ws_recv_before_any_frame_stops_the_wait(tmp_path):
    # The sandbox's chat socket sends nothing unasked: `ws recv` waits.
    child = pty_explorer([], isolated_env(tmp_path, TERM="xterm"), timeout=15)
    try:
        child.expect_exact("linku> ")
        child.sendline("login alice@example.com alice123")
        child.expect_exact("linku alice> ")
        child.sendline("ws connect")
        child.expect_exact("linku alice")
        child.sendline("ws recv --timeout 20")
        time.sleep(0.8)
        child.sendcontrol("c")
        # No request was in flight: it said "request cancelled".
        child.expect_exact("\r\nerror: stopped waiting: no frame came")
        child.expect_exact("linku alice")
        child.sendline("exit")
        child.expect(pexpect.EOF)
        assert "request cancelled" not in child.before
    finally:
        child.close(force=True)
