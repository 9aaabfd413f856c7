"""A backend of the user's own, described in a profile file, through the
built binary, against servers nobody here wrote (Python's http.server): its
token comes from the environment or is asked for without echo, goes only to
the environment's origin, and its error envelope makes the one-line summary.
"""
import contextlib
import json
import subprocess
import time
import urllib.parse

import pexpect
import pytest

from support import QuietHandler, isolated_env, pty_explorer, run_explorer


def backend(http_server, token="T0KEN"):
    """A server that wants `Authorization: token <token>` and words errors its own way."""
    seen = []

    class Handler(QuietHandler):
        def do_GET(self):
            seen.append({"path": self.path, "authorization": self.headers.get("Authorization")})
            if self.path.startswith("/api/v1/go?to="):
                # An open redirect, as many backends have one.
                target = urllib.parse.unquote(self.path.split("=", 1)[1])
                return self.reply(302, b"", [("Location", target)])
            if self.headers.get("Authorization") != "token " + token:
                status, body = 401, {"fault": {"text": "bad token", "kind": "AUTH"}}
            elif self.path == "/api/v1/user":
                status, body = 200, {"login": "me"}
            else:
                status, body = 404, {"fault": {"text": "no such thing", "kind": "NOT_FOUND", "more": {"path": self.path}}}
            self.reply(status, json.dumps(body).encode(), [("Content-Type", "application/json")])

    return http_server(Handler), seen


@pytest.fixture
def two_backends(tmp_path, http_server):
    local, local_seen = backend(http_server)
    staging, staging_seen = backend(http_server, token="0THER")
    # The backend's own catalog, in Swagger 2.0 as many real ones still ship it.
    (tmp_path / "swagger.yaml").write_text("""swagger: "2.0"
info: {title: My API, version: "1"}
basePath: /api/v1
securityDefinitions:
  token: {type: apiKey, in: header, name: Authorization}
security: [{token: []}]
definitions:
  User:
    type: object
    required: [login]
    properties:
      login: {type: string}
      plan: {type: string, enum: [free, pro]}
paths:
  /user:
    get:
      summary: The user the token belongs to
      responses:
        "200": {description: ok, schema: {$ref: "#/definitions/User"}}
  /repos:
    get:
      summary: The user's repositories
      parameters:
        - {name: sort, in: query, type: string, enum: [created, updated]}
      responses:
        "200": {description: ok}
""")
    profile = tmp_path / "mine.yaml"
    profile.write_text(f"""explorer-profile: 1
name: mine
display-name: My API
spec: swagger.yaml
environments:
  local:
    base-url: http://127.0.0.1:{local.server_address[1]}/api/v1
  staging:
    base-url: http://127.0.0.1:{staging.server_address[1]}/api/v1
auth:
  kind: header
  header: Authorization
  value: "token {{{{secret:token}}}}"
errors:
  message: .fault.text
  code: .fault.kind
  details: .fault.more
  codes:
    AUTH: your token is wrong or expired
""")
    return profile, (local, local_seen), (staging, staging_seen)


def header_recorder(seen, *names):
    """A handler that answers every GET `{}` and appends to `seen` the server's port and the named headers' values."""
    class Recorder(QuietHandler):
        def do_GET(self):
            seen.append((self.server.server_address[1], *(self.headers.get(name) for name in names)))
            self.reply(200, b"{}", [("Content-Type", "application/json")])

    return Recorder


def two_environments(path, a, b):
    """A profile file `two` whose environments a and b are the servers a and b."""
    path.write_text("explorer-profile: 1\nname: two\nenvironments:\n"
                    f"  a: {{base-url: \"http://127.0.0.1:{a.server_address[1]}\"}}\n"
                    f"  b: {{base-url: \"http://127.0.0.1:{b.server_address[1]}\"}}\n")


def run(args, tmp_path, token="T0KEN"):
    env = isolated_env(tmp_path)
    env.pop("EXPLORER_SECRET_TOKEN", None)
    if token is not None:
        env["EXPLORER_SECRET_TOKEN"] = token
    return run_explorer(args, env=env, stdin=subprocess.DEVNULL, timeout=30)


def test_the_token_goes_to_the_environments_origin_only(two_backends, tmp_path):
    profile, (local, local_seen), (staging, staging_seen) = two_backends
    ok = run(["--profile", str(profile), "-c", "get /user"], tmp_path)
    assert ok.returncode == 0, ok.stderr
    assert '"login": "me"' in ok.stdout
    assert local_seen[-1] == {"path": "/api/v1/user", "authorization": "token T0KEN"}

    # Another origin, typed in full: no token, and the answer says so.
    elsewhere = f"http://127.0.0.1:{staging.server_address[1]}/api/v1/user"
    other = run(["--profile", str(profile), "-c", f"get {elsewhere}"], tmp_path)
    assert staging_seen[-1]["authorization"] is None
    assert "session headers not sent" in other.stdout
    assert "T0KEN" not in other.stdout + other.stderr

    # --env picks the other environment, which then gets its own token.
    switched = run(["--profile", str(profile), "--env", "staging", "-c", "get /user"], tmp_path, token="0THER")
    assert switched.returncode == 0, switched.stderr
    assert staging_seen[-1] == {"path": "/api/v1/user", "authorization": "token 0THER"}


def test_errors_are_summed_up_in_the_profiles_words(two_backends, tmp_path):
    profile, _, _ = two_backends
    missing = run(["--profile", str(profile), "-c", "get /nope"], tmp_path)
    assert missing.returncode == 3
    assert "error: 404 NOT_FOUND: no such thing (path: /api/v1/nope)" in missing.stderr
    wrong = run(["--profile", str(profile), "-c", "get /user"], tmp_path, token="nope")
    assert "error: 401 AUTH: your token is wrong or expired" in wrong.stderr


def test_each_environment_takes_its_own_secret_variable_and_a_shared_one_is_said(two_backends, tmp_path):
    # One EXPLORER_SECRET_TOKEN for every environment: `env staging` sent local's token to staging, unsaid.
    profile, (local, local_seen), (staging, staging_seen) = two_backends
    env = isolated_env(tmp_path, EXPLORER_SECRET_TOKEN="T0KEN", EXPLORER_SECRET_STAGING_TOKEN="0THER")
    own = run_explorer(["--profile", str(profile), "-c", "get /user", "-c", "env staging", "-c", "get /user"], env=env, stdin=subprocess.DEVNULL)
    assert own.returncode == 0, own.stderr
    assert local_seen[-1]["authorization"] == "token T0KEN" and staging_seen[-1]["authorization"] == "token 0THER"
    assert "the same as every environment's" not in own.stderr, own.stderr
    env.pop("EXPLORER_SECRET_STAGING_TOKEN")
    shared = run_explorer(["--profile", str(profile), "-c", "env staging"], env=env, stdin=subprocess.DEVNULL)
    assert shared.returncode == 0, shared.stderr
    assert ("; its credential is EXPLORER_SECRET_TOKEN's, the same as every environment's "
            "(EXPLORER_SECRET_STAGING_TOKEN gives staging its own)") in shared.stderr, shared.stderr
    # --env and a replay's --env take the environment's own too.
    env["EXPLORER_SECRET_STAGING_TOKEN"] = "0THER"
    staging_seen.clear()
    assert run_explorer(["--profile", str(profile), "--env", "staging", "-c", "get /user"], env=env, stdin=subprocess.DEVNULL).returncode == 0
    assert staging_seen[-1]["authorization"] == "token 0THER"


def test_a_transcript_naming_another_host_does_not_get_the_profiles_credential(two_backends, tmp_path, http_server):
    # `base-url: http://elsewhere` under `profile: mine`: the replay sent the environment's token there unsaid;
    # `env: staging` above local's base-url sent staging's token to local.
    profile, (local, local_seen), (staging, staging_seen) = two_backends
    elsewhere, elsewhere_seen = backend(http_server)
    env = isolated_env(tmp_path, EXPLORER_SECRET_TOKEN="T0KEN")
    for name, lines in [("foreign", f"base-url: http://127.0.0.1:{elsewhere.server_address[1]}/api/v1\n"),
                        ("mismatch", f"env: staging\nbase-url: http://127.0.0.1:{local.server_address[1]}/api/v1\n")]:
        path = tmp_path / f"{name}.transcript"
        path.write_text(f"# explorer transcript v1\nprofile: {profile}\n{lines}\n> get /user\nHTTP/1.1 200 OK\n{{{{*}}}}\n")
        refused = run_explorer(["replay", str(path)], env=env, stdin=subprocess.DEVNULL)
        assert refused.returncode == 2, refused
        assert "and the profile's credential goes to its environments alone: give --base-url" in refused.stdout + refused.stderr, refused
        assert elsewhere_seen == [] and local_seen == [] and staging_seen == []
    # A login flow's password too (the header's `login:` sent it to the other host).
    flow = tmp_path / "flow.yaml"
    flow.write_text(f"explorer-profile: 1\nname: flow\nenvironments:\n  prod: {{base-url: \"http://127.0.0.1:{local.server_address[1]}/api\"}}\n"
                    "auth: {kind: login, login-path: /auth/login, whoami-path: /me}\n")
    login = tmp_path / "login.transcript"
    login.write_text(f"# explorer transcript v1\nprofile: {flow}\nbase-url: http://127.0.0.1:{elsewhere.server_address[1]}/evil\n"
                     "login: alice@example.com\n\n> get /a\nHTTP/1.1 200 OK\n")
    refused = run_explorer(["replay", str(login)], env=dict(env, EXPLORER_SECRET_PASSWORD="prodpw"), stdin=subprocess.DEVNULL)
    assert refused.returncode == 2 and elsewhere_seen == [], (refused, elsewhere_seen)
    # Said on the command line, it goes there.
    path = tmp_path / "foreign.transcript"
    given = run_explorer(["replay", str(path), "--base-url", f"http://127.0.0.1:{elsewhere.server_address[1]}/api/v1"], env=env,
                         stdin=subprocess.DEVNULL)
    assert given.returncode == 0, given.stdout + given.stderr
    assert elsewhere_seen[-1]["authorization"] == "token T0KEN"


