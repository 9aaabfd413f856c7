"""Credentials through the built binary, against a server nobody here wrote
(Python's http.server, recording what reaches it): the access token goes
only to the backend's origin, and `--offline` sends nothing at all.
"""
import json

import pytest

from support import QuietHandler, base_url, isolated_env, run_explorer


class Recorder(QuietHandler):
    seen = []

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        Recorder.seen.append((self.command, self.path, dict(self.headers), body))
        self.reply(200, b'{"ok": true}', [("Content-Type", "application/json")])

    do_GET = do_POST = do_PUT = do_DELETE = answer


@pytest.fixture
def stranger(http_server):
    Recorder.seen = []
    return base_url(http_server(Recorder))


def explorer(args, tmp_path, stdin=""):
    return run_explorer(args, env=isolated_env(tmp_path), input=stdin, cwd=tmp_path)


def test_offline_login_sends_nothing_and_shows_the_password_hidden(stranger, tmp_path):
    result = explorer(["--offline", "--base-url", stranger, "--profile", "linku", "-c", "login me@example.com s3cret"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert Recorder.seen == []
    assert "POST /api/secure-auth/login HTTP/1.1" in result.stdout
    assert '"password":"<hidden: 6 characters>"' in result.stdout and "Content-Length: 46" in result.stdout, result.stdout
    assert "s3cret" not in result.stdout + result.stderr


def test_the_token_stays_with_the_backend_when_a_line_names_another_server(stranger, tmp_path):
    result = explorer([], tmp_path, stdin=f"login alice@example.com alice123\nget {stranger}/steal\nget /api/tasks/1\n")
    assert result.returncode == 0, result.stderr
    assert [(method, path) for method, path, _, _ in Recorder.seen] == [("GET", "/steal")]
    headers = {name.lower() for name in Recorder.seen[0][2]}
    assert "authorization" not in headers
    assert f"token not sent: {stranger} is not the backend's origin" in result.stdout
    # The backend itself still gets it: the next line is answered, not refused.
    assert '"title": "Pick up a parcel"' in result.stdout


def test_offline_sends_nothing_whatever_the_command(stranger, tmp_path):
    # Every command that can reach a server, in one offline session: the family
    # of the offline-login leak. A new command that sends belongs in this list.
    lines = [
        "login me@example.com s3cret", "whoami", "logout", "get /api/tasks", "post /api/tasks title=x",
        "put /api/tasks/1 title=y", "patch /api/tasks/1 title=z", "delete /api/tasks/1", "head /api/tasks",
        "options /api/tasks", f"get {stranger}/full-url", "ws connect", f"ws connect {stranger.replace('http', 'ws')}/ws",
        "ws send n:=1", "ws recv --timeout 0",
    ]
    result = explorer(["--offline", "--base-url", stranger, "--profile", "linku"], tmp_path, stdin="\n".join(lines) + "\n")
    assert Recorder.seen == [], Recorder.seen
    assert "s3cret" not in result.stdout + result.stderr
    assert "explorer runs --offline" in result.stderr


def test_auth_sets_the_credential_for_the_backend_only_and_history_keeps_a_placeholder(stranger, tmp_path):
    # Issue 13: `auth bearer|basic|header|none`, sugar over session headers,
    # bound to the backend's origin; history keeps `{{secret:token}}`, so a
    # recalled line asks for the token instead of sending `***`.
    lines = ["auth bearer s3cr3t-t0k", "get /a", "auth basic alice:pw", "get /b", "auth header X-Api-Key k3y", "get /c",
             f"get {stranger.replace('127.0.0.1', 'localhost')}/elsewhere", "auth none", "header unset X-Api-Key", "get /d", "auth"]
    result = explorer(["--base-url", stranger], tmp_path, stdin="\n".join(lines) + "\n")
    seen = {path: {k.lower(): v for k, v in headers.items()} for _, path, headers, _ in Recorder.seen}
    assert seen["/a"]["authorization"] == "Bearer s3cr3t-t0k"
    assert seen["/b"]["authorization"] == "Basic YWxpY2U6cHc="
    assert seen["/c"]["x-api-key"] == "k3y" and "authorization" not in seen["/c"], "each auth line replaces the last"
    assert "authorization" not in seen["/elsewhere"] and "x-api-key" not in seen["/elsewhere"], "localhost is another origin"
    assert "authorization" not in seen["/d"] and "x-api-key" not in seen["/d"]
    assert "s3cr3t-t0k" not in result.stdout + result.stderr and "k3y" not in result.stdout


class Echo(QuietHandler):
    """Answers with what the request carried, under names that say nothing
    secret: {"you_sent": <Authorization>, "name": <the body's name>}."""

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}") if length else {}
        echoed = {"you_sent": self.headers.get("Authorization", ""), "name": body.get("name", "")}
        self.reply(200, json.dumps(echoed).encode(), [("Content-Type", "application/json")])

    do_GET = do_POST = answer


OPAQUE = "opaque-token-0123456789"


def test_a_credential_the_server_echoes_is_hidden_on_screen_in_reports_and_in_updates(http_server, tmp_path):
    url = base_url(http_server(Echo))
    env = isolated_env(tmp_path, EXPLORER_SECRET_TOKEN=OPAQUE, EXPLORER_SECRET_API_KEY="MYAPIKEY-0123456789")
    shown = run_explorer(["--base-url", url, "-c", f"auth bearer {OPAQUE}", "-c", "get /leak", "-c", "show", "-c", "show .you_sent",
                          "-c", "capture echo .you_sent"], env=env, cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    # The answer, then `show`, `show .you_sent` and `capture` of it: hidden each time (show printed it in clear).
    assert shown.stdout.count('"you_sent": "<hidden: 30 characters>"') == 2, shown.stdout
    assert shown.stdout.count('"<hidden: 30 characters>"') == 4, shown.stdout
    assert OPAQUE not in shown.stdout + shown.stderr

    transcript = tmp_path / "echo.transcript"
    recorded = run_explorer(["--base-url", url, "--record", str(transcript), "-c", "auth bearer {{secret:token}}",
                             "-c", "get /leak", "-c", "post /items name={{secret:api_key}}"], env=env, cwd=tmp_path)
    assert recorded.returncode == 0, recorded.stderr
    text = transcript.read_text()
    assert OPAQUE not in text and "MYAPIKEY" not in text
    assert transcript.stat().st_mode & 0o777 == 0o600, "private, as the history and saved answers are"
    # The server's answers change: the report says so without the values.
    transcript.write_text(text.replace('"you_sent": "Bearer {{secret:token}}"', '"you_sent": "Bearer old"')
                          .replace('"name": "{{secret:api_key}}"', '"name": "old"'))
    report = run_explorer(["test", str(transcript), "--junit", str(tmp_path / "report.xml")], env=env, cwd=tmp_path)
    assert report.returncode == 4, report.stdout + report.stderr
    assert "<hidden>" in report.stdout
    for where in (report.stdout, report.stderr, (tmp_path / "report.xml").read_text()):
        assert OPAQUE not in where and "MYAPIKEY" not in where
    updated = run_explorer(["replay", "--update", str(transcript)], env=env, cwd=tmp_path)
    assert updated.returncode == 0, updated.stdout + updated.stderr
    text = transcript.read_text()
    assert OPAQUE not in text and "MYAPIKEY" not in text
    assert '"you_sent": "Bearer {{secret:token}}"' in text and '"name": "{{secret:api_key}}"' in text
    assert run_explorer(["replay", str(transcript)], env=env, cwd=tmp_path).returncode == 0


class ReasonEcho(QuietHandler):
    """Refuses with the key it was sent in its reason phrase, as some gateways do."""

    def do_GET(self):
        self.send_response(403, "Forbidden for key " + self.headers.get("X-Api-Key", ""))
        self.send_header("Content-Length", "0")
        self.end_headers()


def test_a_credential_quoted_in_the_reason_phrase_is_hidden_on_screen_and_in_reports(http_server, tmp_path):
    # The status line was the one place the request's credential was shown in clear.
    url = base_url(http_server(ReasonEcho))
    key = "sk-live-9f8e7d6c5b4a"
    env = isolated_env(tmp_path, EXPLORER_SECRET_API_KEY=key)
    shown = run_explorer(["--base-url", url, "-c", "get /thing X-Api-Key:{{secret:api_key}}", "-c", f"get /thing X-Api-Key:{key} -v"],
                         env=env, cwd=tmp_path)
    assert shown.stdout.count(" 403 Forbidden for key <hidden: 20 characters>") == 2, shown.stdout
    assert key not in shown.stdout + shown.stderr
    (tmp_path / "t.transcript").write_text(f"# explorer transcript v1\nprofile: generic\nbase-url: {url}\n\n"
                                           f"> get /thing X-Api-Key:{key}\nHTTP/1.1 200 OK\n")
    report = run_explorer(["test", "t.transcript", "--junit", "report.xml"], env=env, cwd=tmp_path)
    assert report.returncode == 4, report.stdout + report.stderr
    assert "got      403 Forbidden for key <hidden>" in report.stdout, report.stdout
    for where in (report.stdout, report.stderr, (tmp_path / "report.xml").read_text()):
        assert key not in where


class PathEcho(QuietHandler):
    """Answers with the request's path and query as they came."""

    def do_GET(self):
        self.reply(200, json.dumps({"path": self.path}).encode(), [("Content-Type", "application/json")])


def test_a_token_in_an_encoded_url_valued_query_is_recorded_as_typed_and_replays(http_server, tmp_path):
    # The recorded line was re-encoded around its placeholder (`/cb` as `%2Fcb`): two typed lines were
    # written alike, neither sent what had been sent, and the recording failed its own replay; --curl
    # printed the token of a query typed in the path.
    url = base_url(http_server(PathEcho))
    token = "S3cretTok9"
    env = isolated_env(tmp_path, EXPLORER_SECRET_ACCESS_TOKEN=token)
    lines = ["get '/x?next=/cb%3Faccess_token%3DS3cretTok9'", "get /x next==/cb%3Faccess_token%3DS3cretTok9"]
    recorded = run_explorer(["--base-url", url, "--record", "r.transcript", *sum((["-c", line] for line in lines), [])], env=env, cwd=tmp_path)
    assert recorded.returncode == 0, recorded.stderr
    text = (tmp_path / "r.transcript").read_text()
    assert token not in text
    assert "> get /x?next=/cb%3Faccess_token%3D{{secret:access_token}}\n" in text, text
    assert "> get /x next==/cb%3Faccess_token%3D{{secret:access_token}}\n" in text, text
    replay = run_explorer(["replay", "r.transcript"], env=env, cwd=tmp_path)
    assert replay.returncode == 0, replay.stdout + replay.stderr
    curl = run_explorer(["--base-url", url, *sum((["-c", line + " --curl"] for line in lines), [])], env=env, cwd=tmp_path)
    assert token not in curl.stdout and curl.stdout.count('"$ACCESS_TOKEN"') == 2, curl.stdout


def test_auth_header_is_a_secret_and_each_auth_line_replaces_the_last(stranger, tmp_path):
    lines = ["auth header X-Auth HDRAUTH8", "get /one -v", "auth basic u:pw", "get /two", "auth none", "get /three", "auth"]
    result = explorer(["--base-url", stranger, "--record", "auth.transcript", *sum((["-c", line] for line in lines), [])], tmp_path)
    assert result.returncode == 0, result.stderr
    sent = {path: {name.lower(): value for name, value in headers.items()} for _, path, headers, _ in Recorder.seen}
    assert sent["/one"]["x-auth"] == "HDRAUTH8"
    assert "x-auth" not in sent["/two"] and sent["/two"]["authorization"].startswith("Basic "), "auth basic replaced auth header"
    assert "x-auth" not in sent["/three"] and "authorization" not in sent["/three"], "auth none left no credential"
    assert "X-Auth: <hidden: 8 characters>" in result.stdout
    assert "HDRAUTH8" not in result.stdout + result.stderr
    recorded = (tmp_path / "auth.transcript").read_text()
    assert "HDRAUTH8" not in recorded and "auth header X-Auth {{secret:x_auth}}" in recorded


def test_a_pasted_curl_u_is_recorded_with_its_user_and_replays(http_server, tmp_path):
    # `curl -u devon:PW URL` was written `curl -u {{secret:password}} URL`: its
    # replay sent Basic base64(PW), no user and no colon, and was refused.
    import base64

    class BasicAuth(QuietHandler):
        def do_GET(self):
            expected = "Basic " + base64.b64encode(b"devon:pw-123456").decode()
            ok = self.headers.get("Authorization") == expected
            body = {"authenticated": ok, "path": self.path}
            self.reply(200 if ok else 401, json.dumps(body).encode(), [("Content-Type", "application/json")])

    base = base_url(http_server(BasicAuth))
    env = isolated_env(tmp_path)
    path = tmp_path / "basic.transcript"
    recorded = run_explorer(["--base-url", base, "--record", str(path), "-c", f"curl -u devon:pw-123456 {base}/basic/devon/pw-123456"],
                            env=env, timeout=30)
    assert recorded.returncode == 0, recorded.stdout + recorded.stderr
    text = path.read_text()
    # The URL of the session's own server as {{base_url}}, so a replay elsewhere goes there.
    assert "> curl -u devon:{{secret:password}} {{base_url}}/basic/devon/{{secret:password}}\n" in text, text
    assert "pw-123456" not in text, text
    replay = run_explorer(["replay", str(path)], env={**env, "EXPLORER_SECRET_PASSWORD": "pw-123456"}, timeout=30)
    assert replay.returncode == 0, replay.stdout + replay.stderr + text


def test_two_basic_passwords_are_two_secrets_and_replay(http_server, tmp_path):
    # A second `auth basic` with another password was written
    # `{{secret:password}}` too: its replay sent the first password twice.
    import base64

    accepted = {"Basic " + base64.b64encode(pair).decode() for pair in [b"bob:first-pw", b"eve:second-pw"]}

    class BasicAuth(QuietHandler):
        def do_GET(self):
            ok = self.headers.get("Authorization") in accepted
            self.reply(200 if ok else 401, json.dumps({"ok": ok}).encode(), [("Content-Type", "application/json")])

    base = base_url(http_server(BasicAuth))
    env = isolated_env(tmp_path)
    path = tmp_path / "two-basic.transcript"
    recorded = run_explorer(["--base-url", base, "--record", str(path), "-c", "auth basic bob:first-pw", "-c", "get /a",
                             "-c", "auth basic eve:second-pw", "-c", "get /b", "-c", "auth basic bob:first-pw", "-c", "get /c"],
                            env=env, timeout=30)
    assert recorded.returncode == 0, recorded.stdout + recorded.stderr
    text = path.read_text()
    assert [line for line in text.splitlines() if line.startswith("> auth")] == [
        "> auth basic bob:{{secret:password}}", "> auth basic eve:{{secret:password_2}}", "> auth basic bob:{{secret:password}}"], text
    assert "first-pw" not in text and "second-pw" not in text, text
    secrets = {"EXPLORER_SECRET_PASSWORD": "first-pw", "EXPLORER_SECRET_PASSWORD_2": "second-pw"}
    replay = run_explorer(["replay", str(path)], env={**env, **secrets}, timeout=30)
    assert replay.returncode == 0, replay.stdout + replay.stderr + text


def test_scripts_whose_tokens_ran_out_together_send_one_refresh(tmp_path):
    # Four scripts started at once after the tokens ran out each sent the
    # same single-use refresh token: one was accepted and three refused (a
    # server that detects reuse revokes the login then). The token store's
    # refresh lock makes it one refresh; the others take what it saved.
    import re
    import subprocess
    import urllib.request

    from support import BINARY

    env = isolated_env(tmp_path)
    sandbox = subprocess.Popen([BINARY, "sandbox", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               stdin=subprocess.DEVNULL, text=True, env=env, cwd=tmp_path)
    try:
        base = re.search(r"(http://127\.0\.0\.1:\d+)", sandbox.stdout.readline()).group(1)
        args = ["--profile", "linku", "--base-url", base]
        assert run_explorer(args + ["-c", "login alice@example.com alice123"], env=env, cwd=tmp_path).returncode == 0
        urllib.request.urlopen(urllib.request.Request(base + "/__sandbox/expire-access-tokens", method="POST"), timeout=10).read()
        # A slow server: the scripts' refreshes overlap, as on a real one far away.
        urllib.request.urlopen(urllib.request.Request(base + "/__sandbox/faults", data=b'{"latency_ms": 300}', method="PUT",
                                                      headers={"Content-Type": "application/json"}), timeout=10).read()
        scripts = [subprocess.Popen([BINARY] + args + ["-c", "whoami"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    stdin=subprocess.DEVNULL, text=True, env=env, cwd=tmp_path) for _ in range(4)]
        results = [script.communicate(timeout=60) for script in scripts]
        assert all(script.returncode == 0 for script in scripts), results
        stats = json.loads(urllib.request.urlopen(base + "/__sandbox/stats", timeout=10).read())
        assert stats.get("refresh") == 1, stats
        # The token store keeps the login (mode 0600, by design); logged out, the suite's secret scan finds none.
        assert run_explorer(args + ["-c", "logout"], env=env, cwd=tmp_path).returncode == 0
        assert "eyJ" not in (tmp_path / "config" / "explorer" / "tokens.json").read_text()
        # A tokens file that does not read is left as it is; a logout that cannot forget fails, as a script must see
        # (it said "logged out" and exited 0, and the next run was logged in again).
        (tmp_path / "config" / "explorer" / "tokens.json").write_text('{"version": 2, "backends": {')
        both = run_explorer(args + ["-c", "login alice@example.com alice123", "-c", "logout"], env=env, cwd=tmp_path)
        assert both.returncode == 3, both.stdout + both.stderr
        assert "warning: the login is kept for this session only: " in both.stderr, both.stderr
        assert "-c 2: error: logged out of this session only; the saved login stays: " in both.stderr, both.stderr
        assert (tmp_path / "config" / "explorer" / "tokens.json").read_text() == '{"version": 2, "backends": {'
    finally:
        sandbox.terminate()
        sandbox.communicate(timeout=30)


def test_the_basic_header_a_urls_userinfo_became_is_hidden_where_an_answer_echoes_it(http_server, tmp_path):
    # `-a u:pw`'s header was hidden in the echo; the same credential typed in the URL was written in clear (base64).
    url = base_url(http_server(Echo))
    transcript = tmp_path / "userinfo.transcript"
    env = isolated_env(tmp_path)
    recorded = run_explorer(["--base-url", url, "--record", str(transcript), "-c", f"get {url.replace('://', '://u:UrlPw5566@')}/leak"],
                            env=env, cwd=tmp_path)
    assert recorded.returncode == 0, recorded.stdout + recorded.stderr
    text = transcript.read_text()
    assert "UrlPw5566" not in text and "dTpVcmxQdzU1NjY" not in text, text
    assert '"you_sent": "{{secret:authorization}}"' in text, text
    replayed = run_explorer(["replay", str(transcript)], env=isolated_env(tmp_path, EXPLORER_SECRET_PASSWORD="UrlPw5566"), cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr + text


def test_a_replay_hides_the_basic_header_it_made_of_a_supplied_secret(http_server, tmp_path):
    # `-a bob:{{secret:bobpw}}`: the diff and the JUnit report printed the echoed header, base64 of bob:PASSWORD.
    url = base_url(http_server(Echo))
    transcript = tmp_path / "basic.transcript"
    transcript.write_text(f"# explorer transcript v1\nprofile: generic\nbase-url: {url}\n\n"
                          "> get /leak -a bob:{{secret:bobpw}}\nHTTP/1.1 200 OK\n{\n  \"you_sent\": \"x\",\n  \"name\": \"\"\n}\n")
    env = isolated_env(tmp_path, EXPLORER_SECRET_BOBPW="BobSupPw77")
    report = run_explorer(["test", str(transcript), "--junit", str(tmp_path / "j.xml")], env=env, cwd=tmp_path)
    assert report.returncode == 4, report.stdout + report.stderr
    assert 'got      "<hidden>"' in report.stdout, report.stdout
    for where in (report.stdout + report.stderr, (tmp_path / "j.xml").read_text()):
        assert "Ym9iOkJvYlN1cFB3Nzc=" not in where and "BobSupPw77" not in where, where


def test_a_supplied_secret_written_by_hand_in_a_line_is_hidden_in_the_report_and_junit(http_server, tmp_path):
    # `post /leak note="my password is …"` written by hand in a transcript: its difference hid the
    # password, the step's line (in the report and as the JUnit case's name) said it.
    url = base_url(http_server(Echo))
    transcript = tmp_path / "hand.transcript"
    transcript.write_text(f"# explorer transcript v1\nprofile: generic\nbase-url: {url}\n\n"
                          "> post /leak -a bob:{{secret:password}} 'note=my password is HandPw9911 ok'\nHTTP/1.1 200 OK\n"
                          "{\n  \"you_sent\": \"x\",\n  \"name\": \"\"\n}\n")
    env = isolated_env(tmp_path, EXPLORER_SECRET_PASSWORD="HandPw9911")
    report = run_explorer(["test", str(transcript), "--junit", str(tmp_path / "j.xml")], env=env, cwd=tmp_path)
    assert report.returncode == 4, report.stdout + report.stderr
    junit = (tmp_path / "j.xml").read_text()
    assert "HandPw9911" not in report.stdout + report.stderr and "'note=my password is <hidden> ok'" in report.stdout, report.stdout
    assert "HandPw9911" not in junit and "&apos;note=my password is &lt;hidden&gt; ok&apos;" in junit, junit


def test_a_refused_lines_secrets_are_hidden_in_its_error_and_its_recording(stranger, tmp_path):
    # A whole line typed in quotes is one word, an unknown command: its error and its recording
    # said it in clear; so did JSON typed where an item goes, which the parser refuses.
    lines = ["'set token=S3CRc1x'", "'post /echo X-Api-Key:S3CRc5x'", """post /echo '{"password": "S3CRc4x", }'"""]
    result = explorer(["--base-url", stranger, "--record", "r.transcript"], tmp_path, stdin="\n".join(lines) + "\n")
    assert "unknown command 'set token=***'" in result.stderr, result.stderr
    assert "<hidden: 7 characters>" in result.stderr
    recorded = (tmp_path / "r.transcript").read_text()
    assert "> 'set token={{secret:token}}'" in recorded, recorded
    assert """> post /echo '{"password": "{{secret:password}}", }'""" in recorded
    for secret in ["S3CRc1x", "S3CRc5x", "S3CRc4x"]:
        assert secret not in result.stdout + result.stderr and secret not in recorded, secret
    assert Recorder.seen == []
