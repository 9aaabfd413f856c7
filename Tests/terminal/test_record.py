"""Recording a session into a transcript survives SIGKILL and holds no secret.

`explorer --record FILE` records from the first line. The REPL test kills
the process with SIGKILL mid-session, then replays the file against a fresh
sandbox: every step written before the kill must parse and pass, and the file
must hold neither the password typed at the prompt nor any token.
"""
import json
import os
import re
import resource
import signal
import subprocess
import time

import pexpect

from support import BINARY, ROOT, Explorer, QuietHandler, base_url, isolated_env, pty_explorer, run_explorer


def environment(tmp_path):
    return isolated_env(tmp_path, TERM="xterm")


def explorer(args, tmp_path, stdin=None):
    return run_explorer(args, env=environment(tmp_path), input=stdin, cwd=tmp_path)


def assert_no_secret(text):
    assert "alice123" not in text
    assert "bob12345" not in text
    assert "eyJ" not in text, "something shaped like a JWT was written"


def test_sigkill_while_recording_leaves_a_transcript_that_replays(tmp_path):
    transcript = tmp_path / "session.transcript"
    child = pty_explorer(["--record", str(transcript)], environment(tmp_path), timeout=15)
    try:
        child.expect_exact("linku> ")
        child.sendline("# Alice logs in; the password is asked for.")
        child.expect_exact("linku> ")
        child.sendline("login alice@example.com")
        child.expect_exact("password:")
        child.sendline("alice123")
        child.expect_exact("linku alice> ")
        child.sendline("get /api/tasks page_size==2 city==Manchester")
        child.expect_exact("linku alice> ")
        child.sendline("post /api/tasks title='Fix my bike' price:=25 city=Leeds")
        child.expect_exact("linku alice> ")
        child.sendline("capture task_id = .id")
        child.expect_exact("linku alice> ")
        child.sendline("get /api/tasks/{{task_id}}")
        child.expect_exact("linku alice> ")
        child.sendline("record status")
        child.expect_exact(f"recording to {transcript}: 5 steps so far")
        child.expect_exact("linku alice> ")
        # One more request, and no waiting for it: the kill may land while it is in flight.
        child.sendline("get /api/tasks page==2")
        os.kill(child.pid, signal.SIGKILL)
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)

    text = transcript.read_text()
    assert text.startswith("# explorer transcript v1\nprofile: linku\nbase-url: sandbox\n")
    assert "# Alice logs in; the password is asked for.\n> login alice@example.com {{secret:password}}\n" in text
    assert "> get /api/tasks/{{task_id}}\n" in text
    assert_no_secret(text)

    replay = explorer(["replay", str(transcript)], tmp_path)
    assert replay.returncode == 0, replay.stdout + replay.stderr
    assert "FAIL" not in replay.stdout
    assert " 0 failed\n" in replay.stdout
    assert_no_secret(replay.stdout + replay.stderr)