def test_a_transcript_step_sends_no_secret_to_another_origin(two_backends, tmp_path, http_server):
    # `get http://elsewhere/q t=={{secret:staging_token}}` handed any EXPLORER_SECRET_ variable, an environment's
    # own too, to whoever wrote the file, even with the base-url right.
    profile, (local, local_seen), _ = two_backends
    elsewhere, elsewhere_seen = backend(http_server)
    env = isolated_env(tmp_path, EXPLORER_SECRET_TOKEN="T0KEN", EXPLORER_SECRET_STAGING_TOKEN="0THER")
    base = f"http://127.0.0.1:{local.server_address[1]}/api/v1"
    other = f"http://127.0.0.1:{elsewhere.server_address[1]}"
    for step in (f"get {other}/q t=={{{{secret:staging_token}}}}", f"get {other.upper()}/q X-A:{{{{secret:token}}}}"):
        path = tmp_path / "steal.transcript"
        path.write_text(f"# explorer transcript v1\nprofile: {profile}\nbase-url: {base}\n\n> get /user\nHTTP/1.1 200 OK\n{{{{*}}}}\n\n"
                        f"> {step}\nHTTP/1.1 200 OK\n{{{{*}}}}\n\n> get /user\nHTTP/1.1 200 OK\n{{{{*}}}}\n")
        refused = run_explorer(["replay", str(path)], env=env, stdin=subprocess.DEVNULL)
        assert refused.returncode == 2, refused
        assert (f"steal.transcript:9: sends {{{{secret:{step.split('secret:')[1].split('}')[0]}}}}} to {other}, which is not the backend's origin "
                f"(http://127.0.0.1:{local.server_address[1]}): a replay sends a transcript's secrets to its backend alone") in refused.stderr, refused
        assert elsewhere_seen == [] and len(local_seen) == 1, (elsewhere_seen, local_seen)
        local_seen.clear()
    # To the backend's own origin, written whole, it goes.
    path.write_text(f"# explorer transcript v1\nprofile: {profile}\nbase-url: {base}\n\n> get {base}/user X-A:{{{{secret:token}}}}\nHTTP/1.1 200 OK\n{{{{*}}}}\n")
    sent = run_explorer(["replay", str(path)], env=env, stdin=subprocess.DEVNULL)
    assert sent.returncode == 0, sent


def test_a_replayed_secret_held_in_a_variable_a_capture_or_a_socket_goes_to_its_backend_alone(two_backends, tmp_path, http_server):
    # The refusal read the line as written: `set k={{secret:token}}` then `get http://elsewhere/ t=={{k}}`, a capture of an
    # echo of it, and a frame on a socket opened elsewhere, sent it there.
    import threading
    from websockets.sync.server import serve

    profile, (local, local_seen), _ = two_backends
    elsewhere, elsewhere_seen = backend(http_server)
    frames = []

    def handler(socket):
        frames.extend(value for _, value in socket.request.headers.raw_items() if "T0KEN" in value)
        for message in socket:
            frames.append(message)

    sockets = serve(handler, "127.0.0.1", 0)
    threading.Thread(target=sockets.serve_forever, daemon=True).start()
    try:
        env = isolated_env(tmp_path, EXPLORER_SECRET_TOKEN="T0KEN")
        base = f"http://127.0.0.1:{local.server_address[1]}/api/v1"
        other = f"http://127.0.0.1:{elsewhere.server_address[1]}"
        socket = f"ws://127.0.0.1:{sockets.socket.getsockname()[1]}"
        for steps, shown in [(f"> set k={{{{secret:token}}}}\n\n> get {other}/q t=={{{{k}}}}\n{{{{*}}}}\n", other),
                             (f"> set k=x-{{{{secret:token}}}}\n\n> post {other}/q note={{{{k}}}}\n{{{{*}}}}\n", other),
                             (f"> get /q t=={{{{secret:token}}}}\n{{{{*}}}}\n\n> capture k = .fault.more.path\n\n> set j=p-{{{{k}}}}\n\n"
                              f"> get {other}/q X-J:{{{{j}}}}\n{{{{*}}}}\n", other),
                             (f"> ws connect {socket}/s\n\n> ws send token={{{{secret:token}}}}\n\n> ws close\n", socket),
                             # In a Basic header (base64 of `x:SECRET`), typed with -a, in the URL, in a pasted curl.
                             (f"> set k={{{{secret:token}}}}\n\n> get {other}/a -a x:{{{{k}}}}\n{{{{*}}}}\n", other),
                             (f"> set k={{{{secret:token}}}}\n\n> get http://x:{{{{k}}}}@{other.removeprefix('http://')}/b\n{{{{*}}}}\n", other),
                             (f"> set k={{{{secret:token}}}}\n\n> curl -u x:{{{{k}}}} {other}/c\n{{{{*}}}}\n", other),
                             # As a header's name, and in a socket's handshake (its URL alone was read).
                             (f"> set k={{{{secret:token}}}}\n\n> get {other}/h {{{{k}}}}:1\n{{{{*}}}}\n", other),
                             (f"> set k={{{{secret:token}}}}\n\n> ws connect {socket}/s X-A:{{{{k}}}}\n\n> ws close\n", socket),
                             (f"> set k={{{{secret:token}}}}\n\n> ws connect {socket}/s {{{{k}}}}:1\n\n> ws close\n", socket),
                             # Taken elsewhere by the backend's open redirect: in the next URL, or a header's name.
                             (f"> get /go to=={other}/p/{{{{secret:token}}}} --follow\n{{{{*}}}}\n", other),
                             (f"> set k={{{{secret:token}}}}\n\n> get /go to=={other}/q?x={{{{k}}}} --follow\n{{{{*}}}}\n", other),
                             (f"> set k={{{{secret:token}}}}\n\n> get /go to=={other}/r {{{{k}}}}:1 --follow\n{{{{*}}}}\n", other),
                             # In pieces, each captured from an echo of it: "T0" and "KEN" went one by one.
                             ('> get /q t=={{secret:token}}\nHTTP/1.1 404 Not Found\n{\n  "fault": {\n    "text": "no such thing",\n'
                              '    "kind": "NOT_FOUND",\n    "more": {\n      "path": "/api/v1/q?t={{a:=/.{2}/}}{{b:=/.*/}}"\n    }\n  }\n}\n\n'
                              f"> get {other}/q a=={{{{a}}}}\n{{{{*}}}}\n\n> get {other}/q b=={{{{b}}}}\n{{{{*}}}}\n", other)]:
            path = tmp_path / "steal.transcript"
            path.write_text(f"# explorer transcript v1\nprofile: {profile}\nbase-url: {base}\n\n{steps}\n> get /user\nHTTP/1.1 200 OK\n{{{{*}}}}\n")
            refused = run_explorer(["replay", str(path)], env=env, stdin=subprocess.DEVNULL, timeout=30)
            assert refused.returncode == 2, refused
            assert (f"sends {{{{secret:token}}}} (held in what the line sends) to {shown}, which is not the backend's origin "
                    f"(http://127.0.0.1:{local.server_address[1]})") in refused.stderr, refused
            assert elsewhere_seen == [] and frames == [], (elsewhere_seen, frames)
            assert "T0KEN" not in refused.stdout + refused.stderr
        # To the backend's own origin, through a variable, it goes.
        path.write_text(f"# explorer transcript v1\nprofile: {profile}\nbase-url: {base}\n\n> set k={{{{secret:token}}}}\n\n"
                        f"> get {base}/user X-A:{{{{k}}}}\nHTTP/1.1 200 OK\n{{{{*}}}}\n")
        sent = run_explorer(["replay", str(path)], env=env, stdin=subprocess.DEVNULL)
        assert sent.returncode == 0, sent
    finally:
        sockets.shutdown()


