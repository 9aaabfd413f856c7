"""TLS through the built binary against Python's own HTTPS server: a
self-signed server is refused in one line; `--verify no`, `--verify
CA_FILE` and a client certificate (`--cert`, `--cert-key`) work as in
HTTPie; `defaults --verify` sets it for the session; `--curl` says the
same with curl's flags. Certificates are made with openssl, for localhost.
"""
import json
import ssl
import subprocess

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
        "get /other-ca --verify client.pem",
        "get /curl --verify server.pem --cert client.pem --cert-key client-key.pem --curl",
        "defaults --verify server.pem",
        "get /session",
    ]) + "\n")
    lines = result.stdout + result.stderr
    # In date, so not signed by a CA trusted (it said "…, expired or not yet valid" whatever the cause).
    assert f"stdin:1: error: TLS failure with localhost:{base.rsplit(':', 1)[1]}: the server's certificate is not signed by a CA " \
           "explorer trusts (--verify CA_FILE trusts a private CA; --verify no checks nothing)" in lines, lines
    # A CA file given that did not sign it: the file is named, not --verify CA_FILE suggested again.
    assert f"stdin:6: error: TLS failure with localhost:{base.rsplit(':', 1)[1]}: the server's certificate is not signed " \
           "by a CA in client.pem (--verify no checks nothing)" in lines, lines
    assert lines.count('"client": null') == 3, lines  # insecure, trusted, session
    assert '"client": "tester"' in lines, lines
    assert "--verify takes yes, no, or a CA file (PEM) that can be read; nowhere.pem cannot" in lines
    assert f"curl --cacert 'server.pem' --cert 'client.pem' --key 'client-key.pem' '{base}/curl'" in lines, lines


def test_an_expired_certificate_is_said_to_be_expired(tmp_path, http_server):
    # An expired certificate from a trusted CA was "not signed by a CA in ca.pem, or expired or not
    # yet valid": which of the two, the user could not tell; curl says "certificate has expired".
    x509 = pytest.importorskip("cryptography.x509")
    import datetime
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    def name(text):
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, text)])

    ca_key, leaf_key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.timezone.utc)
    ca = (x509.CertificateBuilder().subject_name(name("Test CA")).issuer_name(name("Test CA")).public_key(ca_key.public_key())
          .serial_number(1).not_valid_before(now - datetime.timedelta(days=400)).not_valid_after(now + datetime.timedelta(days=400))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True).sign(ca_key, hashes.SHA256()))
    leaf = (x509.CertificateBuilder().subject_name(name("localhost")).issuer_name(ca.subject).public_key(leaf_key.public_key())
            .serial_number(2).not_valid_before(datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc))
            .not_valid_after(datetime.datetime(2021, 1, 1, tzinfo=datetime.timezone.utc))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False).sign(ca_key, hashes.SHA256()))
    (tmp_path / "ca.pem").write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    (tmp_path / "leaf.pem").write_bytes(leaf.public_bytes(serialization.Encoding.PEM))
    (tmp_path / "leaf-key.pem").write_bytes(leaf_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                                   serialization.NoEncryption()))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(tmp_path / "leaf.pem", tmp_path / "leaf-key.pem")
    base = base_url(http_server(Answer, tls=context), "https", "localhost")
    result = explorer(base, tmp_path, "get /x --verify ca.pem\nget /y --verify no\n")
    assert result.stderr == f"stdin:1: error: TLS failure with localhost:{base.rsplit(':', 1)[1]}: the server's certificate expired " \
                            "on 2021-01-01 00:00 UTC (--verify no checks nothing)\n", result.stderr
    assert '"client": null' in result.stdout


