"""`tour NAME` walks a transcript from sessions/ one step at a time, and
`replay FILE` runs one inside the current session.

The tour test types through a pty as a newcomer would: TAB completes the tour
name, each step's command waits on the line, Enter runs it and the answer is
followed by the verdict, Ctrl-C ends the tour and returns to the REPL prompt.
"""
from support import ALICE_PROMPT, BINARY, CTRL_C, ENTER, PROMPT, ROOT, TAB, run_explorer


def test_tour_walks_two_steps_of_a_session(spawn, env):
    env["EXPLORER_SESSIONS"] = str(ROOT / "sessions")
    x = spawn()
    x.send("tour create-t" + TAB)
    x.wait_for_line(PROMPT + "tour linku/create-task ")
    x.send(ENTER)
    x.expect("Tour linku/create-task")
    x.expect("# Alice posts a task and reads it back through a captured id.")
    x.wait_for_line("tour 1/5> login alice@example.com {{secret:password}}")
    x.send(ENTER)
    x.expect('"username": "alice"')
    x.expect("as the tour expected")
    # The command is longer than the window: its wrapped end is checked as output.
    x.expect('tour 2/5> post /api/tasks title="Fix my bike"')
    x.expect("category=rep")
    x.settle()
    x.send(ENTER)
    x.expect('"title": "Fix my bike"')
    x.expect("as the tour expected")
    x.expect("tour 3/5> ")
    # Ctrl-C abandons the waiting line, and with it the tour.
    x.send(CTRL_C)
    x.expect("tour ended at step 3 of 5")
    # The tour ran on a sandbox of its own: the session is still logged out.
    x.expect(PROMPT)


def test_tour_alone_lists_the_tours_of_this_backend(spawn, env):
    env["EXPLORER_SESSIONS"] = str(ROOT / "sessions")
    x = spawn()
    out = x.run("tour")
    assert "linku/create-task" in out
    # Each other backend on a line of its own, its tours under it (they ran on at the end of the line before).
    assert "\nnova (explorer --profile nova):\n  nova/errors, nova/newcomer\n" in out.replace("\r", ""), out
    assert "\nposture (explorer --profile posture):\n  posture/upload-logs" in out.replace("\r", ""), out