def test_every_way_in_records_and_the_suite_runs_them(tmp_path):
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    script = tmp_path / "setup.txt"
    script.write_text("# Bob reads a task.\nlogin bob@example.com bob12345\nget /api/tasks/4\n")
    results = [
        explorer(["--record", str(sessions / "one-line.transcript"), "-c", "get /api/tasks"], tmp_path),
        explorer(["run", "--record", str(sessions / "run.transcript"), str(script)], tmp_path),
        explorer(["--record", str(sessions / "stdin.transcript")], tmp_path,
                 stdin="login alice@example.com alice123\nwhoami\nlogin alice@example.com wrong-one\n"),
    ]
    # The script holds a password in clear: scripts/test fails on any secret the suite leaves on disk.
    script.unlink()
    # The one-liner is a 401 (not logged in) and the last piped line a refused login: exit status 3.
    assert [r.returncode for r in results] == [3, 0, 3], [r.stderr for r in results]
    assert "# Bob reads a task.\n> login bob@example.com {{secret:password}}\n" in (sessions / "run.transcript").read_text()
    assert "> login alice@example.com {{secret:wrong_password}}\n" in (sessions / "stdin.transcript").read_text()
    for path in sessions.iterdir():
        assert_no_secret(path.read_text())

    suite = explorer(["test", "--junit", str(tmp_path / "junit.xml")], tmp_path)
    assert suite.returncode == 0, suite.stdout + suite.stderr
    assert suite.stdout.splitlines()[-1] == "3 passed, 0 failed"
    assert "<testsuites name=\"explorer test\"" in (tmp_path / "junit.xml").read_text()
    # A report's folder is made, as pytest's --junitxml makes it; a folder named as the report is said
    # before the suite runs (it ran, then said "NSCocoaErrorDomain error 512").
    suite = explorer(["test", "--junit", str(tmp_path / "reports" / "ci" / "junit.xml")], tmp_path)
    assert suite.returncode == 0 and (tmp_path / "reports" / "ci" / "junit.xml").exists(), suite.stdout + suite.stderr
    suite = explorer(["test", "--junit", str(tmp_path / "reports")], tmp_path)
    assert (suite.returncode, suite.stdout) == (64, ""), suite.stdout + suite.stderr
    assert suite.stderr == f"error: cannot write --junit {tmp_path / 'reports'}: it is a folder: name a file in it (--junit {tmp_path / 'reports' / 'report.xml'})\n"
    # Nor over a transcript the suite runs (it was overwritten, and BROKEN the next time).
    kept = (sessions / "run.transcript").read_text()
    suite = explorer(["test", "--junit", os.path.join("sessions", "run.transcript")], tmp_path)
    assert suite.returncode == 64 and "it is one of the transcripts under test" in suite.stderr, suite.stdout + suite.stderr
    assert (sessions / "run.transcript").read_text() == kept
    # Nor through a link to one, symbolic or hard (the link's path differs), nor in a "folder" that is a file.
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "report.xml").symlink_to(sessions / "run.transcript")
    os.link(sessions / "run.transcript", tmp_path / "out" / "hard.xml")
    for name in ("report.xml", "hard.xml"):
        suite = explorer(["test", "--junit", str(tmp_path / "out" / name)], tmp_path)
        assert suite.returncode == 64 and "it is one of the transcripts under test" in suite.stderr, suite.stdout + suite.stderr
        assert (sessions / "run.transcript").read_text() == kept
    (tmp_path / "afile").write_text("")
    suite = explorer(["test", "--junit", str(tmp_path / "afile" / "report.xml")], tmp_path)
    assert (suite.returncode, suite.stdout) == (64, ""), suite.stdout + suite.stderr
    assert suite.stderr == f"error: cannot write --junit {tmp_path / 'afile' / 'report.xml'}: {tmp_path / 'afile'} is a file, not a folder\n"

    # A broken transcript is one line, exit status 2, and the others still run.
    (sessions / "broken.transcript").write_text("# explorer transcript v1\nprofile: linku\nbase-url: nowhere\n")
    suite = explorer(["test"], tmp_path)
    assert suite.returncode == 2
    assert f"BROKEN  {os.path.join('sessions', 'broken.transcript')}:3:11: 'base-url:' is 'sandbox' or an http:// or https:// URL, not 'nowhere'" in suite.stdout
    assert suite.stdout.splitlines()[-1] == "3 passed, 0 failed, 1 broken"
    # Outside a project: what to do, not "BROKEN  sessions: no such file".
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    suite = explorer(["test"], elsewhere)
    assert (suite.returncode, suite.stdout) == (2, ""), suite.stdout + suite.stderr
    assert suite.stderr == "error: no sessions/ folder here: name the transcripts or folders to run (explorer test DIR)\n"


def test_record_says_a_missing_folder_and_a_name_test_will_not_find(tmp_path):
    # "No such file or directory" of a file about to be made; `record my` taken, and never found by `explorer test`.
    result = explorer([], tmp_path, stdin="record nope/s1.transcript\nrecord mine\nrecord stop\n")
    assert "error: cannot record to nope/s1.transcript: there is no folder nope (make it first: mkdir -p nope)" in result.stderr, result.stderr
    assert "recording to mine (explorer test and tour look for *.transcript files: this one is not found by them)" in result.stdout, result.stdout


def test_recording_refuses_a_file_that_has_content(tmp_path):
    existing = tmp_path / "notes.transcript"
    existing.write_text("keep me\n")
    result = explorer(["--record", str(existing), "-c", "get /api/tasks"], tmp_path)
    # One line, not the usage text under it (exit 64); the status a file that cannot be written gets.
    assert result.returncode == 3
    assert result.stderr == f"error: {existing} already exists and is not empty; record into a new file\n", result.stderr
    assert existing.read_text() == "keep me\n"


def test_recording_refuses_a_named_pipe_and_a_link(tmp_path):
    # `--record` to a named pipe waited for a reader: the session hung before its first line.
    os.mkfifo(tmp_path / "pipe.transcript")
    (tmp_path / "link.transcript").symlink_to(tmp_path / "elsewhere.transcript")
    for name, kind in [("pipe.transcript", "a named pipe"), ("link.transcript", "a symbolic link")]:
        result = run_explorer(["--record", name, "-c", "get /api/tasks"], env=environment(tmp_path), cwd=tmp_path, timeout=20)
        assert result.returncode == 3
        assert result.stderr == f"error: cannot record to {name}: {kind}, not a file; record into a new file\n", result.stderr
    assert not (tmp_path / "elsewhere.transcript").exists()


