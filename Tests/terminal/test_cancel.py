"""Ctrl-C cancels a request in flight and returns to the prompt.

A local server on 127.0.0.1 accepts connections and never answers, so the
request hangs until the user presses Ctrl-C.
"""
import os
import pathlib
import socket
import threading
import time

import pexpect

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = os.environ.get("EXPLORER_BIN", str(ROOT / ".build" / "debug" / "explorer"))


class SilentServer:
    def __init__(self):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.accepted = []
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.stopped.is_set():
            try:
                conn, _ = self.sock.accept()
                self.accepted.append(conn)
            except OSError:
                continue

    def close(self):
        self.stopped.set()
        self.thread.join(timeout=2)
        for conn in self.accepted:
            conn.close()
        self.sock.close()


def test_ctrl_c_cancels_a_request_in_flight(tmp_path):
    server = SilentServer()
    env = dict(os.environ, HOME=str(tmp_path), XDG_STATE_HOME=str(tmp_path / "state"),
               XDG_CONFIG_HOME=str(tmp_path / "config"), NO_COLOR="1", TERM="xterm")
    child = pexpect.spawn(BINARY, ["--base-url", f"http://127.0.0.1:{server.port}"], env=env,
                          dimensions=(40, 120), encoding="utf-8", timeout=10)
    # A server named on the command line is not LinkU: the prompt names its host.
    prompt = f"127.0.0.1:{server.port}> "
    try:
        child.expect_exact(prompt)
        started = time.monotonic()
        child.sendline("get /api/tasks")
        time.sleep(0.8)
        assert server.accepted, "the request never reached the server"
        child.sendcontrol("c")
        child.expect_exact("request cancelled")
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
        server.close()
