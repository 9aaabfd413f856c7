"""`--download` through the built binary against Python's http.server: a
body past the 64 MiB that an answer may take in memory is written whole, the
file is named by Content-Disposition, the URL or -o, a taken name gets -1,
and a 404 saves nothing. Issue 14, "Saving".
"""
import hashlib
import http.server
import os
import pathlib
import subprocess
import threading

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = os.environ.get("EXPLORER_BIN", str(ROOT / ".build" / "debug" / "explorer"))
BIG = 70 * 1024 * 1024


class Files(http.server.BaseHTTPRequestHandler):
    big = b""

    def do_GET(self):
        if self.path == "/missing":
            self.send_error(404)
            return
        body = Files.big if self.path.startswith("/big") else b"report\n"
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        if self.path.startswith("/export"):
            self.send_header("Content-Disposition", "attachment; filename=\"../../report 2026.csv\"; filename*=UTF-8''r%C3%A9sum%C3%A9.csv")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def files():
    Files.big = os.urandom(BIG)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Files)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_download_writes_any_size_and_names_the_file_as_httpie_does(files, tmp_path):
    env = dict(os.environ, HOME=str(tmp_path), XDG_STATE_HOME=str(tmp_path / "state"), XDG_CONFIG_HOME=str(tmp_path / "config"), NO_COLOR="1")
    lines = ["get /big.bin --download", "get /export/1 -d", "get /export/1 -d", "get /notes.txt -d -o mine.txt", "get /missing -d"]
    result = subprocess.run([BINARY, "--base-url", files], input="\n".join(lines) + "\n", capture_output=True, text=True,
                            timeout=120, env=env, cwd=tmp_path)
    said = result.stdout + result.stderr
    assert "saved 70.0 MiB to big.bin" in said, said
    assert hashlib.sha256((tmp_path / "big.bin").read_bytes()).digest() == hashlib.sha256(Files.big).digest()
    assert "saved 7 B to résumé.csv" in said and "saved 7 B to résumé-1.csv" in said, said
    assert (tmp_path / "mine.txt").read_bytes() == b"report\n"
    assert "not saved: the answer was 404" in said
    assert (tmp_path / "big.bin").stat().st_mode & 0o777 == 0o600
    assert not (tmp_path.parent / "report 2026.csv").exists(), "a name from the server never leaves the folder"
