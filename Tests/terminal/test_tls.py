"""TLS through the built binary against Python's own HTTPS server: a
self-signed server is refused in one line; `--verify no`, `--verify
CA_FILE` and a client certificate (`--cert`, `--cert-key`) work as in
HTTPie; `defaults --verify` sets it for the session; `--curl` says the
same with curl's flags. Certificates are made with openssl, for localhost.
"""
import json
import ssl

import pytest

from support import QuietHandler, base_url, isolated_env, make_certificate, run_explorer


class Answer(QuietHandler):
    def do_GET(self):
        peer = self.connection.getpeercert()
        subject = dict(pair[0] for pair in peer["subject"]) if peer else {}
        body = json.dumps({"client": subject.get("commonName")}).encode()
        self.reply(200, body, [("Content-Type", "application/json")])


@pytest.fixture
def https(tmp_path, http_server):
    server_cert, server_key = make_certificate(tmp_path, "server", "localhost")
    client_cert, client_key = make_certificate(tmp_path, "client", "tester")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(server_cert, server_key)
    context.load_verify_locations(client_cert)
    context.verify_mode = ssl.CERT_OPTIONAL
    server = http_server(Answer, tls=context)
    return base_url(server, "https", "localhost"), tmp_path


def explorer(base, folder, stdin):
    return run_explorer(["--base-url", base], env=isolated_env(folder), input=stdin, cwd=folder)


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