def recording_piped(tmp_path, name, meanwhile, after):
    """Piped lines record one step into `name`; once it is written, `meanwhile(path)` runs,
    then the lines `after`. Returns the process, its output and its errors."""
    path = tmp_path / name
    run = subprocess.Popen([BINARY], env=environment(tmp_path), cwd=tmp_path, stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    run.stdin.write(f"record {name}\nget /api/forum/posts\n")
    run.stdin.flush()
    deadline = time.time() + 30
    while "> get /api/forum/posts" not in (path.read_text() if path.exists() else "") and time.time() < deadline:
        time.sleep(0.05)
    meanwhile(path)
    out, err = run.communicate(after, timeout=30)
    return run, out, err


def test_a_transcript_moved_while_recording_is_named_where_it_went(tmp_path):
    # `record stop` said "recorded 2 steps to d4.transcript", a path that no longer held them.
    moved = tmp_path / "moved.transcript"
    _, out, err = recording_piped(tmp_path, "d4.transcript", lambda path: path.rename(moved), "get /api/forum/posts\nrecord stop\n")
    assert f"recorded 2 steps to {moved} (moved there from d4.transcript while recording)" in out, out + err
    assert moved.read_text().count("> get /api/forum/posts") == 2


def test_a_header_variable_without_its_secret_names_its_line(tmp_path):
    # It said "FILE: the header needs a secret: …", the line left to be found.
    path = tmp_path / "v.transcript"
    path.write_text("# explorer transcript v1\nprofile: linku\nbase-url: sandbox\n# the team's key\nvar: tok={{secret:api_token}}\n\n"
                    "> get /api/forum/posts\nHTTP/1.1 200 OK\n")
    result = run_explorer(["replay", str(path)], env=environment(tmp_path), cwd=tmp_path, input="")
    assert result.returncode == 3
    assert f"error: {path}:5: no value for {{{{secret:api_token}}}}: set EXPLORER_SECRET_API_TOKEN" in result.stderr, result.stderr


def test_a_transcript_deleted_while_recording_is_said_lost(tmp_path):
    # `record stop` said "recorded 2 steps to r.transcript" of a file deleted meanwhile.
    path = tmp_path / "r.transcript"
    for after in ["get /api/forum/posts\nrecord stop\n", "record stop\n"]:
        run, out, err = recording_piped(tmp_path, "r.transcript", lambda path: path.unlink(), after)
        assert "r.transcript was deleted while recording: nothing was kept" in err, err
        assert "recorded" not in out, out
        assert run.returncode == 3
    # At the REPL too: `record status` says so, and leaving fails the session (it exited 0).
    env = dict(environment(tmp_path), HOME=str(tmp_path))
    x = Explorer(["--record", str(path)], env)
    x.expect("> ")
    x.run("get /api/forum/posts -h")
    path.unlink()
    assert "was deleted while recording: nothing was kept" in x.run("record status")
    x.send("\x04")
    assert x.expect_exit() == 3


def test_test_with_jobs_and_update_rewrites_only_what_differs(tmp_path):
    """`explorer test --jobs N --update` as CI would type it: the flags
    together, on a folder where one transcript of three differs."""
    suite = tmp_path / "suite"
    suite.mkdir()
    names = ["create-task", "login", "chat"]
    originals = {}
    for name in names:
        text = (ROOT / "sessions" / "linku" / f"{name}.transcript").read_text()
        originals[name] = text
        (suite / f"{name}.transcript").write_text(text)
    edited = originals["chat"].replace('"content": "I can come at 10."\n}\n← {', '"content": "I can come at 11."\n}\n← {')
    assert edited != originals["chat"]
    (suite / "chat.transcript").write_text(edited)

    result = explorer(["test", "--jobs", "3", "--update", str(suite)], tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1] == "2 passed, 1 updated, 0 failed"
    assert f"UPDATED {suite / 'chat.transcript'}" in result.stdout
    line = next(n for n, text in enumerate(originals["chat"].splitlines(), 1) if text.startswith("> ws send") and "I can come at 10." in text)
    assert f"rewrote {suite / 'chat.transcript'}: new expectations for the step at line {line}" in result.stdout
    # Only the frame that differed was rewritten; the others are as they were, byte for byte.
    assert (suite / "chat.transcript").read_text() == originals["chat"]
    for name in ["create-task", "login"]:
        assert (suite / f"{name}.transcript").read_text() == originals[name]
    again = explorer(["test", "--jobs", "3", str(suite)], tmp_path)
    assert again.returncode == 0 and again.stdout.splitlines()[-1] == "3 passed, 0 failed"


def test_a_replay_inside_a_recording_is_recorded_step_by_step(tmp_path):
    """`replay FILE` while recording writes its steps as if typed, frames
    under the step they came with: the lines after it depend on what it made,
    and the recording must replay on a fresh sandbox (it was left out, so it
    failed with a 404)."""
    transcript = tmp_path / "after-replay.transcript"
    chat = ROOT / "sessions" / "linku" / "chat.transcript"
    result = explorer(["--record", str(transcript)], tmp_path, stdin=f"replay {chat}\nget /api/tasks/1\n")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "12 steps: 12 passed, 0 failed" in result.stdout
    text = transcript.read_text()
    assert "> replay" not in text and "\n> ws connect" in text and text.rstrip().endswith("}")
    assert text.index("\n> get /api/tasks/1\n") > text.rindex("←"), "no frame lands under the next typed step"
    assert_no_secret(text)
    again = explorer(["replay", str(transcript)], tmp_path)
    assert again.returncode == 0, again.stdout + again.stderr


class FreshIds(QuietHandler):
    """Each created thing gets a new random id, as a shared backend's does."""

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        body = json.dumps({"id": int.from_bytes(os.urandom(3), "big"), "name": "apple"}).encode()
        self.send_response(201)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def test_a_replay_inside_a_recording_passes_what_explorer_replay_passes(http_server, tmp_path):
    # While recording, the REPL's replay compared the id a later line captures as recorded, and failed
    # on the server's fresh one: `explorer replay` and a replay without recording expect one of its kind.
    base = base_url(http_server(FreshIds))
    (tmp_path / "s.txt").write_text("post /things name=apple\ncapture item_id = .id\n")
    made = explorer(["--base-url", base, "--record", "t.transcript", "run", "s.txt"], tmp_path)
    assert made.returncode == 0, made.stdout + made.stderr
    for args in (["replay", "t.transcript"], ["--base-url", base, "-c", "replay t.transcript"],
                 ["--base-url", base, "--record", "again.transcript", "-c", "replay t.transcript"]):
        result = explorer(args, tmp_path)
        assert result.returncode == 0 and "2 steps: 2 passed, 0 failed" in result.stdout, (args, result.stdout, result.stderr)


def test_a_secret_placeholder_typed_at_the_prompt_is_asked_for_without_echo(tmp_path):
    """`{{secret:NAME}}` typed at the prompt: the demo password fills a tour's
    login line as it is; a name no rule fills is asked for, not echoed, and
    the recording keeps the placeholder, never the value (issue 11, #22)."""
    transcript = tmp_path / "typed.transcript"
    child = pty_explorer(["--record", str(transcript)], environment(tmp_path), timeout=15)
    try:
        child.expect_exact("linku> ")
        child.sendline("login alice@example.com {{secret:password}}")
        child.expect_exact("logged in as alice")
        child.expect_exact("linku alice> ")
        child.sendline("set api_key={{secret:api_key}}")
        child.expect_exact("api_key: ")
        child.sendline("k-9f2e77a1")
        child.expect_exact("linku alice> ")
        assert "k-9f2e77a1" not in child.before
        child.sendline("exit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    text = transcript.read_text()
    assert "> login alice@example.com {{secret:password}}\nHTTP/1.1 200 OK\n" in text
    assert "> set api_key={{secret:api_key}}\n" in text
    assert "k-9f2e77a1" not in text
    assert_no_secret(text)


SECRET_TRANSCRIPT = """# explorer transcript v1
profile: linku
base-url: sandbox

> login alice@example.com {{secret:alice_pw}}
HTTP/1.1 200 OK
Content-Type: application/json; charset=utf-8
{
  "access_token": "{{secret:access_token}}",
  "refresh_token": "{{secret:refresh_token}}",
  "token_type": "bearer",
  "expires_in": 900,
  "user": {"id": 1, "email": "alice@example.com", "username": "alice", "phone": "{{*}}", "avatar": null,
           "bio": "{{*}}", "city": "Manchester", "created_at": "{{timestamp}}"}
}
note: logged in as alice
"""


def test_replay_at_a_terminal_asks_for_a_secret_the_environment_lacks(tmp_path, env):
    # Issue 11 #21/#22: a transcript's {{secret:NAME}} needed EXPLORER_SECRET_NAME
    # to replay, while the REPL asks for it: at a terminal, replay asks too
    # (without echo, once); a script still gets one line naming the variable.
    transcript = tmp_path / "alice.transcript"
    transcript.write_text(SECRET_TRANSCRIPT)
    x = Explorer(["replay", str(transcript)], env)
    x.expect("{{secret:alice_pw}} for alice.transcript (EXPLORER_SECRET_ALICE_PW is not set): ")
    x.wait_for_secret_mode()
    x.child.send("alice123\r")
    out = x.expect("1 passed")
    assert "alice123" not in x.transcript, "the secret is neither echoed nor reported"
    assert x.expect_exit() == 0, out
    piped = run_explorer(["replay", str(transcript)], env=env, stdin=subprocess.DEVNULL)
    assert piped.returncode == 3, piped.stdout + piped.stderr
    assert "no value for {{secret:alice_pw}}: set EXPLORER_SECRET_ALICE_PW" in piped.stdout + piped.stderr
    # Enter alone is no answer: it went out as an empty password, and the steps failed (exit 4).
    x = Explorer(["replay", str(transcript)], env)
    x.expect("{{secret:alice_pw}} for alice.transcript (EXPLORER_SECRET_ALICE_PW is not set): ")
    x.wait_for_secret_mode()
    x.child.send("\r")
    x.expect("no value for {{secret:alice_pw}}: set EXPLORER_SECRET_ALICE_PW")
    assert x.expect_exit() == 3


class OpaqueTokens(QuietHandler):
    """POST /login answers an opaque token one character longer each time."""
    issued = 0

    def do_POST(self):
        OpaqueTokens.issued += 1
        body = json.dumps({"session_token": "sess-tok-" + "x" * (10 + OpaqueTokens.issued), "user": "al"}).encode()
        self.reply(200, body, [("Content-Type", "application/json")])


def test_a_token_shown_or_captured_stays_hidden_and_vars_replays_with_another(tmp_path, http_server):
    """show and capture of an opaque token print it hidden, as the body does;
    vars in a transcript writes <hidden>, not the length of this session's
    token, so a replay that gets a token of another length passes."""
    base = base_url(http_server(OpaqueTokens))
    path = tmp_path / "token.transcript"
    lines = "post /login\nshow .session_token\ncapture session_token = .session_token\nvars\n"
    recorded = explorer(["--base-url", base, "--record", str(path)], tmp_path, stdin=lines)
    assert recorded.returncode == 0, recorded.stderr
    assert "sess-tok-" not in recorded.stdout + recorded.stderr
    assert recorded.stdout.count('"<hidden: 20 characters>"') == 3, recorded.stdout
    text = path.read_text()
    assert "sess-tok-" not in text
    assert "session_token = <hidden>\n" in text
    replayed = explorer(["replay", str(path), "--base-url", base], tmp_path)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr


def test_a_variable_captured_from_a_secret_is_hidden_by_vars_whatever_its_name(tmp_path, http_server):
    # `capture t = .session_token` then `vars` printed the token in clear:
    # `t` is no secret's name, and an opaque token has no credential's shape.
    base = base_url(http_server(OpaqueTokens))
    lines = "post /login\ncapture t = .session_token\ncapture who = .user\nvars\nset t=plain\nvars\n"
    result = explorer(["--base-url", base], tmp_path, stdin=lines)
    out = result.stdout + result.stderr
    assert result.returncode == 0, out
    assert "sess-tok-" not in out, out
    assert "t = <hidden: " in out and "who = al" in out and "t = plain" in out, out
    # `env NAME` carries the variables over, and that they are secrets.
    profile = tmp_path / "two.yaml"
    profile.write_text(f"explorer-profile: 1\nname: two\nenvironments:\n  a:\n    base-url: {base}\n  b:\n    base-url: {base}\n")
    moved = explorer(["--profile", str(profile), "--env", "a"], tmp_path, stdin="post /login\ncapture t = .session_token\nenv b\nvars\n")
    out = moved.stdout + moved.stderr
    assert moved.returncode == 0 and "now on b" in out, out
    assert "sess-tok-" not in out and "t = <hidden: " in out, out


class Echo(QuietHandler):
    """POST answers the body it got, as text in `data` and as `json`, as httpbin does."""
    def do_POST(self):
        sent = self.rfile.read(int(self.headers["Content-Length"]))
        body = json.dumps({"data": sent.decode(), "json": json.loads(sent), "n": Echo.n}).encode()
        self.reply(200, body, [("Content-Type", "application/json")])

    n = 1


def test_short_and_quoted_secrets_replay_as_typed_and_are_never_shown(tmp_path, http_server):
    """A secret typed as a number, a short one, and one with a quote in a
    string item: the recording writes none of them; the replay sends each
    with its type and escaped (`a"b` was broken JSON, and the error quoted
    it); a mismatch's report hides a 3-letter one it supplied."""
    base = base_url(http_server(Echo))
    path = tmp_path / "secrets.transcript"
    line = "post /echo pin_token:=7 api_key:=12345 'password:=\"abcd\"' user[token]=abc\n"
    recorded = explorer(["--base-url", base, "--record", str(path)], tmp_path, stdin=line)
    assert recorded.returncode == 0, recorded.stderr
    text = path.read_text()
    assert "> post /echo pin_token:={{secret:pin_token}} api_key:={{secret:api_key}} " \
           "'password:=\"{{secret:password}}\"' user[token]={{secret:token}}\n" in text, text
    assert '"pin_token": {{secret:pin_token}},' in text and "12345" not in text and "abcd" not in text, text
    env = environment(tmp_path)
    env.update(EXPLORER_SECRET_PIN_TOKEN="8", EXPLORER_SECRET_API_KEY="99", EXPLORER_SECRET_PASSWORD='a"b\\c',
               EXPLORER_SECRET_TOKEN="xyz")
    Echo.n = 2  # a difference, so that the report shows the echo
    replayed = run_explorer(["replay", str(path), "--base-url", base], env=env, cwd=tmp_path)
    report = replayed.stdout + replayed.stderr
    assert replayed.returncode == 4, report
    assert "body .n" in report and "xyz" not in report and "invalid JSON" not in report, report
    assert re.search(r'b\\+c', report) is None, report  # the password, however escaped
    # On screen, the echo of what was sent (`data`, the JSON as text) hides it escaped too.
    shown = run_explorer(["--base-url", base, "-c", "post /echo 'password:=\"{{secret:password}}\"'"], env=env, cwd=tmp_path)
    assert shown.returncode == 0 and re.search(r'b\\+c', shown.stdout) is None and "<hidden: " in shown.stdout, shown.stdout
    # The short ones are not searched for in a string's text (the data echo): a pass needs the same ones.
    env.update(EXPLORER_SECRET_PIN_TOKEN="7", EXPLORER_SECRET_TOKEN="abc")
    Echo.n = 1
    passed = run_explorer(["replay", str(path), "--base-url", base], env=env, cwd=tmp_path)
    assert passed.returncode == 0, passed.stdout + passed.stderr


def test_a_transcript_saved_with_a_bom_replays_and_a_huge_one_is_one_line(tmp_path):
    bom = tmp_path / "bom.transcript"
    bom.write_bytes(b"\xef\xbb\xbf# explorer transcript v1\nprofile: linku\nbase-url: sandbox\n\n> get /api/banners\nHTTP/1.1 200 OK\n\n")
    assert explorer(["replay", str(bom), "--update"], tmp_path).returncode == 0
    huge = tmp_path / "huge.transcript"
    with open(huge, "w") as out:
        out.write("# explorer transcript v1\nprofile: linku\nbase-url: sandbox\n\n")
        out.write("# a comment of one line\n" * 2_900_000)
    result = explorer(["replay", str(huge)], tmp_path)
    huge.unlink()
    assert result.returncode == 2
    assert result.stderr == f"error: {huge}: 67 MiB; a transcript is at most 64 MiB (split it: a folder runs as one suite)\n"


class SlowSecond(QuietHandler):
    def do_GET(self):
        if self.path == "/slow":
            time.sleep(3)
        self.reply(200, b'{"ok": true}', [("Content-Type", "application/json")])


def test_replay_prints_each_step_as_it_finishes(tmp_path, http_server):
    """A long replay shows where it is, and a CI job stopped by its timeout keeps what ran."""
    base = base_url(http_server(SlowSecond))
    path = tmp_path / "slow.transcript"
    path.write_text("# explorer transcript v1\nprofile: none\nbase-url: http://127.0.0.1:9\n\n"
                    "> get /fast\nHTTP/1.1 200 OK\nContent-Type: application/json\n{\"ok\": true}\n\n"
                    "> get /slow\nHTTP/1.1 200 OK\nContent-Type: application/json\n{\"ok\": true}\n\n")
    process = subprocess.Popen([BINARY, "replay", str(path), "--base-url", base], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=environment(tmp_path), cwd=tmp_path)
    try:
        started = time.monotonic()
        assert process.stdout.readline() == f"{path}\n"
        assert process.stdout.readline() == "  ok      line  5  get /fast\n"
        assert time.monotonic() - started < 2.5, "the first step's line came before the slow step ended"
        assert process.wait(timeout=30) == 0
    finally:
        process.kill()


def test_a_replay_stopped_half_way_leaves_no_scratch_folder(tmp_path, http_server):
    # The scratch folder for saved files was made before the first step, so
    # a replay stopped by Ctrl-C or a CI timeout left one in TMPDIR each time.
    base = base_url(http_server(SlowSecond))
    path = tmp_path / "slow.transcript"
    path.write_text("# explorer transcript v1\nprofile: none\nbase-url: http://127.0.0.1:9\n\n"
                    "> get /slow\nHTTP/1.1 200 OK\nContent-Type: application/json\n{\"ok\": true}\n\n")
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    process = subprocess.Popen([BINARY, "replay", str(path), "--base-url", base], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=dict(environment(tmp_path), TMPDIR=str(temporary)), cwd=tmp_path)
    try:
        time.sleep(1)
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
    finally:
        process.kill()
    assert list(temporary.iterdir()) == []


def test_saved_files_of_a_replay_go_to_a_scratch_folder_so_it_replays_green_every_time(tmp_path):
    # A step that saves (-o, save, --download) found the file its recording
    # left and failed with "exists"; every replay then left files beside the suite.
    lines = ["login alice@example.com alice123", "get /api/tasks/1 -o out1.json", "save out2.json", "get /api/tasks/2 -d"]
    recorded = explorer(["--record", "o.transcript", *sum((["-c", line] for line in lines), [])], tmp_path)
    assert recorded.returncode == 0, recorded.stdout + recorded.stderr
    made = sorted(path.name for path in tmp_path.iterdir() if path.suffix == ".json" or path.name == "2")
    for _ in range(2):
        replayed = explorer(["replay", "o.transcript"], tmp_path)
        assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert sorted(path.name for path in tmp_path.iterdir() if path.suffix == ".json" or path.name == "2") == made


class RandomIds(QuietHandler):
    """A backend whose ids are random, as most real ones are: each POST makes
    a note `n_<8 hex>`; a deleted note's GET is a 404 that names its id."""
    protocol_version = "HTTP/1.1"
    notes = {}

    def answer(self, status, value):
        self.reply(status, json.dumps(value).encode(), [("Content-Type", "application/json")])

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        note = {"id": "n_" + os.urandom(4).hex(), "title": "Shopping"}
        RandomIds.notes[note["id"]] = note
        self.reply(201, json.dumps(note).encode(), [("Content-Type", "application/json"), ("Location", "/notes/" + note["id"])])

    def do_GET(self):
        key = self.path.rsplit("/", 1)[1]
        note = RandomIds.notes.get(key)
        self.answer(200, note) if note else self.answer(404, {"message": f"note {key} not found", "id": key})

    def do_DELETE(self):
        RandomIds.notes.pop(self.path.rsplit("/", 1)[1], None)
        self.reply(204)


def test_a_post_then_capture_of_a_random_id_replays_against_a_server_that_makes_another(tmp_path, http_server):
    # The POST's answer was written with this run's id, and the 404 that names
    # it in a message and in the error line too: no replay could pass.
    base = base_url(http_server(RandomIds))
    path = tmp_path / "notes.transcript"
    # Two captures of one answer: the id, read by the second, was compared as recorded.
    lines = ["post /notes title=Shopping", "capture where = header:Location", "capture note_id = .id", "get /notes/{{note_id}}",
             "delete /notes/{{note_id}}", "get {{where}}"]
    recorded = explorer(["--base-url", base, "--record", str(path)], tmp_path, stdin="\n".join(lines) + "\n")
    assert recorded.returncode == 3, recorded.stdout + recorded.stderr  # the last GET is a 404
    text = path.read_text()
    assert '"message": "note {{note_id}} not found"' in text and "error: 404: note {{note_id}} not found" in text, text
    for _ in range(2):
        replayed = explorer(["replay", str(path), "--base-url", base], tmp_path)
        assert replayed.returncode == 0 and "6 steps: 6 passed" in replayed.stdout, replayed.stdout + replayed.stderr + text


class Sized(QuietHandler):
    """GET /n/COUNT answers a JSON list of COUNT objects."""
    def do_GET(self):
        count = int(self.path.rsplit("/", 1)[1])
        self.reply(200, json.dumps([{"i": i, "name": "x" * 40} for i in range(count)]).encode(), [("Content-Type", "application/json")])


def test_a_recording_that_cannot_be_written_fails_the_run_and_keeps_its_whole_steps(tmp_path, http_server):
    # On a full disk the run exited 0, and the file ended in the middle of an answer.
    # Files past 6 KB cannot be written here (a disk that filled up, as `ulimit -f` makes it).
    base = base_url(http_server(Sized))
    path = tmp_path / "full.transcript"

    def small_files():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a failed write, not a killed process
        resource.setrlimit(resource.RLIMIT_FSIZE, (6000, 6000))

    run = subprocess.run([BINARY, "--base-url", base, "--record", str(path), "-c", "get /n/2 -b", "-c", "get /n/500 -b", "-c", "get /n/1"],
                         env=environment(tmp_path), cwd=tmp_path, capture_output=True, text=True, timeout=30, preexec_fn=small_files)
    assert run.returncode == 3, run.stderr
    assert "recording stopped: cannot write to" in run.stderr and "it keeps the steps before" in run.stderr, run.stderr
    text = path.read_text()
    assert text.endswith("]\n\n") and "> get /n/2 -b" in text and "/n/500" not in text, text
    replayed = run_explorer(["replay", str(path), "--base-url", base], env=environment(tmp_path), cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    # Not even its header: no empty file is left, and nothing said to be kept.
    def tiny_files():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (20, 20))

    header = tmp_path / "header.transcript"
    run = subprocess.run([BINARY, "--base-url", base, "--record", str(header), "-c", "get /n/1"], env=environment(tmp_path),
                         cwd=tmp_path, capture_output=True, text=True, timeout=30, preexec_fn=tiny_files)
    assert run.returncode == 3 and "nothing was recorded" in run.stderr and not header.exists(), run.stderr


class RawEcho(QuietHandler):
    """POST answers the body it got, as a string."""
    def do_POST(self):
        sent = self.rfile.read(int(self.headers["Content-Length"]))
        self.reply(200, json.dumps({"body": sent.decode()}).encode(), [("Content-Type", "application/json")])


def test_a_secret_in_a_body_typed_whole_is_hidden_where_the_server_echoes_it(tmp_path, http_server):
    # The line wrote `{{secret:password}}`; the echo of the body kept the password in clear on disk.
    base = base_url(http_server(RawEcho))
    path = tmp_path / "raw.transcript"
    lines = [f"curl -d password=pw777777 {base}/echo", "post /echo --raw 'password=rawsecret1'",
             """post /echo --raw '{"password": "jsonsecret9"}'"""]
    recorded = run_explorer(["--base-url", base, "--record", str(path)] + [a for line in lines for a in ("-c", line)],
                            env=environment(tmp_path), cwd=tmp_path)
    assert recorded.returncode == 0, recorded.stderr
    text = path.read_text()
    assert not any(secret in text for secret in ["pw777777", "rawsecret1", "jsonsecret9"]), text
    env = dict(environment(tmp_path), EXPLORER_SECRET_PASSWORD="pw777777", EXPLORER_SECRET_PASSWORD_2="rawsecret1",
               EXPLORER_SECRET_PASSWORD_3="jsonsecret9")
    replayed = run_explorer(["replay", str(path), "--base-url", base], env=env, cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stdout + text


def test_a_recording_with_no_steps_is_said_to_test_nothing(tmp_path):
    # It was written without a word, and explorer test then called it broken.
    said = ": a transcript with no steps tests nothing (explorer test calls it broken)"
    result = explorer(["--record", str(tmp_path / "e1.transcript"), "-c", "# to do"], tmp_path)
    assert result.returncode == 0 and f"warning: recorded no steps to {tmp_path / 'e1.transcript'}{said}" in result.stderr, result.stderr
    result = explorer(["-c", "record e2.transcript", "-c", "record stop", "-c", "record e3.transcript", "-c", "set a=1", "-c", "record stop"], tmp_path)
    assert f"recorded 0 steps to e2.transcript{said}" in result.stdout, result.stdout
    assert "recorded 1 step to e3.transcript\n" in result.stdout and "warning" not in result.stderr, result.stdout + result.stderr


class Counter(QuietHandler):
    """Answers each GET with the next number; with `edit` set, first
    appends a comment to that file (another --update, or an editor, writing
    it while a run goes)."""
    count = 0
    edit = None

    def do_GET(self):
        if Counter.edit:
            with open(Counter.edit, "a") as file:
                file.write("# edited while the run went\n")
        Counter.count += 1
        self.reply(200, json.dumps({"n": Counter.count}).encode(), [("Content-Type", "application/json")])


def test_update_leaves_a_file_that_changed_while_it_ran_and_shows_what_differed(http_server, tmp_path):
    # Two --update runs at once on one folder had steps written twice: each put
    # its steps back by the line numbers of the text it had read at its start.
    url = base_url(http_server(Counter))
    transcript = tmp_path / "count.transcript"
    assert explorer(["--base-url", url, "--record", str(transcript), "-c", "get /n"], tmp_path).returncode == 0
    Counter.edit = str(transcript)
    result = explorer(["test", "--update", str(transcript)], tmp_path)
    Counter.edit = None
    assert result.returncode == 3, result.stdout + result.stderr
    assert "not rewritten: the file changed while this run went" in result.stdout, result.stdout
    # What --update would have written is shown as a difference, as a plain run shows it.
    assert "line 5: get /n" in result.stdout and "expected 1" in result.stdout and "got      2" in result.stdout, result.stdout
    text = transcript.read_text()
    assert text.count("> get /n") == 1 and text.endswith("# edited while the run went\n") and '"n": 1' in text, text


def test_update_does_not_write_a_page_down_where_json_was_expected(http_server, tmp_path):
    # A proxy's error page answered 200 (a firewall, a login portal, a web app's fallback): --update
    # wrote `<html>…502 Bad Gateway` over the step's JSON and exited 0.
    class Page(QuietHandler):
        def do_GET(self):
            self.reply(200, b"<html><body><h1>502 Bad Gateway</h1></body></html>\n", [("Content-Type", "text/html")])

    url = base_url(http_server(Page))
    transcript = tmp_path / "health.transcript"
    text = f"# explorer transcript v1\nprofile: generic\nbase-url: {url}\n\n> get /health\nHTTP/1.0 200 OK\n{{\n  \"ok\": true\n}}\n"
    transcript.write_text(text)
    result = explorer(["test", "--update", str(transcript)], tmp_path)
    assert result.returncode == 3, result.stdout + result.stderr
    assert ":5: answered a page (HTML or XML) where JSON was expected; --update does not write it down" in result.stdout + result.stderr, result.stdout + result.stderr
    assert transcript.read_text() == text


def test_update_leaves_a_read_only_transcript_as_it_is(http_server, tmp_path):
    # A transcript made read-only was replaced all the same (the rewrite moves a new file over it).
    url = base_url(http_server(Counter))
    transcript = tmp_path / "count.transcript"
    assert explorer(["--base-url", url, "--record", str(transcript), "-c", "get /n"], tmp_path).returncode == 0
    before = transcript.read_text()
    transcript.chmod(0o444)
    result = explorer(["test", "--update", str(transcript)], tmp_path)
    assert result.returncode == 3, result.stdout + result.stderr
    assert "it is read-only (chmod u+w" in result.stdout, result.stdout
    assert transcript.read_text() == before and transcript.stat().st_mode & 0o777 == 0o444


def test_update_hides_a_session_cookie_an_answer_echoes_as_the_recording_did(http_server, tmp_path):
    # A live recording wrote an echoed `sid=…` as {{secret:sid}}; `replay --update` rewrote that
    # step with the cookie's value in clear.
    class Echo(QuietHandler):
        def do_GET(self):
            if self.path == "/login":
                self.reply(200, b"{}", [("Set-Cookie", "sid=S3CRcookie42; Path=/; HttpOnly"), ("Content-Type", "application/json")])
            else:
                self.reply(200, ("cookie was " + (self.headers.get("Cookie") or "")).encode(), [("Content-Type", "text/plain")])

    url = base_url(http_server(Echo))
    env = isolated_env(tmp_path)
    recorded = run_explorer(["--base-url", url, "--record", "rec.transcript", "-c", "get /login", "-c", "get /echo"], env=env, cwd=tmp_path)
    assert recorded.returncode == 0, recorded.stderr
    path = tmp_path / "rec.transcript"
    assert "| cookie was sid={{secret:sid}}" in path.read_text(), path.read_text()
    path.write_text(path.read_text().replace("| cookie was sid={{secret:sid}}", "| stale"))
    updated = run_explorer(["replay", "rec.transcript", "--update"], env=env, cwd=tmp_path)
    assert updated.returncode == 0, updated.stdout + updated.stderr
    text = path.read_text()
    assert "S3CRcookie42" not in text and "| cookie was sid={{secret:sid}}" in text, text


def test_json_inside_a_word_no_item_rule_reads_is_hidden_on_the_recorded_line(http_server, tmp_path):
    # History hid these members; the recording wrote the lines as typed.
    class Ok(QuietHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.reply(200, b"{}", [("Content-Type", "application/json")])

    url = base_url(http_server(Ok))
    lines = ["ws send --text '{\"refresh_token\":\"S3CRjw1\"}'", "post /x --raw 'payload={\"client_secret\":\"S3CRjw2\"}'",
             "post /x --raw '{\"password\": \"S3CRjw3\"'"]
    result = run_explorer(["--base-url", url, "--record", "rec.transcript"] + [arg for line in lines for arg in ("-c", line)],
                          env=isolated_env(tmp_path), cwd=tmp_path)
    text = (tmp_path / "rec.transcript").read_text()
    assert "S3CRjw" not in text, text
    assert "> post /x --raw 'payload={\"client_secret\":\"{{secret:client_secret}}\"}'" in text, text