def test_replay_runs_a_transcript_inside_the_session(env):
    result = run_explorer(["-c", "replay sessions/linku/login.transcript"], env=env, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "passed, 0 failed" in result.stdout


def test_replay_at_the_prompt_asks_for_a_secret_the_environment_lacks(spawn, env, tmp_path):
    # `explorer replay` asks at a terminal; `replay FILE` at the prompt said "set EXPLORER_SECRET_NOTE_KEY",
    # and someone typed the value at the next prompt, where the history kept it in clear.
    transcript = tmp_path / "keyed.transcript"
    recorded = run_explorer(["--record", str(transcript), "-c", "get /api/banners X-Note:{{secret:note_key}}"],
                            env={**env, "EXPLORER_SECRET_NOTE_KEY": "n0te-k3y-value"}, cwd=tmp_path)
    assert recorded.returncode == 0 and "X-Note:{{secret:note_key}}" in transcript.read_text(), recorded.stderr
    x = spawn()
    x.send(f"replay {transcript}" + ENTER)
    x.expect("{{secret:note_key}} for keyed.transcript (EXPLORER_SECRET_NOTE_KEY is not set): ")
    x.wait_for_secret_mode()
    x.send("n0te-k3y-value" + ENTER)
    out = x.expect(PROMPT)
    assert "1 step: 1 passed" in out and "n0te-k3y-value" not in out, out
    # Asked once a session's replay; Ctrl-C at the question stops the replay, not the REPL.
    x.send(f"replay {transcript}" + ENTER)
    x.expect("(EXPLORER_SECRET_NOTE_KEY is not set): ")
    x.wait_for_secret_mode()
    x.send(CTRL_C)
    out = x.expect(PROMPT)
    assert "EXPLORER_SECRET_NOTE_KEY" in out, out
    assert "banners" in x.run("get /api/banners --offline")


def test_a_tour_walked_while_recording_is_recorded_like_typed_lines(spawn, env, tmp_path):
    env["EXPLORER_SESSIONS"] = str(ROOT / "sessions")
    transcript = tmp_path / "walked.transcript"
    x = spawn("--record", str(transcript))
    x.send("tour linku/create-task" + ENTER)
    x.wait_for_line("tour 1/5> login alice@example.com {{secret:password}}")
    x.send(ENTER)
    x.expect("as the tour expected")
    x.expect("tour 2/5> ")
    x.settle()
    x.send(ENTER)
    x.expect("as the tour expected")
    x.expect("tour 3/5> ")
    x.settle()
    x.send(ENTER)
    x.expect("tour 4/5> ")
    x.send(CTRL_C)
    x.expect("tour ended at step 4 of 5")
    x.expect(ALICE_PROMPT)
    x.run("record stop", prompt=ALICE_PROMPT)
    text = transcript.read_text()
    assert "alice123" not in text and "eyJ" not in text
    # The tour's comment and its steps as they ran, in order, each with its answer.
    assert "# Alice posts a task and reads it back through a captured id.\n> login alice@example.com {{secret:password}}\nHTTP/1.1 200 OK\n" in text
    assert '\n> post /api/tasks title="Fix my bike" description="The rear wheel is buckled." price:=25 city=Leeds category=repair\nHTTP/1.1 201 Created\n' in text
    assert "\n> capture task_id = .id\n{{integer}}\n" in text
    assert "tour linku/create-task" not in text
    # And the recording replays green.
    replay = run_explorer(["replay", str(transcript)], env=env, cwd=ROOT)
    assert replay.returncode == 0, replay.stdout + replay.stderr
    assert "3 steps: 3 passed, 0 failed" in replay.stdout


def test_the_chat_tour_walks_green_and_its_recording_replays(spawn, env, tmp_path):
    """The WebSocket tour end to end in a terminal: frames show up as they
    come, each step is as the tour expected, and walking it under `record`
    gives a transcript that replays green on a fresh sandbox."""
    env["EXPLORER_SESSIONS"] = str(ROOT / "sessions")
    transcript = tmp_path / "chat.transcript"
    x = spawn("--record", str(transcript))
    x.send("tour linku/chat" + ENTER)
    x.expect("Tour linku/chat: 12 steps.")
    for step in range(1, 13):
        x.expect(f"tour {step}/12> ")
        x.settle()
        x.send(ENTER)
        x.expect("as the tour expected")
    x.expect("tour finished: 12 of 12 steps as expected")
    x.run("record stop", prompt="linku bob> ")
    text = transcript.read_text()
    assert "alice123" not in text and "bob12345" not in text and "eyJ" not in text
    assert '← {\n  "type": "read",\n' in text
    replay = run_explorer(["replay", str(transcript)], env=env, cwd=ROOT)
    assert replay.returncode == 0, replay.stdout + replay.stderr
    assert "12 steps: 12 passed, 0 failed" in replay.stdout


def test_a_tour_in_a_session_that_has_data_runs_on_a_fresh_sandbox(spawn, env):
    """A session that already made a task used to see "expected 6 got 7" on
    a tour's own task: the tour now walks a fresh sandbox of its own and
    leaves the session as it was (issue 11, #23)."""
    env["EXPLORER_SESSIONS"] = str(ROOT / "sessions")
    x = spawn()
    x.run("login alice@example.com alice123", prompt=ALICE_PROMPT)
    x.run("post /api/tasks title=Mine price:=5 city=Leeds", prompt=ALICE_PROMPT)
    x.send("tour linku/create-task" + ENTER)
    x.expect("It runs on a fresh sandbox of its own; your session is left as it is.")
    for step in range(1, 6):
        x.expect(f"tour {step}/5> ")
        x.settle()
        x.send(ENTER)
        x.expect("as the tour expected")
    x.expect("tour finished: 5 of 5 steps as expected")
    x.expect(ALICE_PROMPT)


def test_a_short_tour_name_two_backends_share_is_this_backends(spawn, env):
    # `tour errors` said "no tour named 'errors'": linku and nova both have one.
    env["EXPLORER_SESSIONS"] = str(ROOT / "sessions")
    x = spawn("--profile", "nova", prompt="nova> ")
    x.send("tour errors" + ENTER)
    x.expect("Tour nova/errors")
    x.send(CTRL_C)
    x.expect("nova> ")


def test_a_tour_name_typed_short_or_misspelt_is_said_with_the_one_meant(spawn, env):
    # `tour create` was "no tour named 'create'", with no word of create-task, where `gte` and `lgoin` got one.
    env["EXPLORER_SESSIONS"] = str(ROOT / "sessions")
    x = spawn()
    assert "no tour named 'create'; did you mean 'create-task'? (tour lists them)" in x.run("tour create")
    assert "no tour named 'chta'; did you mean 'chat'? (tour lists them)" in x.run("tour chta")
    assert "no tour named 'zzz' (tour lists them)" in x.run("tour zzz")


def test_a_tour_on_a_narrow_terminal_wraps_its_words_between_words(env):
    # The intro and the comments were printed as long lines, which the
    # terminal cut mid-word ("a\nn empty line", "Ct\nrl-C ends the tour").
    import pexpect

    env = dict(env, EXPLORER_SESSIONS=str(ROOT / "sessions"), TERM="dumb")
    child = pexpect.spawn(BINARY, [], env=env, dimensions=(200, 50), encoding="utf-8", timeout=20)
    try:
        child.expect_exact(PROMPT)
        child.sendline("tour linku/create-task")
        child.expect_exact("tour 1/5> ")
        shown = child.before.replace("\r", "")
        rows = [row for row in shown.split("\n") if row.strip()]
        assert all(len(row) <= 50 for row in rows[1:]), shown
        words = " ".join(row.strip() for row in rows[1:])
        assert "an empty line skips it). Ctrl-C ends the tour." in words, shown
        assert "# Alice posts a task and reads it back through a captured id." in words, shown
        child.sendcontrol("c")
        child.expect_exact("tour ended at step 1 of 5")
    finally:
        child.close(force=True)


def test_the_tour_list_on_a_narrow_terminal_wraps_at_its_width(env):
    # The list was wrapped at 80 columns whatever the terminal's width, so a
    # 50-column terminal cut its summaries mid-word.
    import pexpect

    env = dict(env, EXPLORER_SESSIONS=str(ROOT / "sessions"), TERM="dumb")
    child = pexpect.spawn(BINARY, [], env=env, dimensions=(200, 50), encoding="utf-8", timeout=20)
    try:
        child.expect_exact(PROMPT)
        child.sendline("tour")
        child.expect_exact(PROMPT)
        shown = child.before.replace("\r", "")
        assert "posture/upload-logs" in shown, shown
        rows = [row for row in shown.split("\n") if row.strip()][1:]
        assert rows and all(len(row) <= 50 for row in rows), shown
        assert "Alice posts a task and reads it back through a captured id." in " ".join(row.strip() for row in rows), shown
    finally:
        child.close(force=True)


def test_replay_at_the_prompt_keeps_a_transcripts_files_as_explorer_replay_does(env, tmp_path):
    # `replay FILE` in the REPL read and wrote anywhere: `-o ~/.bashrc --force` replaced the file, and
    # `file@~/.ssh/id` was sent, where `explorer replay` refuses both.
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True, exist_ok=True)
    (home / ".ssh" / "id").write_text("PRIVATE-KEY")
    (home / ".bashrc").write_text("mine\n")
    folder = tmp_path / "work" / "t"
    folder.mkdir(parents=True)
    (folder / "x.transcript").write_text("# explorer transcript v1\nprofile: linku\nbase-url: sandbox\n\n"
                                         "> get /api/banners -o ~/.bashrc --force\n{{*}}\n\n"
                                         "> post /api/upload/image file@~/.ssh/id\n{{*}}\n")
    result = run_explorer(["-c", "replay t/x.transcript"], env=dict(env, HOME=str(home)), cwd=tmp_path / "work", timeout=60)
    assert (home / ".bashrc").read_text() == "mine\n", result
    said = result.stdout + result.stderr
    assert "is outside the replay's folder" in said and "cannot read file" in said and "is outside" in said, said
    assert "PRIVATE-KEY" not in said