def test_a_profiles_headers_go_with_every_request_to_its_backend_alone(tmp_path, http_server):
    # Supabase's `apikey` beside its auth: typed as `header apikey:…` in each session, and dropped by `env`.
    seen = []
    Echo = header_recorder(seen, "apikey", "X-Client-Info")
    backend, other = http_server(Echo), http_server(Echo)
    profile = tmp_path / "supa.yaml"
    profile.write_text(f"explorer-profile: 1\nname: supa\nenvironments:\n  dev: {{base-url: \"http://127.0.0.1:{backend.server_address[1]}\"}}\n"
                       "headers:\n  apikey: \"{{secret:anon_key}}\"\n  X-Client-Info: explorer\n")
    env = isolated_env(tmp_path, EXPLORER_SECRET_ANON_KEY="anon-k3y-77")
    result = run_explorer(["--profile", str(profile), "-c", "get /a", "-c", f"get http://127.0.0.1:{other.server_address[1]}/b", "-c", "header"],
                          env=env, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result
    assert seen == [(backend.server_address[1], "anon-k3y-77", "explorer"), (other.server_address[1], None, None)], seen
    assert "anon-k3y-77" not in result.stdout + result.stderr and "apikey: <hidden: 11 characters>" in result.stdout, result.stdout


def test_curl_prints_a_profiles_headers_as_the_file_writes_them(tmp_path):
    # `X-Plain: "pre-{{secret:plainsec}}-post"` was `-H 'X-Plain: '"$X_PLAIN"`: its text lost, the variable named
    # after the header (the user's EXPLORER_SECRET_PLAINSEC is plainsec), so the command sent another header.
    profile = tmp_path / "shop.yaml"
    profile.write_text("explorer-profile: 1\nname: shop\nenvironments:\n  local: {base-url: \"http://127.0.0.1:9\"}\n"
                       "auth: {kind: bearer, token: \"{{secret:token}}\"}\n"
                       "headers:\n  apikey: \"{{secret:anon_key}}\"\n  X-Plain: \"pre-{{secret:plainsec}}-post\"\n")
    env = isolated_env(tmp_path, EXPLORER_SECRET_TOKEN="tokSECRETvalue1", EXPLORER_SECRET_ANON_KEY="anonSECRET22",
                       EXPLORER_SECRET_PLAINSEC="plainSECRETvalue42", EXPLORER_SECRET_T2="tok_AAAA1111bbbb")
    result = run_explorer(["--profile", str(profile), "-c", "get /echo --curl", "-c", "header X-Foo:'a-{{secret:t2}}-b'", "-c", "get /echo --curl"],
                          env=env, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result
    curls = [line for line in result.stdout.splitlines() if line.startswith("curl ")]
    assert len(curls) == 2, result.stdout
    assert "-H 'Authorization: Bearer '\"$TOKEN\" -H 'apikey: '\"$ANON_KEY\" -H 'X-Plain: pre-'\"$PLAINSEC\"'-post'" in curls[0], curls
    # A session header with a secret inside it: the text around kept, the secret its variable (it was `<hidden: …>`).
    assert curls[1].endswith("-H 'X-Foo: a-'\"$T2\"'-b'"), curls
    assert "SECRET" not in result.stdout + result.stderr and "1111" not in result.stdout


def test_a_replayed_secret_is_not_carried_by_a_redirect_to_another_origin(tmp_path, http_server):
    # `get /redir --follow X-A:{{secret:x}}`: the replay filled the secret in before the line was read, so a redirect to
    # another host carried the header, and a 307 the body, where the same line in a script dropped and refused them.
    seen = []

    class Other(QuietHandler):
        def do_GET(self):
            seen.append(dict(self.headers))
            self.reply(200, b"{}", [("Content-Type", "application/json")])
        do_POST = do_GET

    other = http_server(Other)
    target = f"http://localhost:{other.server_address[1]}/got"

    class Redirecting(QuietHandler):
        def do_GET(self):
            self.reply(307, b"", [("Location", target)])
        do_POST = do_GET

    base = f"http://127.0.0.1:{http_server(Redirecting).server_address[1]}"
    path = tmp_path / "follow.transcript"
    path.write_text(f"# explorer transcript v1\nprofile: generic\nbase-url: {base}\n\n"
                    "> get /redir --follow X-A:{{secret:x}}\nHTTP/1.1 200 OK\n{{*}}\n\n"
                    "> post /redir --follow note={{secret:x}}\nHTTP/1.1 200 OK\n{{*}}\n")
    env = isolated_env(tmp_path, EXPLORER_SECRET_X="S3KRIT-77")
    result = run_explorer(["replay", str(path)], env=env, stdin=subprocess.DEVNULL)
    assert len(seen) == 1 and "X-A" not in seen[0] and "S3KRIT-77" not in str(seen), seen
    assert "again to another origin" in result.stdout + result.stderr, result


def test_replay_in_the_repl_says_when_the_transcript_was_recorded_on_another_environment(two_backends, tmp_path):
    # A staging smoke test replayed in a session on local ran its writes there, unsaid.
    profile, (local, local_seen), (staging, staging_seen) = two_backends
    env = isolated_env(tmp_path, EXPLORER_SECRET_TOKEN="T0KEN")
    path = tmp_path / "smoke.transcript"
    path.write_text(f"# explorer transcript v1\nprofile: {profile}\nenv: staging\n"
                    f"base-url: http://127.0.0.1:{staging.server_address[1]}/api/v1\n\n> get /user\nHTTP/1.1 200 OK\n{{{{*}}}}\n")
    result = run_explorer(["--profile", str(profile), "-c", f"replay {path}"], env=env, stdin=subprocess.DEVNULL)
    assert f"note: {path} was recorded on staging; it runs in this session, on the default environment" in result.stderr, result.stderr
    assert local_seen and not staging_seen
    same = run_explorer(["--profile", str(profile), "--env", "staging", "-c", f"replay {path}"], env=env, stdin=subprocess.DEVNULL)
    assert "note:" not in same.stderr, same.stderr


def test_a_project_profile_that_hides_the_users_own_is_said(two_backends, tmp_path, http_server):
    # A cloned repository's .explorer/profiles/mine.yaml won over the user's, and took the token where it says, unsaid.
    profile, (local, local_seen), _ = two_backends
    user = tmp_path / "config" / "explorer" / "profiles"
    user.mkdir(parents=True)
    (user / "mine.yaml").write_text(profile.read_text())
    (user / "swagger.yaml").write_text((profile.parent / "swagger.yaml").read_text())
    project = tmp_path / "repo"
    (project / ".explorer" / "profiles").mkdir(parents=True)
    (project / ".explorer" / "profiles" / "mine.yaml").write_text(profile.read_text().replace("spec: swagger.yaml\n", ""))
    env = isolated_env(tmp_path, EXPLORER_SECRET_TOKEN="T0KEN")
    result = run_explorer(["--profile", "mine", "-c", "get /user"], env=env, cwd=project, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stderr
    assert f"warning: --profile mine is {project}/.explorer/profiles/mine.yaml, which hides your {user}/mine.yaml" in result.stderr, result.stderr
    alone = run_explorer(["--profile", "mine", "-c", "get /user"], env=env, cwd=tmp_path, stdin=subprocess.DEVNULL)
    assert "warning" not in alone.stderr, alone.stderr
    # A transcript in the project naming it: replay and test say so too.
    transcript = project / "t.transcript"
    transcript.write_text(f"# explorer transcript v1\nprofile: mine\nbase-url: http://127.0.0.1:{local.server_address[1]}/api/v1\n\n"
                          "> get /user\nHTTP/1.1 200 OK\n{{*}}\n")
    (project / "u.transcript").write_text(transcript.read_text())
    for command in (["replay", str(transcript)], ["test", str(project)]):
        replayed = run_explorer(command, env=env, cwd=tmp_path, stdin=subprocess.DEVNULL)
        said = f"profile mine is {project}/.explorer/profiles/mine.yaml, which hides your {user}/mine.yaml"
        assert replayed.stderr.count(said) == 1, replayed  # once a run, not once a transcript
    # One that sends elsewhere: refused (it got the user's EXPLORER_SECRET_LOCAL_TOKEN sent to the host it names).
    third, third_seen = backend(http_server, token="0THER")
    elsewhere = f"http://127.0.0.1:{third.server_address[1]}"
    (project / ".explorer" / "profiles" / "mine.yaml").write_text(
        profile.read_text().replace("spec: swagger.yaml\n", "").replace(f"http://127.0.0.1:{local.server_address[1]}", elsewhere))
    env["EXPLORER_SECRET_LOCAL_TOKEN"] = "0THER"
    refused = run_explorer(["--profile", "mine", "-c", "get /user"], env=env, cwd=project, stdin=subprocess.DEVNULL)
    assert refused.returncode == 2, refused
    assert (f"error: --profile mine is {project}/.explorer/profiles/mine.yaml, which hides your {user}/mine.yaml and would send your "
            f"secrets to {elsewhere} (as local), where yours does not") in refused.stderr, refused.stderr
    transcript.write_text(transcript.read_text().replace(f"http://127.0.0.1:{local.server_address[1]}", elsewhere))
    for command in (["replay", str(transcript)], ["test", str(transcript)]):
        replayed = run_explorer(command, env=env, cwd=tmp_path, stdin=subprocess.DEVNULL)
        assert replayed.returncode == 2, replayed
        assert f"would send your secrets to {elsewhere} (as local), where yours does not" in replayed.stdout + replayed.stderr, replayed
    assert third_seen == []
    # Named by its path, it is the user's choice.
    chosen = run_explorer(["--profile", f"{project}/.explorer/profiles/mine.yaml", "-c", "get /user"], env=env, cwd=project, stdin=subprocess.DEVNULL)
    assert chosen.returncode == 0 and third_seen[-1]["authorization"] == "token 0THER", chosen
    # The user's own hosts under each other's names: local's token went to the staging host.
    swapped = profile.read_text().replace("spec: swagger.yaml\n", "").replace("local:", "LOCAL:").replace("staging:", "local:").replace("LOCAL:", "staging:")
    (project / ".explorer" / "profiles" / "mine.yaml").write_text(swapped)
    refused = run_explorer(["--profile", "mine", "-c", "get /user"], env=env, cwd=project, stdin=subprocess.DEVNULL)
    assert refused.returncode == 2 and "(as local)" in refused.stderr and "(as staging)" in refused.stderr, refused.stderr
    # The same environments with another default: a bare `--profile mine` went to staging with the user's credential.
    (project / ".explorer" / "profiles" / "mine.yaml").write_text(
        profile.read_text().replace("spec: swagger.yaml\n", "").replace("environments:", "default-environment: staging\nenvironments:"))
    refused = run_explorer(["--profile", "mine", "-c", "get /user"], env=env, cwd=project, stdin=subprocess.DEVNULL)
    assert refused.returncode == 2, refused
    assert f"(as the default environment, staging, where yours is local)" in refused.stderr, refused.stderr
    # The user's own that does not read: nothing to compare, nothing assumed.
    (user / "mine.yaml").write_text(profile.read_text() + "colour: blue\n")
    (project / ".explorer" / "profiles" / "mine.yaml").write_text(profile.read_text().replace("spec: swagger.yaml\n", ""))
    refused = run_explorer(["--profile", "mine", "-c", "get /user"], env=env, cwd=project, stdin=subprocess.DEVNULL)
    assert refused.returncode == 2 and f"cannot be compared with it ({user}/mine.yaml:" in refused.stderr, refused.stderr
    assert "unknown field 'colour'" in refused.stderr, refused.stderr


def test_a_missing_secret_or_environment_is_one_line_and_nothing_is_sent(two_backends, tmp_path):
    profile, (local, local_seen), _ = two_backends
    no_token = run(["--profile", str(profile), "-c", "get /user"], tmp_path, token=None)
    assert no_token.returncode == 2
    assert no_token.stderr.strip() == ("error: My API needs {{secret:token}} for its Authorization header: "
                                       "set EXPLORER_SECRET_LOCAL_TOKEN (local's own) or EXPLORER_SECRET_TOKEN")
    no_env = run(["--profile", str(profile), "--env", "prod", "-c", "get /user"], tmp_path)
    assert no_env.returncode == 2
    assert no_env.stderr.strip() == f"error: {profile}: no environment 'prod'; there are local, staging"
    broken = tmp_path / "broken.yaml"
    broken.write_text("explorer-profile: 1\nname: b\nenvironments:\n  dev:\n    base_url: http://127.0.0.1:1\n")
    bad = run(["--profile", str(broken), "-c", "get /user"], tmp_path)
    assert bad.returncode == 2
    assert bad.stderr.strip() == f"error: {broken}:5: at $.environments.dev.base_url: unknown field 'base_url'; did you mean base-url?"
    assert local_seen == []


def test_profiles_are_found_by_name_and_listed(two_backends, tmp_path):
    profile, _, _ = two_backends
    folder = tmp_path / "config" / "explorer" / "profiles"
    folder.mkdir(parents=True)
    (folder / "mine.yaml").write_text(profile.read_text())
    # Its spec: goes with it, relative to the file.
    (folder / "swagger.yaml").write_text((profile.parent / "swagger.yaml").read_text())
    listed = run(["profiles"], tmp_path)
    assert listed.returncode == 0, listed.stderr
    line = next(l for l in listed.stdout.splitlines() if l.startswith("mine "))
    assert "My API: local*, staging" in line and f"user: {folder / 'mine.yaml'}" in line
    assert run(["--profile", "mine", "-c", "get /user"], tmp_path).returncode == 0
    unknown = run(["--profile", "nosuch", "-c", "vars"], tmp_path)
    assert unknown.returncode != 0 and "unknown profile 'nosuch'" in unknown.stderr
    # A typo of a built-in name: one line naming it, not the usage text under it.
    typo = run(["--profile", "link", "-c", "vars"], tmp_path)
    assert typo.returncode == 2 and typo.stderr.count("\n") == 1 and "did you mean linku?" in typo.stderr, typo.stderr


def test_at_a_terminal_the_secret_is_asked_for_without_echo_and_the_prompt_names_the_environment(two_backends, tmp_path):
    profile, _, (staging, staging_seen) = two_backends
    env = isolated_env(tmp_path, TERM="xterm")
    env.pop("EXPLORER_SECRET_TOKEN", None)
    child = pty_explorer(["--profile", str(profile), "--env", "staging"], env, timeout=15)
    try:
        child.expect_exact("token for My API (staging): ")
        child.sendline("0THER")
        child.expect_exact("mine staging> ")
        assert "0THER" not in child.before
        assert "My API, environment staging, at http://127.0.0.1:" in child.before
        assert "(also: local; --env NAME)" in child.before
        child.sendline("get /user")
        child.expect_exact("mine staging> ")
        assert '"login": "me"' in child.before
        assert staging_seen[-1]["authorization"] == "token 0THER"
        child.sendline("login")
        child.expect_exact("mine staging> ")
        assert "has no login: its profile sends the Authorization header" in child.before
        child.sendline("exit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    history = (tmp_path / "state" / "explorer" / "history").read_text()
    assert "0THER" not in history


def test_ctrl_c_at_the_start_up_secret_prompt_cancels_and_gives_the_terminal_back(two_backends, tmp_path):
    # Asked before the REPL installs its Ctrl-C handler, the prompt died by
    # SIGINT with echo still off: the user's shell typed blind afterwards.
    profile, _, _ = two_backends
    env = isolated_env(tmp_path, TERM="xterm")
    env.pop("EXPLORER_SECRET_TOKEN", None)
    child = pty_explorer(["--profile", str(profile), "-c", "get /user"], env, timeout=15)
    try:
        child.expect_exact("token for My API (local): ")
        assert not child.getecho()
        child.sendintr()
        child.expect(pexpect.EOF)
        assert child.getecho(), "echo is back on"
        child.close()
        assert child.signalstatus is None and child.exitstatus != 0, (child.signalstatus, child.exitstatus)
        assert "error:" in child.before and "EXPLORER_SECRET_TOKEN" in child.before, child.before
    finally:
        child.close(force=True)


def test_a_recording_names_the_profile_file_and_replays_against_another_environment(two_backends, tmp_path):
    profile, (local, _), (staging, staging_seen) = two_backends
    folder = tmp_path / "sessions"
    folder.mkdir()
    transcript = folder / "mine.transcript"
    recorded = run_explorer(["--profile", str(profile), "--record", str(transcript)], input="get /user\nget /nope\n",
                            env=isolated_env(tmp_path, EXPLORER_SECRET_TOKEN="T0KEN"), timeout=30)
    assert recorded.returncode == 3, recorded.stderr  # the 404 is an answer, recorded as such
    text = transcript.read_text()
    assert "profile: ../mine.yaml\n" in text
    assert "T0KEN" not in text
    # Green against the recorded environment, and against the other one with its own token.
    again = run(["replay", str(transcript)], tmp_path)
    assert again.returncode == 0, again.stdout + again.stderr
    elsewhere = run(["replay", "--env", "staging", str(transcript)], tmp_path, token="0THER")
    assert elsewhere.returncode == 0, elsewhere.stdout + elsewhere.stderr
    assert staging_seen[-1] == {"path": "/api/v1/nope", "authorization": "token 0THER"}
    # Without the secret: one line saying which variable to set, exit 3.
    missing = run(["replay", str(transcript)], tmp_path, token=None)
    assert missing.returncode == 3
    assert "set EXPLORER_SECRET_LOCAL_TOKEN (local's own) or EXPLORER_SECRET_TOKEN" in missing.stderr


def test_a_profile_named_from_a_project_is_written_as_a_path_where_a_replay_would_not_find_the_name(two_backends, tmp_path):
    # Recorded from a project into a folder outside it, the header said `profile: mine`, and no replay there found it.
    profile, _, _ = two_backends
    project = tmp_path / "app"
    (project / ".explorer" / "profiles").mkdir(parents=True)
    (project / ".explorer" / "profiles" / "mine.yaml").write_text(profile.read_text().replace("spec: swagger.yaml", "spec: ../../../swagger.yaml"))
    (project / "suite").mkdir()
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    env = isolated_env(tmp_path, EXPLORER_SECRET_TOKEN="T0KEN")
    for transcript in ["../elsewhere/out.transcript", "suite/in.transcript"]:
        recorded = run_explorer(["--profile", "mine", "--record", transcript, "-c", "get /user"], env=env, cwd=project, timeout=30)
        assert recorded.returncode == 0, recorded.stderr
    assert "profile: ../app/.explorer/profiles/mine.yaml\n" in (outside / "out.transcript").read_text()
    assert "profile: mine\n" in (project / "suite" / "in.transcript").read_text(), "found by name beside it: kept by name"
    replayed = run_explorer(["replay", "out.transcript"], env=env, cwd=outside, timeout=30)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr


def test_a_swagger_2_catalog_describes_the_backend(two_backends, tmp_path):
    # Issue 13: the profile's catalog is a Swagger 2.0 document; its paths sit
    # under the environment's /api/v1 without doubling it.
    profile, (local, local_seen), _ = two_backends
    listed = run(["--profile", str(profile), "-c", "endpoints"], tmp_path)
    assert "GET    /user" in listed.stdout and "GET    /repos" in listed.stdout, listed.stdout + listed.stderr
    described = run(["--profile", str(profile), "-c", "describe GET /user"], tmp_path)
    assert "login" in described.stdout and "enum (free|pro)" in described.stdout, described.stdout
    answered = run(["--profile", str(profile), "-c", "get /user"], tmp_path)
    assert answered.returncode == 0 and "drift" not in answered.stdout, answered.stdout
    assert local_seen[-1] == {"path": "/api/v1/user", "authorization": "token T0KEN"}


def test_a_query_parameter_credential_goes_to_its_origin_only_and_is_hidden(two_backends, tmp_path):
    _, (local, local_seen), (staging, staging_seen) = two_backends
    profile = tmp_path / "keyed.yaml"
    profile.write_text(f"""explorer-profile: 1
name: keyed
environments:
  local:
    base-url: http://127.0.0.1:{local.server_address[1]}
auth:
  kind: query
  parameter: api_key
  value: "{{{{secret:api_key}}}}"
""")
    env = isolated_env(tmp_path, EXPLORER_SECRET_API_KEY="k+1")
    def explorer(line):
        return run_explorer(["--profile", str(profile), "-c", line], env=env, stdin=subprocess.DEVNULL, timeout=30)
    shown = explorer("get /things page==2 -v")
    assert local_seen[-1]["path"] == "/things?page=2&api_key=k%2B1"
    assert "GET /things?page=2&api_key=<hidden: 3 characters> HTTP/1.1" in shown.stdout
    assert "k+1" not in shown.stdout + shown.stderr and "k%2B1" not in shown.stdout
    elsewhere = explorer(f"get http://127.0.0.1:{staging.server_address[1]}/things")
    assert staging_seen[-1]["path"] == "/things"
    assert "(the api_key parameter) not sent" in elsewhere.stdout
    curl = explorer("get /things --curl")
    assert '"$API_KEY"' in curl.stdout and "k+1" not in curl.stdout


def test_a_profile_that_cannot_be_used_says_why_in_one_line(tmp_path):
    folder = tmp_path / "folder.yaml"
    folder.mkdir()
    spec_missing = tmp_path / "s.yaml"
    spec_missing.write_text("explorer-profile: 1\nname: s\nenvironments:\n  l:\n    base-url: http://127.0.0.1:9\nspec: nope.yaml\n")
    cases = [
        (str(folder), f"error: {folder}: it is a directory"),
        (str(tmp_path / "absent.yaml"), f"error: {tmp_path / 'absent.yaml'}: no such file"),
        (str(spec_missing), f"error: {spec_missing}: spec: {tmp_path / 'nope.yaml'}: no such file"),
    ]
    for given, expected in cases:
        result = run(["--profile", given, "-c", "vars"], tmp_path)
        assert result.returncode == 2, (given, result.stderr)
        assert result.stderr.strip() == expected


def test_env_moves_the_session_to_another_environment_with_its_own_credential(two_backends, tmp_path):
    profile, (local, local_seen), (staging, staging_seen) = two_backends
    env = isolated_env(tmp_path, TERM="xterm")
    env.pop("EXPLORER_SECRET_TOKEN", None)
    child = pty_explorer(["--profile", str(profile), "--env", "staging"], env, timeout=15)
    try:
        child.expect_exact("token for My API (staging): ")
        child.sendline("0THER")
        child.expect_exact("mine staging> ")
        child.sendline("set city=Leeds")
        child.expect_exact("mine staging> ")
        # An empty answer is none: not moved, said as that (it said to set EXPLORER_SECRET_TOKEN).
        child.sendline("env local")
        child.expect_exact("token for My API (local): ")
        child.sendline("")
        child.expect_exact("mine staging> ")
        assert "not moved: no secret given for local; still on staging" in child.before, child.before
        child.send("env lo\t")
        child.expect_exact("cal ")  # TAB completed the environment's name
        child.sendline("")
        child.expect_exact("token for My API (local): ")  # each environment's secret is its own
        child.sendline("T0KEN")
        child.expect_exact("mine> ")
        assert f"now on local (http://127.0.0.1:{local.server_address[1]}/api/v1)" in child.before
        child.sendline("get /user")
        child.expect_exact("mine> ")
        assert local_seen[-1] == {"path": "/api/v1/user", "authorization": "token T0KEN"}
        child.sendline("env")
        child.expect_exact("mine> ")
        assert "* local" in child.before and "  staging" in child.before
        child.sendline("vars")
        child.expect_exact("mine> ")
        assert "city = Leeds" in child.before, "variables are kept"
        child.sendline("env nowhere")
        child.expect_exact("mine> ")
        assert "no environment 'nowhere'; there are local, staging" in child.before
        child.sendline(f"record {tmp_path / 'r.transcript'}")
        child.expect_exact("mine> ")
        child.sendline("env staging")
        child.expect_exact("mine> ")
        assert "a transcript runs against one environment" in child.before
        child.sendline("exit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert all(seen["authorization"] in (None, "token 0THER") for seen in staging_seen)


def test_a_built_in_profile_is_a_file_to_start_ones_own_from(tmp_path):
    env = isolated_env(tmp_path)
    shown = run_explorer(["profile", "show", "linku"], env=env, cwd=tmp_path)
    assert shown.returncode == 0 and shown.stdout.startswith("# LinkU")
    folder = tmp_path / ".explorer" / "profiles"
    folder.mkdir(parents=True)
    # Without the demo accounts: scripts/test fails on a demo password left on disk.
    mine = [line for line in shown.stdout.replace("name: linku\n", "name: mine\n").splitlines()
            if not line.startswith("demo-accounts:") and not line.startswith("  - {email:")]
    (folder / "mine.yaml").write_text("\n".join(mine) + "\n")
    # LinkU's catalog and login flow, against LinkU's dev deployment (printed, not sent).
    result = run_explorer(["--profile", "mine", "--offline", "-c", "endpoints", "-c", "post /api/tasks title=x price:=5"],
                          env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "POST   /api/secure-auth/login" in result.stdout
    assert "POST https://dev-api.link2ur.com/api/tasks" in result.stdout or "Host: dev-api.link2ur.com" in result.stdout
    # A file --profile would refuse is shown, and said unusable: a check before use exited 0.
    (folder / "broken.yaml").write_text("\n".join(mine).replace("kind: login", "kind: oauth") + "\n")
    broken = run_explorer(["profile", "show", "broken"], env=env, cwd=tmp_path)
    assert broken.returncode == 2 and "kind: oauth" in broken.stdout
    assert broken.stderr.startswith("error: " + str(folder / "broken.yaml") + ":") and broken.stderr.count("\n") == 1, broken.stderr
    assert "expected one of none, bearer, header, basic, query, login" in broken.stderr
    missing = run_explorer(["profile", "show", "nope"], env=env, cwd=tmp_path)
    assert missing.returncode == 2 and missing.stderr == "error: no profile 'nope'; there are levelup, linku, nova, posture, broken, mine\n"


def test_a_fifo_in_a_profiles_folder_is_said_to_be_no_file(tmp_path):
    # `explorer profiles`, `--profile fifo` and `profile show fifo` waited on it for ever.
    import os
    env = isolated_env(tmp_path)
    folder = tmp_path / ".explorer" / "profiles"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "fifo.yaml")
    listed = run_explorer(["profiles"], env=env, cwd=tmp_path, timeout=20)
    assert listed.returncode == 2 and "fifo" in listed.stdout and "not a regular file" in listed.stdout, listed
    used = run_explorer(["--profile", "fifo", "-c", "vars"], env=env, cwd=tmp_path, timeout=20)
    assert used.returncode == 2 and "not a regular file" in used.stderr, used


def test_profile_show_says_why_a_file_it_finds_is_unusable(tmp_path):
    # A directory, a dangling link, notes beside the profiles and `generic` were each "no profile NAME",
    # next to a list that named the first two.
    import os
    env = isolated_env(tmp_path)
    folder = tmp_path / ".explorer" / "profiles"
    folder.mkdir(parents=True)
    (folder / "dir.yaml").mkdir()
    os.symlink(tmp_path / "gone.yaml", folder / "dangle.yaml")
    (folder / "notes.yaml").write_text("just: notes\n")
    os.mkfifo(folder / "fifo.yaml")
    expected = {
        "dir": str(folder / "dir.yaml") + ": it is a directory",
        "dangle": str(folder / "dangle.yaml") + ": no such file",
        "notes": str(folder / "notes.yaml") + " is not a profile file (its first field is not explorer-profile: 1)",
        "fifo": str(folder / "fifo.yaml") + ": not a regular file (a FIFO, a device or a socket)",
        str(tmp_path / "absent.yaml"): str(tmp_path / "absent.yaml") + ": no such file",
    }
    for name, said in expected.items():
        shown = run_explorer(["profile", "show", name], env=env, cwd=tmp_path, timeout=20)
        assert (shown.returncode, shown.stdout, shown.stderr) == (2, "", "error: " + said + "\n"), (name, shown)
    generic = run_explorer(["profile", "show", "generic"], env=env, cwd=tmp_path)
    assert generic.returncode == 2 and generic.stdout == "" and "built in without a file" in generic.stderr
    assert "explorer profile init NAME --base-url URL" in generic.stderr and generic.stderr.count("\n") == 1


def test_a_file_that_is_no_profile_or_too_large_says_so_in_one_line(tmp_path):
    env = isolated_env(tmp_path)
    folder = tmp_path / ".explorer" / "profiles"
    folder.mkdir(parents=True)
    (folder / "notes.yaml").write_text("just: notes\n")
    notes = run_explorer(["--profile", "notes", "-c", "vars"], env=env, cwd=tmp_path)
    assert notes.returncode == 2
    assert notes.stderr == ("error: unknown profile 'notes': " + str(folder / "notes.yaml")
                            + " is not a profile file (its first field is not explorer-profile: 1)\n")
    huge = tmp_path / "huge.yaml"
    huge.write_text("explorer-profile: 1\nname: x\nenvironments: {a: {base-url: \"http://127.0.0.1:1\"}}\n" + "# padding\n" * 300_000)
    big = run_explorer(["--profile", str(huge), "-c", "vars"], env=env, cwd=tmp_path, timeout=20)
    assert big.returncode == 2 and "a profile file is at most 2 MiB" in big.stderr and big.stderr.count("\n") == 1


def test_a_socket_elsewhere_gets_the_profiles_header_and_needs_no_login(tmp_path, http_server):
    """An API key profile whose environment puts sockets on another port
    (websocket-url): ws connect opens the profile's path there, with the key,
    and no login."""
    import threading
    from websockets.sync.server import serve

    keys = []

    def handler(socket):
        keys.append((socket.request.path, socket.request.headers.get("X-Api-Key")))
        socket.send('{"hello": true}')
        for _ in socket:
            pass

    server = serve(handler, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        port = server.socket.getsockname()[1]
        (tmp_path / "rt.yaml").write_text(
            "explorer-profile: 1\nname: rt\nenvironments:\n"
            f"  local: {{base-url: \"http://127.0.0.1:9\", websocket-url: \"ws://127.0.0.1:{port}/rt\"}}\n"
            "auth: {kind: header, header: X-Api-Key, value: \"{{secret:key}}\"}\n"
            "websocket: {path: /events}\n")
        env = isolated_env(tmp_path)
        env["EXPLORER_SECRET_KEY"] = "k3y-s3cret"
        lines = "ws connect\nws recv\nws close\n"
        result = run_explorer(["--profile", str(tmp_path / "rt.yaml")], env=env, input=lines, cwd=tmp_path, timeout=30)
        assert result.returncode == 0, result.stderr
        assert '{"hello":true}' in result.stdout
        assert keys == [("/rt/events", "k3y-s3cret")]
        assert "k3y-s3cret" not in result.stdout + result.stderr
    finally:
        server.shutdown()


@contextlib.contextmanager
def two_socket_servers():
    """Two echoing WebSocket servers on 127.0.0.1: yields their ports and a
    list of (port, path) of each connection made, and `handled(count)`, which
    waits for that many: a handler runs in its server's thread after the
    handshake, which the client (and a process that exited) may have seen
    first."""
    import threading
    from websockets.sync.server import serve

    reached = []

    def handler(socket):
        # The port the client asked for: `local_address` reads a socket the client may have closed already.
        reached.append((int(socket.request.headers["Host"].rsplit(":", 1)[1]), socket.request.path))
        for message in socket:
            socket.send(message)

    def handled(count, timeout=5.0):
        deadline = time.monotonic() + timeout
        while len(reached) < count and time.monotonic() < deadline:
            time.sleep(0.02)

    servers = [serve(handler, "127.0.0.1", 0) for _ in range(2)]
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield [server.socket.getsockname()[1] for server in servers], reached, handled
    finally:
        for server in servers:
            server.shutdown()


def test_a_recording_of_a_socket_elsewhere_replays_against_another_environment(tmp_path):
    # The environment's websocket-url was written as it was ("connected to ws://…:PORT1/"),
    # and `replay --env two` failed on it though nothing differed.
    with two_socket_servers() as ((one, two), reached, handled):
        (tmp_path / "p.yaml").write_text(
            "explorer-profile: 1\nname: p\nenvironments:\n"
            f"  one: {{base-url: \"http://127.0.0.1:9\", websocket-url: \"ws://127.0.0.1:{one}\"}}\n"
            f"  two: {{base-url: \"http://127.0.0.1:8\", websocket-url: \"ws://127.0.0.1:{two}\"}}\n"
            "websocket: {path: /}\n")
        env = isolated_env(tmp_path)
        recorded = run_explorer(["--profile", "./p.yaml", "--record", "r.transcript", "-c", "ws connect", "-c", "ws close"],
                                env=env, cwd=tmp_path, timeout=30)
        assert recorded.returncode == 0, recorded.stderr
        text = (tmp_path / "r.transcript").read_text()
        assert "connected to {{ws_base_url}}/" in text and str(one) not in text, text
        for name in ["one", "two"]:
            replay = run_explorer(["replay", "r.transcript", "--env", name], env=env, cwd=tmp_path, timeout=30)
            assert replay.returncode == 0, replay.stdout + replay.stderr
            handled(2 if name == "one" else 3)
        assert [port for port, _ in reached] == [one, one, two], reached
        # --base-url puts the socket on its host, as in the REPL: it went to the environment's
        # websocket-url, carrying what the other server had handed out.
        replay = run_explorer(["replay", "r.transcript", "--base-url", f"http://127.0.0.1:{two}"], env=env, cwd=tmp_path, timeout=30)
        assert replay.returncode == 0, replay.stdout + replay.stderr
        handled(4)
        assert [port for port, _ in reached] == [one, one, two, two], reached


def test_a_socket_url_typed_in_full_on_the_socket_host_replays_on_the_other_environments(tmp_path):
    # `ws connect` alone said the profile had no WebSocket though the environment names its
    # websocket-url; a URL typed in full there was recorded whole, and `replay --env two` sent it
    # to environment one's host.
    with two_socket_servers() as ((one, two), reached, handled):
        (tmp_path / "p.yaml").write_text(
            "explorer-profile: 1\nname: p\nenvironments:\n"
            f"  one: {{base-url: \"http://127.0.0.1:9\", websocket-url: \"ws://127.0.0.1:{one}/rt\"}}\n"
            f"  two: {{base-url: \"http://127.0.0.1:8\", websocket-url: \"ws://127.0.0.1:{two}/rt\"}}\n")
        env = isolated_env(tmp_path)
        recorded = run_explorer(["--profile", "./p.yaml", "--record", "r.transcript", "-c", "ws connect", "-c", "ws close",
                                 "-c", f"ws connect ws://127.0.0.1:{one}/rt/room", "-c", "ws close"], env=env, cwd=tmp_path, timeout=30)
        assert recorded.returncode == 0, recorded.stderr
        text = (tmp_path / "r.transcript").read_text()
        assert "> ws connect /room\n" in text and str(one) not in text, text
        replay = run_explorer(["replay", "r.transcript", "--env", "two"], env=env, cwd=tmp_path, timeout=30)
        assert replay.returncode == 0, replay.stdout + replay.stderr
        handled(4)
        # Sorted: the two connections of a run may be counted in either order.
        assert sorted(reached) == sorted([(one, "/rt"), (one, "/rt/room"), (two, "/rt"), (two, "/rt/room")]), reached


def test_profiles_says_where_a_broken_file_is_wrong_and_which_files_are_hidden(tmp_path):
    env = isolated_env(tmp_path)
    project = tmp_path / ".explorer" / "profiles"
    user = tmp_path / "config" / "explorer" / "profiles"
    project.mkdir(parents=True)
    user.mkdir(parents=True)
    good = 'explorer-profile: 1\nname: shop\nenvironments:\n  a: {base-url: "http://127.0.0.1:1"}\n'
    (project / "shop.yaml").write_text(good)
    (user / "shop.yaml").write_text(good)
    (project / "linku.yaml").write_text(good.replace("name: shop", "name: linku"))
    (project / "broken.yaml").write_text(good.replace("base-url:", "heder: 1, base-url:"))
    listed = run_explorer(["profiles"], env=env, cwd=tmp_path)
    assert listed.returncode == 2
    assert "unusable: line 4: at $.environments.a.heder: unknown field 'heder'" in listed.stdout
    assert f"(hidden by the built-in one: --profile {project / 'linku.yaml'})" in listed.stdout
    assert f"{user / 'shop.yaml'} is hidden by the project's shop profile" in listed.stdout


def test_a_transcript_naming_a_missing_profile_file_or_environment_is_broken_not_a_runtime_failure(tmp_path):
    env = isolated_env(tmp_path)
    missing = tmp_path / "missing.transcript"
    missing.write_text("# explorer transcript v1\nprofile: ../nope/missing.yaml\nbase-url: http://127.0.0.1:9\n\n> get /x\nHTTP/1.1 200 OK\n\n")
    replayed = run_explorer(["replay", str(missing)], env=env, cwd=tmp_path)
    assert replayed.returncode == 2 and "missing.yaml: no such file" in replayed.stderr
    tested = run_explorer(["test", str(missing)], env=env, cwd=tmp_path)
    assert tested.stdout.startswith("BROKEN  ")
    (tmp_path / "p.yaml").write_text('explorer-profile: 1\nname: p\nenvironments:\n  a: {base-url: "http://127.0.0.1:9"}\n')
    named = tmp_path / "named.transcript"
    named.write_text("# explorer transcript v1\nprofile: p.yaml\nbase-url: http://127.0.0.1:9\n\n> get /x\nHTTP/1.1 200 OK\n\n")
    other = run_explorer(["replay", str(named), "--env", "nosuch"], env=env, cwd=tmp_path)
    assert other.returncode == 2 and "no environment 'nosuch'" in other.stderr
    # Said where it was named: --env has no line of the transcript's; an env: line is its own line, not profile:'s.
    assert f"{named}: --env nosuch: " in other.stderr and f"{named}:2:" not in other.stderr, other.stderr
    named.write_text("# explorer transcript v1\nprofile: p.yaml\nbase-url: http://127.0.0.1:9\nenv: nope\n\n> get /x\nHTTP/1.1 200 OK\n\n")
    header = run_explorer(["replay", str(named)], env=env, cwd=tmp_path)
    assert header.returncode == 2 and f"{named}:4:6: " in header.stderr and "no environment 'nope'" in header.stderr, header.stderr
    # env: under a built-in profile was taken without a word, where --env was refused.
    named.write_text("# explorer transcript v1\nprofile: generic\nbase-url: http://127.0.0.1:9\nenv: staging\n\n> get /x\nHTTP/1.1 200 OK\n\n")
    builtin = run_explorer(["replay", str(named)], env=env, cwd=tmp_path)
    assert builtin.returncode == 2 and f"{named}:4:6: env: staging picks an environment of a profile file" in builtin.stderr, builtin.stderr


def test_a_recording_names_a_profile_by_the_name_it_was_found_by(two_backends, tmp_path):
    # A file whose `name:` is not its file name was recorded under its
    # `name:`, which no lookup finds: replay said "unknown profile".
    profile, _, _ = two_backends
    folder = tmp_path / ".explorer" / "profiles"
    folder.mkdir(parents=True)
    (folder / "b7.yaml").write_text(profile.read_text().replace("spec: swagger.yaml\n", ""))  # says `name: mine`
    env = isolated_env(tmp_path, EXPLORER_SECRET_TOKEN="T0KEN")
    recorded = run_explorer(["--profile", "b7", "--record", "b7.transcript", "-c", "get /user"], env=env, cwd=tmp_path, timeout=30)
    assert recorded.returncode == 0, recorded.stderr
    assert "\nprofile: b7\n" in (tmp_path / "b7.transcript").read_text()
    replayed = run_explorer(["replay", "b7.transcript"], env=env, cwd=tmp_path, timeout=30)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr


def login_profile(tmp_path, server, name, base_path="", auth=""):
    """A profile file with a login flow (`auth` adds its fields) for `server`."""
    profile = tmp_path / f"{name}.yaml"
    profile.write_text(f"""explorer-profile: 1
name: {name}
environments:
  dev: {{base-url: "http://127.0.0.1:{server.server_address[1]}{base_path}"}}
auth:
  kind: login
  login-path: /auth/login
  refresh-path: /auth/refresh
  whoami-path: /me""" + (auth.rstrip("\n") if auth else "") + "\n")
    return profile


def test_tokens_at_the_fields_a_login_profile_names_are_never_shown_or_recorded(tmp_path, http_server):
    # Opaque tokens under names no rule calls secret (`access`, `refresh`)
    # were printed in the login's answer, by `show` and by `vars`.
    access, refresh = "acc_7ce5a1b2c3d4e5f60718", "ref_0617a1b2c3d4e5f60718"

    class Handler(QuietHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            body = {"data": {"tokens": {"access": access, "refresh": refresh}, "user": {"handle": "dev"}}}
            self.reply(200, json.dumps(body).encode(), [("Content-Type", "application/json")])

    profile = login_profile(tmp_path, http_server(Handler), "acme", base_path="/api", auth="""
  access-token: .data.tokens.access
  refresh-token: .data.tokens.refresh
  user: .data.user
  user-name: handle
  refreshed-access-token: .data.access
""")
    result = run_explorer(["--profile", str(profile), "--record", str(tmp_path / "login.transcript"),
                           "-c", "login dev@acme.test pw-123456", "-c", "show .data.tokens", "-c", "capture t = .data.tokens.access", "-c", "vars"],
                          env=isolated_env(tmp_path), stdin=subprocess.DEVNULL, timeout=30)
    said = result.stdout + result.stderr
    assert result.returncode == 0, said
    assert '"access": "<hidden: 24 characters>"' in said and "t = <hidden: 24 characters>" in said, said
    text = (tmp_path / "login.transcript").read_text()
    for token in (access, refresh):
        assert token not in said and token not in text, said + text


def test_a_recording_started_after_a_login_whose_answer_names_no_user_logs_in_on_replay(tmp_path, http_server):
    # The header's `login:` came from the user object's email only: a login
    # answer with a token alone gave none, and the replay was not logged in.
    class Handler(QuietHandler):
        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
            ok = body.get("password") == "pw-123456"
            self.reply(200 if ok else 401, json.dumps({"access_token": "tok-" + body.get("email", "")} if ok else {"message": "no"}).encode(),
                       [("Content-Type", "application/json")])

        def do_GET(self):
            ok = (self.headers.get("Authorization") or "").startswith("Bearer tok-")
            self.reply(200 if ok else 401, json.dumps({"me": ok}).encode(), [("Content-Type", "application/json")])

    profile = login_profile(tmp_path, http_server(Handler), "plain")
    env = isolated_env(tmp_path)
    result = run_explorer(["--profile", str(profile)], env=env, input="login dev@acme.test pw-123456\nrecord mid.transcript\nget /me\nrecord stop\n",
                          cwd=tmp_path, timeout=30)
    text = (tmp_path / "mid.transcript").read_text()
    assert "login: dev@acme.test\n" in text, result.stdout + result.stderr + text
    replay = run_explorer(["replay", "mid.transcript"], env={**env, "EXPLORER_SECRET_PASSWORD": "pw-123456"}, cwd=tmp_path, timeout=30)
    assert replay.returncode == 0, replay.stdout + replay.stderr + text


def test_a_header_login_the_server_refuses_with_the_password_in_its_message_does_not_show_it(tmp_path, http_server):
    # `login: EMAIL` in a transcript's header failed against a server whose
    # refusal quotes the password; the report and the JUnit file printed it.
    password = "S3cr3t-Passw0rd!"

    class Handler(QuietHandler):
        def do_POST(self):
            sent = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
            message = f"wrong password {sent.get('password')} for {sent.get('email')}"
            self.reply(401, json.dumps({"message": message}).encode(), [("Content-Type", "application/json")])

    profile = login_profile(tmp_path, http_server(Handler), "acme")
    transcript = tmp_path / "t.transcript"
    url = next(line.split('"')[1] for line in profile.read_text().splitlines() if "base-url" in line)
    transcript.write_text(f"# explorer transcript v1\nprofile: {profile.name}\nbase-url: {url}\n"
                          "login: carol@acme.test\n\n> get /me\nHTTP/1.1 200 OK\n")
    env = isolated_env(tmp_path, EXPLORER_SECRET_PASSWORD=password)
    report = run_explorer(["test", str(transcript), "--junit", str(tmp_path / "j.xml")], env=env, cwd=tmp_path)
    assert report.returncode == 3, report.stdout + report.stderr
    said = report.stdout + report.stderr
    assert f"{transcript}:4: the header says 'login: carol@acme.test', but logging in failed" in said, said
    assert "wrong password <hidden> for carol@acme.test" in said, said
    for where in (said, (tmp_path / "j.xml").read_text()):
        assert password not in where
    # `replay` at the prompt, as a script or in the REPL, said it in clear.
    inside = run_explorer(["--profile", str(profile), "-c", f"replay {transcript}"], env=env, cwd=tmp_path)
    assert "wrong password <hidden> for carol@acme.test" in inside.stdout + inside.stderr, inside.stdout + inside.stderr
    assert password not in inside.stdout + inside.stderr


def test_a_token_a_refresh_brought_is_hidden_where_a_recorded_answer_echoes_it(tmp_path, http_server):
    # The login's token was written as {{secret:access_token}}; the one a refresh brought, in clear.
    state = {"n": 1, "expired": False}

    class Handler(QuietHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if self.path in ("/auth/login", "/auth/refresh"):
                if self.path == "/auth/refresh":
                    state["n"] += 1
                    state["expired"] = False
                n = state["n"]
                body = {"access_token": f"opaque-access-{n}-q8w7e6r5", "refresh_token": f"opaque-refresh-{n}-z1x2c3v4", "user": {"email": "a@b.c"}}
                return self.reply(200, json.dumps(body).encode(), [("Content-Type", "application/json")])
            self.reply(404, b"{}", [("Content-Type", "application/json")])

        def do_GET(self):
            if self.path == "/expire":
                state["expired"] = True
                return self.reply(204, b"", [])
            sent = self.headers.get("Authorization", "")
            if state["expired"] and sent == f"Bearer opaque-access-{state['n']}-q8w7e6r5":
                return self.reply(401, b'{"message": "expired"}', [("Content-Type", "application/json")])
            self.reply(200, json.dumps({"you_sent": sent}).encode(), [("Content-Type", "application/json")])

    profile = login_profile(tmp_path, http_server(Handler), "echoing")
    transcript = tmp_path / "refresh.transcript"
    result = run_explorer(["--profile", str(profile), "--record", str(transcript), "-c", "login a@b.c pw-123456", "-c", "get /echo",
                           "-c", "get /expire", "-c", "get /echo"], env=isolated_env(tmp_path), cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "(access token refreshed; request retried)" in result.stdout, result.stdout
    text = transcript.read_text()
    assert "opaque-access" not in text and "opaque-refresh" not in text, text
    assert text.count('"you_sent": "Bearer {{secret:access_token}}"') == 2, text
    replayed = run_explorer(["replay", str(transcript)], env=isolated_env(tmp_path, EXPLORER_SECRET_PASSWORD="pw-123456"), cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr + text


def test_env_carries_the_session_headers_and_leaves_credentials_behind(http_server, tmp_path):
    # `header X-Team:blue` then `env b`: the header was gone, said nowhere (variables and defaults came along).
    seen = []
    Handler = header_recorder(seen, "X-Team", "X-Api-Key")
    a, b = http_server(Handler), http_server(Handler)
    two_environments(tmp_path / "two.yaml", a, b)
    lines = "header X-Team:blue\nheader X-Api-Key:k3y-s3cret\nget /x\nenv b\nget /x\nheader\n"
    result = run_explorer(["--profile", str(tmp_path / "two.yaml")], env=isolated_env(tmp_path), input=lines, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "the session's X-Api-Key stayed behind (credentials go to one server: set them here again)" in result.stderr, result.stderr
    assert seen == [(a.server_address[1], "blue", "k3y-s3cret"), (b.server_address[1], "blue", None)], seen
    assert "X-Team: blue" in result.stdout.split("{}")[-1], result.stdout

    # A header filled by a secret stays behind too, whatever its name: `X-Tenant` went to b's server.
    seen.clear()
    lines = "header X-Team:{{secret:tenant_key}}\nget /x\nenv b\nget /x\n"
    result = run_explorer(["--profile", str(tmp_path / "two.yaml")], env=isolated_env(tmp_path, EXPLORER_SECRET_TENANT_KEY="t3nant-S3CR"),
                          input=lines, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "the session's X-Team stayed behind" in result.stderr, result.stderr
    assert seen == [(a.server_address[1], "t3nant-S3CR", None), (b.server_address[1], None, None)], seen


def test_env_keeps_the_cookie_jar_each_cookie_for_its_own_origin(http_server, tmp_path):
    # A cookie-session login was gone after `env b` then `env a`, said nowhere: the next request was a 403.
    seen = []

    class Handler(QuietHandler):
        def do_GET(self):
            seen.append((self.server.server_address[1], self.headers.get("Cookie")))
            extra = [("Set-Cookie", "sessionid=s3ss10n-A; Path=/; HttpOnly")] if self.path == "/login" else []
            self.reply(200, b"{}", [("Content-Type", "application/json")] + extra)

    a, b = http_server(Handler), http_server(Handler)
    two_environments(tmp_path / "two.yaml", a, b)
    lines = "get /login\nenv b\nget /x\nenv a\nget /x\ncookies\n"
    result = run_explorer(["--profile", str(tmp_path / "two.yaml")], env=isolated_env(tmp_path), input=lines, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert seen == [(a.server_address[1], None), (b.server_address[1], None), (a.server_address[1], "sessionid=s3ss10n-A")], seen
    assert f"sessionid=<hidden: 9 characters>  127.0.0.1:{a.server_address[1]}, path /, httponly, for the session" in result.stdout, result.stdout


def test_a_login_answered_by_a_redirect_fails_and_says_the_cookie_it_set_is_kept(tmp_path, http_server):
    # Django's and Rails' login answers 302 to /dashboard with a session cookie: `login` showed the 302
    # and exited 0, said nothing, and `whoami` then said "not logged in".
    class Login(QuietHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.reply(302, b"", [("Location", "/dashboard"), ("Set-Cookie", "sessionid=s3ss10n-A; Path=/; HttpOnly")])

    server = http_server(Login)
    profile = tmp_path / "django.yaml"
    profile.write_text(f"explorer-profile: 1\nname: django\nenvironments:\n  dev: {{base-url: \"http://127.0.0.1:{server.server_address[1]}\"}}\n"
                       "auth: {kind: login, login-path: /login, login-body: form, email-field: username, whoami-path: /me}\n")
    result = run_explorer(["--profile", str(profile), "-c", "login alice S3cretPassw0rd"], env=isolated_env(tmp_path), cwd=tmp_path)
    assert result.returncode == 3, result
    assert ("error: the login answered 302 Found to /dashboard, not a token at .access_token (the cookie it set goes with the next "
            "requests: cookies lists it): not logged in") in result.stderr, result.stderr
    assert "S3cretPassw0rd" not in result.stdout + result.stderr and "s3ss10n-A" not in result.stdout + result.stderr


def test_env_says_whether_a_login_was_kept_for_the_environment_it_moves_to(tmp_path, http_server):
    """`env NAME` said "logged out there unless a login for it was kept",
    where it knows which: a login kept for that environment is named."""

    class Login(QuietHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            body = {"access_token": "ACCESS-TOKEN-1", "refresh_token": "REFRESH-TOKEN-1", "user": {"name": "ann"}}
            self.reply(200, json.dumps(body).encode(), [("Content-Type", "application/json")])

    one, two = http_server(Login), http_server(Login)
    profile = tmp_path / "flow.yaml"
    profile.write_text(f"""explorer-profile: 1
name: flow
environments:
  one: {{base-url: "http://127.0.0.1:{one.server_address[1]}"}}
  two: {{base-url: "http://127.0.0.1:{two.server_address[1]}"}}
auth: {{kind: login, login-path: /login, refresh-path: /refresh, whoami-path: /me, user-name: name}}
""")
    env = isolated_env(tmp_path)
    env["EXPLORER_SECRET_PASSWORD"] = "pw"
    logged = run_explorer(["--profile", str(profile), "--env", "one", "-c", "login a@b.c {{secret:password}}"], env=env, cwd=tmp_path)
    assert logged.returncode == 0 and "logged in as ann" in logged.stdout, logged.stderr
    moved = run_explorer(["--profile", str(profile), "--env", "one"], input="env two\nenv one\n", env=env, cwd=tmp_path)
    assert f"now on two (http://127.0.0.1:{two.server_address[1]}); not logged in there\n" in moved.stderr, moved.stderr
    assert f"now on one (http://127.0.0.1:{one.server_address[1]}); logged in there as ann (kept from before)\n" in moved.stderr


def test_an_oauth2_password_grant_logs_in_and_refreshes_with_forms(tmp_path, http_server):
    """A token endpoint as FastAPI's OAuth2PasswordRequestForm and Keycloak
    take it: form fields with a grant_type; a JSON login was all a profile
    could describe."""
    seen = []
    issued = {"n": 0}

    class TokenEndpoint(QuietHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
            seen.append((self.headers.get("Content-Type"), body))
            form = dict(pair.split("=", 1) for pair in body.split("&"))
            if form.get("grant_type") == "password" and form.get("password") != "s3cret-pw":
                error = {"error": "invalid_grant", "error_description": "Invalid user credentials"}
                return self.reply(400, json.dumps(error).encode(), [("Content-Type", "application/json")])
            issued["n"] += 1
            n = issued["n"]
            tokens = {"access_token": f"ACCESS-{n}-abcdef", "token_type": "bearer", "refresh_token": f"REFRESH-{n}-abcdef"}
            self.reply(200, json.dumps(tokens).encode(), [("Content-Type", "application/json")])

        def do_GET(self):
            # The first token expires at once: the second is the one that works.
            if self.headers.get("Authorization") == "Bearer ACCESS-2-abcdef":
                return self.reply(200, b'{"username": "ann"}', [("Content-Type", "application/json")])
            self.reply(401, b'{"detail": "Could not validate credentials"}', [("Content-Type", "application/json")])

    server = http_server(TokenEndpoint)
    profile = tmp_path / "oauth.yaml"
    profile.write_text(f"""explorer-profile: 1
name: oauth
environments:
  local: {{base-url: "http://127.0.0.1:{server.server_address[1]}"}}
auth:
  kind: login
  login-path: /token
  login-body: form
  email-field: username
  login-fields: {{grant_type: password, client_id: app}}
  refresh-path: /token
  refresh-fields: {{grant_type: refresh_token, client_id: app}}
  whoami-path: /users/me
""")
    env = isolated_env(tmp_path)
    env["EXPLORER_SECRET_PASSWORD"] = "wrong-pw"
    refused = run_explorer(["--profile", str(profile), "-c", "login ann {{secret:password}}"], env=env, cwd=tmp_path)
    assert refused.returncode == 3 and "error: 400 invalid_grant: Invalid user credentials" in refused.stderr, refused.stderr
    env["EXPLORER_SECRET_PASSWORD"] = "s3cret-pw"
    result = run_explorer(["--profile", str(profile), "-c", "login ann {{secret:password}}", "-c", "whoami"], env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "logged in as ann" in result.stdout and "(access token refreshed; request retried)" in result.stdout
    assert '"username": "ann"' in result.stdout
    form = "application/x-www-form-urlencoded; charset=utf-8"
    assert seen[1:] == [(form, "grant_type=password&client_id=app&username=ann&password=s3cret-pw"),
                        (form, "grant_type=refresh_token&client_id=app&refresh_token=REFRESH-1-abcdef")]
    assert "s3cret-pw" not in result.stdout + result.stderr