def test_https_answers_from_a_raw_tls_server_are_read_as_curl_reads_them(tmp_path, socket_server):
    """Python's own TLS on plain sockets: requests share one connection; a
    status under 100 is one line (async-http-client stopped the process
    there before https took the lean path); a body that ends when the
    server closes without TLS's closing notice is whole, as curl and HTTPie
    read it; a body cut short of its Content-Length is one line."""
    cert, key = make_certificate(tmp_path, "server", "localhost")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)

    def serve(server, raw):
        conn = context.wrap_socket(raw, server_side=True)
        pending = b""
        while True:
            while b"\r\n\r\n" not in pending:
                data = conn.recv(65536)
                if not data:
                    return
                pending += data
            head, _, pending = pending.partition(b"\r\n\r\n")
            path = head.split(b" ")[1]
            if path == b"/zero":
                conn.sendall(b"HTTP/1.1 000 Zero\r\nContent-Length: 0\r\n\r\n")
            elif path == b"/until-close":
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nevery byte until the close")
                return conn.close()  # no close_notify
            elif path == b"/short":
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\nok")
                return conn.close()
            else:
                body = b'{"path": "%s"}' % path
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body) + body)

    server = socket_server(serve)
    base = f"https://localhost:{server.port}"
    result = explorer(base, tmp_path, "\n".join([
        "defaults --verify server.pem", "get /one", "get /two", "get /zero", "get /three",
        "get /until-close", "get /short", "get /four",
    ]) + "\n")
    lines = result.stdout + result.stderr
    assert result.returncode == 3, lines  # a failed request
    for path in ["/one", "/two", "/three", "/four"]:
        assert f'"path": "{path}"' in lines, lines
    assert f"stdin:4: error: localhost:{server.port} sent an answer that is not valid HTTP: " \
           "its status code 0 is not one HTTP has (they run from 100)" in lines, lines
    assert "every byte until the close" in lines, lines
    assert f"stdin:7: error: request to localhost:{server.port} failed: " \
           "the server closed the connection in the middle of its answer (200 OK, 2 of its 20 bytes came)" in lines, lines
    assert len(server.conns) == 3, "one for /one to /until-close, one for /short, one for /four"


class Redirecting(Answer):
    def do_GET(self):
        if self.path.startswith("/hop"):
            target = self.path.split("to=", 1)[1]
            self.reply(302, b"", [("Location", target)])
        else:
            super().do_GET()


def test_the_sessions_client_certificate_goes_only_to_the_backends_origin(tmp_path, http_server):
    """A certificate given for the session (explorer's own --cert, `defaults
    --cert`) is the backend's credential, as its token is: a request to
    another origin (here the same server as 127.0.0.1), a redirect that
    leaves the origin and a --curl line for elsewhere go without it, and
    the line says so; one typed on the line goes where the line goes. It
    was shown to every https host the session talked to."""
    server_cert, server_key = make_certificate(tmp_path, "server", "localhost")
    make_certificate(tmp_path, "client", "tester")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(server_cert, server_key)
    context.load_verify_locations(tmp_path / "client.pem")
    context.verify_mode = ssl.CERT_OPTIONAL
    server = http_server(Redirecting, tls=context)
    base = base_url(server, "https", "localhost")
    other = base_url(server, "https", "127.0.0.1")
    flags = ["--verify", "server.pem", "--cert", "client.pem", "--cert-key", "client-key.pem"]
    result = run_explorer(["--base-url", base] + flags, env=isolated_env(tmp_path), cwd=tmp_path, input="\n".join([
        "get /own",
        f"get {other}/elsewhere",
        f"get {other}/typed --cert client.pem --cert-key client-key.pem",
        f"get /hop?to={other}/landed --follow",
        f"get {other}/curl --curl",
        "get /hop --follow --curl",
    ]) + "\n")
    assert result.returncode == 0, result.stderr
    answers = [line for line in result.stdout.splitlines() if '"client"' in line]
    assert answers == ['  "client": "tester"', '  "client": null', '  "client": "tester"', '  "client": null'], result.stdout
    note = f"client certificate not sent: {other} is not the backend's origin ({base})"
    assert result.stdout.count(note) == 2, result.stdout  # /elsewhere and the --curl line
    assert f"client certificate not sent to {other}: the redirect left {base}" in result.stdout, result.stdout
    # curl cannot drop it at a redirect: the command says so.
    assert "# with -L curl shows the client certificate to every host a redirect leads to" in result.stdout, result.stdout
    curl = next(line for line in result.stdout.splitlines() if line.startswith("curl "))
    assert "--cert" not in curl and "--key" not in curl and "--cacert 'server.pem'" in curl, curl


def test_a_replays_tls_files_are_found_beside_the_transcript_and_kept_in_its_repository(https):
    # Found from the working directory, they failed wherever the suite was run from; read from anywhere, a transcript
    # someone else wrote showed ~/.ssl/client.pem to a server of its choosing.
    import shutil
    base, folder = https
    project = folder / "project"
    (project / ".git").mkdir(parents=True)
    (project / "certs").mkdir()
    (project / "sessions").mkdir()
    for name in ["server.pem", "client.pem", "client-key.pem"]:
        shutil.copy(folder / name, project / "certs" / name)
    transcript = project / "sessions" / "tls.transcript"
    transcript.write_text(f"# explorer transcript v1\nprofile: generic\nbase-url: {base}\n\n"
                          "> get /client --verify ../certs/server.pem --cert ../certs/client.pem --cert-key ../certs/client-key.pem\n"
                          "HTTP/1.1 200 OK\n{\n  \"client\": \"tester\"\n}\n")
    result = run_explorer(["replay", str(transcript)], env=isolated_env(folder), cwd=folder)
    assert result.returncode == 0, result.stdout + result.stderr
    transcript.write_text(transcript.read_text().replace("../certs/client.pem", "../../client.pem"))
    refused = run_explorer(["replay", str(transcript)], env=isolated_env(folder), cwd=folder)
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert f"--cert: cannot read file '../../client.pem': it is outside {project}" in refused.stdout + refused.stderr


