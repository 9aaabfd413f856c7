"""TLS through the built binary against Python's own HTTPS server: a
self-signed server is refused in one line; `--verify no`, `--verify
CA_FILE` and a client certificate (`--cert`, `--cert-key`) work as in
HTTPie; `defaults --verify` sets it for the session; `--curl` says the
same with curl's flags. Certificates are made with openssl, for localhost.
"""
import http.server
import json
import os
import pathlib
import ssl
import subprocess
import threading

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = os.environ.get("EXPLORER_BIN", str(ROOT / ".build" / "debug" / "explorer"))


def make_certificate(folder, name, common_name):
    cert, key = folder / f"{name}.pem", folder / f"{name}-key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", str(key), "-out", str(cert), "-days", "1", "-subj", f"/CN={common_name}",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                   check=True, capture_output=True, timeout=30)
    return cert, key


class Answer(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        peer = self.connection.getpeercert()
        subject = dict(pair[0] for pair in peer["subject"]) if peer else {}
        body = json.dumps({"client": subject.get("commonName")}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def https(tmp_path):
    server_cert, server_key = make_certificate(tmp_path, "server", "localhost")
    client_cert, client_key = make_certificate(tmp_path, "client", "tester")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(server_cert, server_key)
    context.load_verify_locations(client_cert)
    context.verify_mode = ssl.CERT_OPTIONAL
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Answer)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"https://localhost:{server.server_address[1]}", tmp_path
    server.shutdown()
    server.server_close()


def explorer(base, folder, stdin):
    env = dict(os.environ, HOME=str(folder), XDG_STATE_HOME=str(folder / "state"), XDG_CONFIG_HOME=str(folder / "config"), NO_COLOR="1")
    return subprocess.run([BINARY, "--base-url", base], input=stdin, capture_output=True, text=True, timeout=60, env=env, cwd=folder)


def test_verify_and_client_certificates_work_as_in_httpie(https):
    base, folder = https
    result = explorer(base, folder, "\n".join([
        "get /plain",
        "get /insecure --verify no",
        "get /trusted --verify server.pem",
        "get /client --verify server.pem --cert client.pem --cert-key client-key.pem",
        "get /missing --verify nowhere.pem",
        "get /curl --verify server.pem --cert client.pem --curl",
        "defaults --verify server.pem",
        "get /session",
    ]) + "\n")
    lines = result.stdout + result.stderr
    assert f"stdin:1: error: TLS failure with localhost:{base.rsplit(':', 1)[1]}: the server's certificate is not trusted " \
           "(--verify CA_FILE trusts a private CA; --verify no checks nothing)" in lines, lines
    assert lines.count('"client": null') == 3, lines  # insecure, trusted, session
    assert '"client": "tester"' in lines, lines
    assert "--verify takes yes, no, or a CA file (PEM) that can be read; nowhere.pem cannot" in lines
    assert f"curl --cacert 'server.pem' --cert 'client.pem' '{base}/curl'" in lines, lines
