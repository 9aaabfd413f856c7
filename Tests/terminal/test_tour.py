"""`tour NAME` walks a transcript from sessions/ one step at a time, and
`replay FILE` runs one inside the current session.

The tour test types through a pty as a newcomer would: TAB completes the tour
name, each step's command waits on the line, Enter runs it and the answer is
followed by the verdict, Ctrl-C ends the tour and returns to the REPL prompt.
"""
import subprocess

from test_repl import ALICE_PROMPT, CTRL_C, ENTER, EXPLORER_BIN, PROMPT, REPO, TAB, Explorer, env, spawn  # noqa: F401


def test_tour_walks_two_steps_of_a_session(spawn, env):
    env["EXPLORER_SESSIONS"] = str(REPO / "sessions")
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
    x.expect(ALICE_PROMPT)


def test_tour_alone_lists_the_tours_of_this_backend(spawn, env):
    env["EXPLORER_SESSIONS"] = str(REPO / "sessions")
    x = spawn()
    out = x.run("tour")
    assert "linku/create-task" in out
    assert "nova (explorer --profile nova): nova/errors, nova/newcomer" in out


def test_replay_runs_a_transcript_inside_the_session(env):
    result = subprocess.run([str(EXPLORER_BIN), "-c", "replay sessions/linku/login.transcript"], capture_output=True,
                            text=True, timeout=60, env=env, cwd=REPO)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "passed, 0 failed" in result.stdout