def test_tls_flags_on_explorers_own_command_line_cover_every_request(https):
    """`--verify`, `--cert` and `--cert-key` before or after a subcommand
    hold for every request of the REPL's lines, `run`, `replay` and `test`,
    as `defaults` would; a session recorded against a private CA replays
    against it with `--verify`; a CA file that cannot be read is refused
    before anything starts."""
    base, folder = https
    env = isolated_env(folder)

    def explorer_with(*args, stdin=None):
        return run_explorer(list(args), env=env, input=stdin, cwd=folder)

    recorded = explorer_with("--base-url", base, "--verify", "server.pem", "--cert", "client.pem",
                             "--cert-key", "client-key.pem", "--record", "s.transcript", "-c", "get /who")
    assert recorded.returncode == 0, recorded.stderr
    assert '"client": "tester"' in recorded.stdout
    shown = explorer_with("--base-url", base, "--verify", "server.pem", "--cert", "client.pem", "--cert-key", "client-key.pem",
                          "-c", "defaults")
    assert "every request line: --verify server.pem --cert client.pem --cert-key client-key.pem" in shown.stdout, shown.stdout

    (folder / "lines.txt").write_text("get /from-a-file\n")
    for args in [["run", "lines.txt", "--base-url", base, "--verify", "server.pem"],
                 ["--verify", "server.pem", "run", "lines.txt", "--base-url", base]]:
        ran = explorer_with(*args)
        assert ran.returncode == 0 and '"client": null' in ran.stdout, (args, ran.stdout, ran.stderr)

    untrusted = explorer_with("replay", "s.transcript")
    assert untrusted.returncode == 3 and "the server's certificate is not signed by a CA explorer trusts" in untrusted.stdout + untrusted.stderr
    for args in [["replay", "s.transcript", "--verify", "server.pem", "--cert", "client.pem", "--cert-key", "client-key.pem"],
                 ["--verify", "server.pem", "--cert", "client.pem", "--cert-key", "client-key.pem", "test", "s.transcript"]]:
        replayed = explorer_with(*args)
        assert replayed.returncode == 0, (args, replayed.stdout, replayed.stderr)
    without_certificate = explorer_with("replay", "s.transcript", "--verify", "no")
    assert without_certificate.returncode == 4, without_certificate.stdout  # a difference
    assert 'expected "tester"' in without_certificate.stdout and "got      null" in without_certificate.stdout

    refused = explorer_with("--base-url", base, "--verify", "nowhere.pem", "-c", "get /x")
    assert refused.returncode == 64, refused.stderr
    assert "--verify takes yes, no, or a CA file (PEM) that can be read; nowhere.pem cannot" in refused.stderr
    sandbox = explorer_with("sandbox", "--verify", "no")
    assert sandbox.returncode != 0
    assert "--verify is an option of the REPL, explorer run, replay and test, not of explorer sandbox" in sandbox.stderr


def test_tls_files_are_checked_before_anything_is_sent_and_handshake_refusals_say_why(tmp_path, http_server):
    """A CA file that is not PEM, a directory, an encrypted key, a key that
    is not the certificate's, a certificate file without its key and a
    --cert-key without --cert are each one line before anything is sent,
    on a line and on explorer's command line; a server that asks for a
    client certificate none was given for says so."""
    server_cert, server_key = make_certificate(tmp_path, "server", "localhost")
    client_cert, client_key = make_certificate(tmp_path, "client", "tester")
    other_cert, other_key = make_certificate(tmp_path, "other", "someone")
    subprocess.run(["openssl", "pkey", "-in", str(client_key), "-aes256", "-passout", "pass:x", "-out", str(tmp_path / "locked.pem")],
                   check=True, capture_output=True, timeout=30)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_3
    context.load_cert_chain(server_cert, server_key)
    context.load_verify_locations(client_cert)
    context.verify_mode = ssl.CERT_REQUIRED
    base = base_url(http_server(Answer, tls=context), "https", "localhost")
    (tmp_path / "notes.txt").write_text("not a certificate\n")
    (tmp_path / "folder").mkdir()
    result = explorer(base, tmp_path, "\n".join([
        "get /a --verify notes.txt",
        "get /b --verify folder",
        "get /c --verify server.pem --cert client.pem --cert-key locked.pem",
        "get /d --verify server.pem --cert client.pem --cert-key other-key.pem",
        "get /e --verify server.pem --cert client.pem",
        "get /f --verify server.pem --cert-key client-key.pem",
        "get /g --verify server.pem",
        "get /h --verify server.pem --cert client.pem --cert-key client-key.pem",
    ]) + "\n")
    errors = result.stderr.splitlines()
    assert errors == [
        "stdin:1: error: the CA file notes.txt is not PEM, or holds no CA",
        "stdin:2: error: the CA file folder is a directory",
        "stdin:3: error: the key file locked.pem is encrypted; explorer reads only a key without a passphrase "
        "(openssl pkey -in locked.pem -out key.pem writes one)",
        "stdin:4: error: the key other-key.pem does not belong to the certificate client.pem",
        "stdin:5: error: the certificate file client.pem holds no private key; give it with --cert-key FILE",
        "stdin:6: error: --cert-key client-key.pem is the key of a client certificate: give --cert FILE too (not sent)",
        f"stdin:7: error: TLS failure with localhost:{base.rsplit(':', 1)[1]}: the server asks for a client certificate (--cert FILE)",
    ], result.stderr
    assert '"client": "tester"' in result.stdout, result.stdout
    for flags, said in [(["--verify", "notes.txt"], "the CA file notes.txt is not PEM, or holds no CA"),
                        (["--cert", "client.pem", "--cert-key", "other-key.pem"], "the key other-key.pem does not belong to the certificate client.pem"),
                        (["--cert-key", "client-key.pem"], "--cert-key names the key of a client certificate: give --cert FILE too")]:
        refused = run_explorer(["--base-url", base, *flags, "-c", "get /x"], env=isolated_env(tmp_path), cwd=tmp_path)
        assert refused.returncode == 64 and said in refused.stderr, (flags, refused.stderr)


def test_curls_tls_flags_are_read_as_explorers(https):
    """A pasted curl command's -k, --cacert, -E and --key do what they do in
    curl: they were skipped (-k) or refused."""
    base, folder = https
    result = explorer(base, folder, "\n".join([
        f"curl -k {base}/insecure",
        f"curl --cacert server.pem -E client.pem --key client-key.pem {base}/client",
        f"curl {base}/untrusted",
        f"curl --cacert nowhere.pem {base}/missing",
    ]) + "\n")
    assert result.stdout.count('"client": null') == 1 and '"client": "tester"' in result.stdout, result.stdout
    assert f"stdin:3: error: TLS failure with localhost:{base.rsplit(':', 1)[1]}: the server's certificate is not signed by a CA" in result.stderr
    assert "stdin:4: error: curl's --cacert: --verify takes yes, no, or a CA file (PEM) that can be read; nowhere.pem cannot" in result.stderr


class LoginAnswer(Answer):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        body = json.dumps({"access_token": "tok-1", "refresh_token": "ref-1", "token_type": "Bearer", "expires_in": 900,
                           "user": {"id": 1, "email": "alice@example.com", "name": "Alice"}}).encode()
        self.reply(200, body, [("Content-Type", "application/json")])


def test_login_checks_the_server_as_request_lines_do(tmp_path, http_server):
    """`login` (and the session's other own requests) take the session's
    --verify: it went out with the system's CAs, so a staging server behind
    a private CA could be sent requests but not logged in to."""
    server_cert, server_key = make_certificate(tmp_path, "server", "localhost")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(server_cert, server_key)
    base = base_url(http_server(LoginAnswer, tls=context), "https", "localhost")
    for flags, lines in [(["--verify", "server.pem"], ["login alice@example.com alice123"]),
                         ([], ["defaults --verify server.pem", "login alice@example.com alice123"])]:
        result = run_explorer(["--profile", "linku", "--base-url", base, *flags], env=isolated_env(tmp_path), cwd=tmp_path,
                              input="\n".join(lines) + "\n")
        assert result.returncode == 0, (flags, result.stdout, result.stderr)
        assert "TLS failure" not in result.stderr


def test_plain_http_to_a_tls_server_says_to_try_https(https):
    # A TLS server resets a plain request: "the server reset the connection" named no cause,
    # where the reverse (https:// to a plain server) said "try http://".
    base, folder = https
    result = explorer(base.replace("https://", "http://"), folder, "get /x\n")
    assert result.returncode == 3 and "(is it an https server? try https://)" in result.stderr, result.stderr
