"""End-to-end tests of the interactive REPL, driven through a pseudo-terminal.

These run the real `explorer` binary (its in-process sandbox included) under
pexpect and check what a user would see: TAB completion on the screen, history
across sessions, Ctrl-C and Ctrl-D, a password prompt without echo, colours,
and how it behaves when stdin is a pipe instead of a terminal.

    python3 -m pytest -q Tests/terminal

The binary is $EXPLORER_BIN, by default .build/debug/explorer in the
repository (build it with `swift build --product explorer`).

Every test gets its own HOME, XDG_STATE_HOME and XDG_CONFIG_HOME under
tmp_path, TERM=xterm, a 40x120 window and (unless it is about colours)
NO_COLOR=1 (the `env` and `spawn` fixtures, conftest.py). A tiny terminal
emulator (`Screen`, support.py) replays the output so that assertions can be
made on what is on the screen, not on libedit's redraw bytes.
"""

import os
import re
import resource
import signal
import stat
from pathlib import Path

import pexpect
import pytest

from support import (ALICE_PROMPT, BINARY, CTRL_C, CTRL_D, ENTER, ESC, PROMPT, TAB, QuietHandler, history_lines,
                     history_path, run_explorer)

EXPLORER_BIN = Path(BINARY)

CTRL_P = "\x10"
UP = "\x1b[A"

pytestmark = pytest.mark.skipif(
    not (EXPLORER_BIN.is_file() and os.access(EXPLORER_BIN, os.X_OK)),
    reason=f"explorer binary not found at {EXPLORER_BIN} (swift build --product explorer, or set EXPLORER_BIN)",
)


def login_with_prompt(x, email="alice@example.com", password="alice123"):
    x.send(f"login {email}{ENTER}")
    x.expect("password: ")
    x.wait_for_secret_mode()
    x.send(password + ENTER)
    return x.expect_prompt(ALICE_PROMPT)


# --------------------------------------------------------------------------
# Tests
# --------------------------------------------------------------------------


def test_tab_completes_endpoint_paths_segment_by_segment(spawn):
    x = spawn()
    # One candidate: the whole segment and its slash, no space (no endpoint
    # ends at /api/users: the path goes on).
    x.type_visibly("get /api/us")
    x.send(TAB)
    x.wait_for_line(PROMPT + "get /api/users/")
    assert x.screen.col == len(PROMPT + "get /api/users/"), "cursor should sit after the completion, no space"

    # `tas` and `ta` match both /api/tasks and /api/task-experts: a single TAB
    # inserts only their common prefix, `task`, and goes no further.
    for typed in ("get /api/ta", "get /api/tas"):
        x.send("\x15")  # Ctrl-U: kill the line
        x.wait_for_line(PROMPT)
        x.type_visibly(typed)
        x.send(TAB)
        x.wait_for_line(PROMPT + "get /api/task")
        x.settle()
        assert x.screen.line() == PROMPT + "get /api/task", f"a single TAB after {typed!r} must stop at the common prefix"

    # Once the prefix is unique, TAB finishes the segment.
    x.send("s/1/p" + TAB)  # a concrete id matches {id}: /api/tasks/{id}/participants
    x.wait_for_line(PROMPT + "get /api/tasks/1/participants")

    # The screen shows the buffer: what runs is the completed line.
    x.send("\x15")
    x.wait_for_line(PROMPT)
    x.type_visibly("/api/task-e")
    x.send(TAB)
    x.wait_for_line(PROMPT + "/api/task-experts")
    x.send(ENTER)
    out = x.expect_prompt()
    # /api/task-e would be a 404 "no route"; the completed path is a real
    # route that wants a login.
    assert "HTTP/1.1 401" in out and "no route" not in out, out


def test_tab_goes_into_a_list_and_its_indices_after_show(spawn):
    # `show .banners<TAB>` and `show .banners[<TAB>` offered nothing; `.banners[0].<TAB>` did.
    x = spawn()
    x.run("get /api/banners")
    x.type_visibly("show .banners")
    x.send(TAB)
    x.wait_for_line(PROMPT + "show .banners[")
    x.send(TAB + TAB)  # the list's indices, listed
    x.expect(".banners[1]")
    x.wait_for_line(PROMPT + "show .banners[")
    x.send("0" + TAB)
    x.wait_for_line(PROMPT + "show .banners[0]")
    x.send(ENTER)
    x.expect('"sort_order": 1')


def test_double_tab_lists_candidates(spawn):
    x = spawn()
    x.type_visibly("get /api/")
    x.send(TAB)
    x.settle()
    assert x.screen.line() == PROMPT + "get /api/", "first TAB has nothing to add and must not list yet"
    x.send(TAB)
    listing = x.expect(PROMPT + "get /api/")  # the list, then the line redrawn
    listed = [l.split()[0] for l in listing.replace("\r", "").split("\n") if l.strip().startswith("/")]
    assert "/api/tasks" in listed and "/api/users" in listed, f"listing was {listing!r}"
    assert "/api/task-experts" in listed
    x.wait_for_line(PROMPT + "get /api/")
    # The line is still being edited: finish it and run it.
    x.send("tasks" + ENTER)
    assert "HTTP/1.1 401" in x.expect_prompt()  # /api/tasks needs a login (and exists: not 404)


def test_tab_names_a_path_parameter_before_any_id_is_seen_and_offers_query_values(spawn):
    # Issue 11 #27: `/api/tasks/7/applications/` offered nothing and said
    # nothing before an id was seen; `status==` offered no values.
    x = spawn()
    x.type_visibly("post /api/tasks/7/applications/")
    x.send(TAB)
    shown = x.expect(PROMPT + "post /api/tasks/7/applications/")
    assert "{applicationId}: type the value" in shown, shown
    x.wait_for_line(PROMPT + "post /api/tasks/7/applications/")
    x.send("\x15")
    x.wait_for_line(PROMPT)
    x.type_visibly("get /api/tasks status==in")
    x.send(TAB)
    x.wait_for_line(PROMPT + "get /api/tasks status==in_progress ")


def test_tab_completes_body_fields_and_seen_path_parameters(spawn):
    x = spawn()
    login_with_prompt(x)
    # Body fields come from the endpoint's request model: `title=` for a
    # string, `price:=` for a number.
    x.type_visibly("post /api/tasks ti", prompt=ALICE_PROMPT)
    x.send(TAB)
    x.wait_for_line(ALICE_PROMPT + "post /api/tasks title=")
    x.send("Tab-test pr" + TAB)
    x.wait_for_line(ALICE_PROMPT + "post /api/tasks title=Tab-test price:=")
    x.send("25" + ENTER)
    out = x.expect_prompt(ALICE_PROMPT)
    assert "HTTP/1.1 201" in out, out
    created = re.search(r'"id": (\d+)', out).group(1)

    # The id in that answer is offered for /api/tasks/{id}.
    x.type_visibly(f"get /api/tasks/{created[0]}", prompt=ALICE_PROMPT)
    x.send(TAB)
    x.wait_for_line(ALICE_PROMPT + f"get /api/tasks/{created}")
    x.send(ENTER)
    out = x.expect_prompt(ALICE_PROMPT)
    assert "HTTP/1.1 200" in out and "Tab-test" in out, out


def test_tab_completes_command_word(spawn):
    x = spawn()
    x.type_visibly("who")
    x.send(TAB)
    x.wait_for_line(PROMPT + "whoami")
    assert x.screen.col == len(PROMPT + "whoami "), "a finished command word is followed by a space"
    x.send(ENTER)  # the buffer really holds `whoami `
    assert "not logged in" in x.expect_prompt()


def test_tab_in_the_middle_of_a_line_adds_no_second_space(spawn):
    # `who` TAB before ` now` made `whoami  now`: the space after the word was there already.
    x = spawn()
    x.type_visibly("who now")
    x.send((ESC + "[D") * 4)
    x.send(TAB)
    x.wait_for_line(PROMPT + "whoami now")
    assert x.screen.col == len(PROMPT + "whoami"), x.screen.col


def test_tab_completes_demo_email_after_login(spawn):
    x = spawn()
    x.type_visibly("login al")
    x.send(TAB)
    x.wait_for_line(PROMPT + "login alice@example.com")
    x.send(ENTER)  # no password on the line: it is asked for
    x.expect("password: ")
    x.wait_for_secret_mode()
    x.send("alice123" + ENTER)
    out = x.expect_prompt(ALICE_PROMPT)
    assert "logged in as alice" in out


@pytest.mark.parametrize("key", [UP, CTRL_P], ids=["up-arrow", "ctrl-p"])
def test_history_recalls_previous_line_and_survives_restart(spawn, key):
    x = spawn()
    x.run("help whoami")
    x.run("vars")
    x.send(key)
    x.wait_for_line(PROMPT + "vars")
    x.send(key)
    x.wait_for_line(PROMPT + "help whoami")
    x.send("\x05\x15")  # Ctrl-E, Ctrl-U: empty line
    x.wait_for_line(PROMPT)
    x.send(CTRL_D)
    assert x.expect_exit() == 0

    y = spawn()  # same XDG_STATE_HOME
    y.send(key)
    y.wait_for_line(PROMPT + "vars")
    y.send(key)
    y.wait_for_line(PROMPT + "help whoami")
    y.send(ENTER)  # and the recalled line runs
    assert "usage: whoami" in y.expect_prompt()


def test_ctrl_c_discards_half_typed_line(spawn, env):
    x = spawn()
    x.type_visibly("get /api/tasks/1")
    x.send(CTRL_C)
    after = x.expect_prompt()
    assert "^C" in after
    x.wait_for_line(PROMPT)
    x.settle()
    assert x.child.isalive(), "Ctrl-C at the prompt must not end the REPL"
    assert "HTTP/" not in x.transcript, "the half-typed request was sent"
    assert x.screen.line() == PROMPT.rstrip(), "the fresh prompt should have an empty line"

    out = x.run("help get")
    assert "usage: get" in out
    x.send(CTRL_D)
    assert x.expect_exit() == 0
    assert not any("tasks/1" in l for l in history_lines(env)), "an abandoned line went into history"


def test_an_editrc_that_is_no_regular_file_is_said_and_left_unread(spawn, env, tmp_path):
    # A ~/.editrc linked to /dev/zero grew without end before the first prompt (8 GB in 9 s); a FIFO waited for ever.
    (tmp_path / "home" / ".editrc").symlink_to("/dev/zero")
    x = spawn()
    assert ".editrc is not read: it is not a regular file" in x.welcome, x.welcome
    assert "usage: vars" in x.run("help vars")


def test_ctrl_c_discards_the_line_in_vi_command_mode_too(spawn, env, tmp_path):
    # `bind -v` in ~/.editrc: after Esc, Ctrl-C did nothing, and the next line was typed into the old one.
    (tmp_path / "home" / ".editrc").write_text("bind -v\n")
    x = spawn()
    x.type_visibly("get /q")
    x.send("\x1b")
    x.settle()
    x.send(CTRL_C)
    assert "^C" in x.expect_prompt()
    # A fresh line, in insert mode as vi starts one.
    out = x.run("help vars")
    assert "usage: vars" in out, out
    assert "HTTP/" not in x.transcript


def test_prompted_login_does_not_echo_password(spawn):
    x = spawn()
    out = login_with_prompt(x)
    assert "logged in as alice" in out
    assert "alice123" not in x.transcript[x.start:], "the password was echoed"
    rows = x.screen.text().splitlines()
    assert [r for r in rows if r.startswith("password:")] == ["password:"], "the password is on the screen"
    assert not any("alice123" in r for r in rows if not r.startswith("Demo accounts:"))
    out = x.run("get /api/tasks/1", prompt=ALICE_PROMPT)
    assert '"title"' in out
    assert "HTTP/1.1 200" in out


def test_history_file_keeps_no_password(spawn, env):
    x = spawn()
    out = x.run("login alice@example.com alice123", prompt=ALICE_PROMPT)
    assert "logged in as alice" in out
    path = history_path(env)
    lines = history_lines(env)
    assert any(l.startswith("login alice@example.com") for l in lines), lines
    assert b"alice123" not in path.read_bytes()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600

    x.run("logout", prompt=PROMPT)
    login_with_prompt(x)
    x.run("whoami", prompt=ALICE_PROMPT)
    x.send(CTRL_D)
    assert x.expect_exit() == 0
    lines = history_lines(env)
    assert sum(l.startswith("login alice@example.com") for l in lines) >= 1, lines
    assert "whoami" in lines
    assert b"alice123" not in path.read_bytes()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_password_typed_at_the_prompt_is_kept_neither_in_history_nor_in_a_recording(spawn, env, tmp_path):
    # Enter pressed too early, then the password typed at the prompt: "unknown command 'alice123'", and the
    # password went to the history file and the transcript in clear.
    transcript = tmp_path / "early.transcript"
    x = spawn("--record", str(transcript))
    out = x.run("alice123", prompt=PROMPT)
    assert "unknown command 'alice123'" in out
    x.run("whoami", prompt=PROMPT)
    x.run("lgoin", prompt=PROMPT)
    x.send(CTRL_D)
    assert x.expect_exit() == 0
    assert history_lines(env) == ["whoami"], history_lines(env)
    text = transcript.read_text()
    assert "alice123" not in text and "lgoin" not in text and "> whoami" in text, text


def test_login_with_a_demo_users_name_says_the_email_before_asking_the_password(spawn):
    # The prompt names users `linku bob>`: `login bob` asked the password, then said "incorrect email or password".
    x = spawn()
    out = x.run("login bob", prompt=PROMPT)
    assert "bob is not an email: did you mean login bob@example.com? (nothing sent)" in out, out
    assert "password:" not in out
    result = run_explorer(["-c", "login bob bob12345"])
    assert result.returncode == 1 and "did you mean login bob@example.com?" in result.stderr, result


def test_ctrl_d_at_empty_prompt_exits_zero(spawn):
    x = spawn()
    x.send(CTRL_D)
    assert x.expect_exit() == 0


def test_exit_command_exits_zero(spawn):
    x = spawn()
    x.send("exit" + ENTER)
    assert x.expect_exit() == 0


def test_no_color_means_no_escape_codes_in_output(spawn):
    x = spawn()  # NO_COLOR=1
    assert ESC not in x.welcome
    x.run("login alice@example.com alice123", prompt=ALICE_PROMPT)
    out = x.run("get /api/tasks/1", prompt=ALICE_PROMPT)
    assert '"title"' in out
    assert ESC not in out, f"escape codes despite NO_COLOR: {out!r}"


@pytest.mark.parametrize("no_color", [None, "1"], ids=["no-NO_COLOR", "flag-beats-NO_COLOR"])
def test_color_always_colours_output(spawn, env, no_color):
    env = dict(env)
    env.pop("NO_COLOR")
    if no_color:
        env["NO_COLOR"] = no_color
    x = spawn("--color", "always", env=env)
    x.run("login alice@example.com alice123", prompt=ALICE_PROMPT)
    out = x.run("get /api/tasks/1", prompt=ALICE_PROMPT)
    assert "title" in out
    assert ESC + "[" in out, f"no colours with --color always: {out!r}"


def _piped(env, text):
    return run_explorer([], input=text, env=env)


def test_piped_stdin_success(env):
    env = dict(env)
    env.pop("NO_COLOR")  # not a terminal: no colours even without NO_COLOR
    r = _piped(env, "help\nlogin alice@example.com alice123\nget /api/tasks/1\n")
    assert r.returncode == 0, r.stderr
    assert '"title"' in r.stdout
    assert "linku>" not in r.stdout and "linku>" not in r.stderr, "a prompt was printed"
    assert ESC not in r.stdout and ESC not in r.stderr, "escape codes on a pipe"


def test_piped_stdin_failing_command_exits_nonzero(env):
    env = dict(env)
    env.pop("NO_COLOR")
    r = _piped(env, "lgoin alice@example.com alice123\nhelp\n")
    assert r.returncode != 0
    assert "lgoin" in r.stderr
    assert "linku>" not in r.stdout and "linku>" not in r.stderr
    assert ESC not in r.stdout and ESC not in r.stderr


def test_a_recalled_login_asks_for_the_password(spawn, env):
    # Issue 11 #18: history kept "login … ***" and Enter on the recalled line sent "***".
    x = spawn()
    x.run("login alice@example.com alice123", prompt=ALICE_PROMPT)
    x.run("logout", prompt=PROMPT)
    x.send(UP)
    x.send(UP)
    x.wait_for_line(PROMPT + "login alice@example.com")
    x.send(ENTER)
    x.expect("password: ")
    x.wait_for_secret_mode()
    x.send("alice123" + ENTER)
    assert "logged in as alice" in x.expect_prompt(ALICE_PROMPT)
    assert "alice123" not in history_path(env).read_text()


def test_set_with_a_space_keeps_the_secret_out_of_history(spawn, env):
    # Issue 11 #3: the two-word form of set reached the file in clear.
    x = spawn()
    x.run("set token hunter2")
    x.run("set api_key=hunter3")
    x.send(CTRL_D)
    assert x.expect_exit() == 0
    text = history_path(env).read_text()
    assert "hunter2" not in text and "hunter3" not in text
    assert "set token {{secret:token}}" in history_lines(env)


def test_a_value_learned_secret_later_is_written_out_of_the_history(spawn, env):
    # A helper's trial: `set cs=…` then `client_secret={{cs}}`: `history` hid the value, the file kept it in clear.
    x = spawn()
    x.run("set cs=s3cr3t-CLIENT-secret-XYZ")
    x.run("help vars")
    assert "s3cr3t-CLIENT-secret-XYZ" in history_path(env).read_text()
    x.run("get /api/tasks client_secret=={{cs}} --offline")
    text = history_path(env).read_text()
    assert "s3cr3t-CLIENT-secret-XYZ" not in text, text
    assert "set cs={{secret:client_secret}}" in history_lines(env)
    assert history_lines(env)[-2:] == ["help vars", "get /api/tasks client_secret=={{cs}} --offline"], history_lines(env)
    # Recalled in this session too, as the file has it.
    x.send(UP + UP + UP)
    x.wait_for_line(PROMPT + "set cs={{secret:client_secret}}")


def test_a_recalled_set_of_a_secret_asks_for_it_again(spawn, env):
    # A helper's trial: history kept `set token=***`, and the recalled line
    # set the token to `***` without a word; `X-Api-Key:***` was sent as the key.
    x = spawn()
    x.run("set token=abcdefgh")
    x.send("\x1b[A")
    x.wait_for_line(PROMPT + "set token={{secret:token}}")
    x.send(ENTER)
    x.expect("token: ")
    x.wait_for_secret_mode()
    x.send("secondvalue" + ENTER)
    x.expect(PROMPT)
    assert "token = <hidden: 11 characters>" in x.run("vars")


def test_a_recalled_auth_line_asks_for_its_secret(spawn, env):
    # Issue 13: history keeps `auth bearer {{secret:token}}`; recalled, the
    # prompt asks for the token (without echo) instead of sending `***`.
    x = spawn()
    x.run("auth bearer hunter2")
    assert "auth bearer {{secret:token}}" in history_lines(env)
    assert "hunter2" not in history_path(env).read_text()
    x.send("\x1b[A")  # up: the line as history keeps it
    x.wait_for_line(PROMPT + "auth bearer {{secret:token}}")
    x.send(ENTER)
    x.expect("token: ")
    x.wait_for_secret_mode()
    x.send("hunter4" + ENTER)
    shown = x.expect_prompt()
    assert "Authorization: Bearer <hidden: 7 characters>" in shown, shown
    assert "hunter4" not in x.transcript


def test_two_sessions_keep_each_others_history(spawn, env):
    # Issue 11 #17: each REPL rewrote the whole file from memory; the last to write won.
    x = spawn()
    y = spawn()
    x.run("help whoami")
    y.run("help vars")
    x.run("help logout")
    x.send(CTRL_D)
    assert x.expect_exit() == 0
    y.send(CTRL_D)
    assert y.expect_exit() == 0
    lines = history_lines(env)
    for line in ["help whoami", "help vars", "help logout"]:
        assert line in lines, lines
    # A new session recalls the last line written by either.
    z = spawn()
    z.send(UP)
    z.wait_for_line(PROMPT + "help logout")


def test_a_history_file_explorer_did_not_write_is_left_as_it_is_and_said(spawn, env):
    # A file without libedit's first line (edited by hand, another tool's) was ignored without a word,
    # then written over with the session's first line: every line in it lost.
    path = history_path(env)
    path.parent.mkdir(parents=True)
    path.write_text("get /api/tasks page==1\nget /api/banners\n")
    x = spawn()
    assert "warning: history is not saved: " + str(path) + " is not a history explorer wrote" in x.welcome, x.welcome
    x.run("help vars")
    x.send(CTRL_D)
    assert x.expect_exit() == 0
    assert path.read_text() == "get /api/tasks page==1\nget /api/banners\n"


def test_a_history_file_that_cannot_be_written_whole_is_left_as_it_was_and_said(spawn, env):
    # Each line rewrote the file in place: a full disk (here a file size limit) cut it, losing
    # the older lines, without a word; this session's line was then missing from recall too.
    path = history_path(env)
    path.parent.mkdir(parents=True)
    before = "_HiStOrY_V2_\n" + "".join(f"help\\040vars\\040{n}\n" for n in range(300))
    path.write_text(before)

    def small_files():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (len(before) - 100, len(before) - 100))

    x = spawn(preexec_fn=small_files)
    said = x.run("help whoami")
    assert f"warning: history is not saved: {path}: File too large; the file was left as it was" in said, said
    assert "history is not saved" not in x.run("help logout"), "said once"
    x.send(UP + UP)
    x.wait_for_line(PROMPT + "help whoami")
    x.send("\x15" + CTRL_D)
    assert x.expect_exit() == 0
    assert path.read_text() == before
    assert [p.name for p in path.parent.iterdir()] == ["history"], "nothing left beside it"
    # No history yet: none is left (an empty one stood there, "left as it was").
    path.unlink()

    def no_room():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (5, 5))

    y = spawn(preexec_fn=no_room)
    assert "history is not saved" in y.run("help whoami")
    y.send(CTRL_D)
    assert y.expect_exit() == 0
    assert not path.exists()


def test_a_repl_started_in_the_background_ends_on_sigterm(env):
    # `timeout 2 explorer` at a terminal never returned: started outside the foreground group, the REPL was
    # stopped (SIGTTOU) by its own terminal restore inside the SIGTERM handler, with SIGTERM blocked.
    shell = pexpect.spawn("bash", ["-c", f"timeout 2 {BINARY}; echo status=$?"], env=env, encoding="utf-8", timeout=20)
    try:
        shell.expect(r"status=(\d+)")
        assert shell.match.group(1) == "124"
    finally:
        shell.close(force=True)


def test_history_lists_both_sessions_lines_numbered_with_secrets_hidden(spawn, env):
    # Issue 14: `history [N]`, read from libedit's history (the file's lines,
    # other sessions' included), as history keeps them: secrets hidden.
    x = spawn()
    y = spawn()
    x.run("help whoami")
    y.run("set token hunter2")
    x.run("help vars")
    listed = x.run("history 3")
    assert listed.replace("\r", "").strip().split("\n") == ["2  set token {{secret:token}}", "3  help vars", "4  history 3"], listed
    assert "1  help whoami" in x.run("history")


def test_non_ascii_typed_under_the_c_locale_goes_out_intact(spawn, env):
    # Issue 11 #13: under LC_ALL=C, libedit read each byte as a character: "café 🚲" went out as "caf caf ".
    c_locale = dict(env, LC_ALL="C", LANG="C")
    x = spawn(env=c_locale)
    out = x.run('post /api/tasks title="café 🚲" --offline')
    assert '"title": "café 🚲"' in out, out  # indented on a terminal, as HTTPie shows it


def test_the_tab_after_a_partial_completion_lists(spawn):
    # Issue 11 #27: after TAB filled in a common prefix, listing took two more TABs.
    x = spawn()
    x.type_visibly("get /api/ta")
    x.send(TAB)
    x.wait_for_line(PROMPT + "get /api/task")
    x.send(TAB)
    listing = x.expect(PROMPT + "get /api/task")
    assert "/api/task-experts" in listing and "/api/tasks" in listing, listing


def test_offline_indents_a_json_body_on_a_terminal(spawn):
    # Issue 14: `--offline` shows a JSON body as HTTPie does on a terminal
    # (indented); piped, both print the compact bytes that would be sent.
    x = spawn()
    out = x.run("post /api/tasks title=Fix 'tags:=[1,2]' --offline")
    assert '{\r\n  "title": "Fix",\r\n  "tags": [\r\n    1,\r\n    2\r\n  ]\r\n}' in out, out
    assert "Content-Length: 28" in out, "the length of the compact bytes that would be sent"


class Banners(QuietHandler):
    def do_GET(self):
        self.reply(200, b'{"banners": []}', [("Content-Type", "application/json")])


def test_tasks_run_on_the_event_loops_not_on_a_thread_pool(spawn, http_server):
    # Swift concurrency's jobs go to NIO's event loops (EventLoopExecutor): a
    # task woken by a socket runs on the thread that read it. When the
    # runtime's hook was not found (the binary scripts/explorer builds, with
    # the Swift runtime linked in), every task ran on Dispatch threads
    # ("com.apple.root.user-initiated-qos"). Against a server of its own: the
    # sandbox's timers (Task.sleep) still wake on Dispatch's.
    port = http_server(Banners).server_address[1]
    x = spawn("--base-url", f"http://127.0.0.1:{port}", prompt=f"127.0.0.1:{port}> ")
    assert "200" in x.run("get /banners", prompt=f"127.0.0.1:{port}> ")
    pid = x.child.pid
    main = open(f"/proc/{pid}/comm").read().strip()
    names = [open(f"/proc/{pid}/task/{task}/comm").read().strip() for task in os.listdir(f"/proc/{pid}/task")]
    assert [name for name in names if name != main and not name.startswith("NIO-")] == [], names


def test_the_welcome_hides_the_password_of_the_base_url(spawn, http_server):
    # `--base-url http://me:PW@host`: vars and recordings hid the password, the welcome line said it.
    port = http_server(Banners).server_address[1]
    x = spawn("--base-url", f"http://me:BasePw7788@127.0.0.1:{port}", prompt=f"127.0.0.1:{port}> ")
    assert "BasePw7788" not in x.welcome and f"at http://me:<hidden: 10 characters>@127.0.0.1:{port}" in x.welcome, x.welcome


def test_ctrl_left_and_right_move_by_word(spawn):
    # Unbound, they typed ";5D" into the line.
    x = spawn()
    x.send("help vars")
    x.wait_for_line(PROMPT + "help vars")
    x.send("\x1b[1;5D")
    x.send("X")
    x.wait_for_line(PROMPT + "help Xvars")
    x.send("\x1b[1;5C" + "Y")
    x.wait_for_line(PROMPT + "help XvarsY")
    # screen's and PuTTY's Ctrl-Left and Ctrl-Right.
    x.send("\x1b[5D" + "Z")
    x.wait_for_line(PROMPT + "help ZXvarsY")
    x.send("\x1b[5C" + "W")
    x.wait_for_line(PROMPT + "help ZXvarsYW")


def test_tab_lists_every_candidate_when_the_line_wraps_in_a_narrow_window(spawn):
    # libedit redrew the prompt from the row it thought the cursor was on,
    # one up for a wrapped line: over the last candidate listed, which was lost.
    from support import Screen
    x = spawn()
    x.send("login bob@example.com bob12345" + ENTER)
    x.expect("logged in as bob")
    x.child.setwinsize(40, 30)
    x.screen = Screen(40, 30)
    x.send("\x0c")  # Ctrl-L: a cleared screen the emulator and the terminal agree on
    x.settle()
    x.send("get /api/flea-market/" + TAB + TAB)
    x.settle()
    shown = x.screen.text()
    for candidate in ("categories", "favorites", "items", "my-purchases"):
        assert f"/api/flea-market/{candidate}" in shown, shown
    assert shown.rstrip().endswith("linku bob> get /api/flea-marke\nt/"), shown


def test_an_arrow_key_ends_a_ctrl_r_search_and_moves(spawn, env):
    # The search ended on the arrow's ESC, and "[C" was typed into the line
    # (`[Cwhoami`), then run and saved to history.
    x = spawn()
    x.send("whoami" + ENTER)
    x.expect(PROMPT)
    x.send("\x12" + "who")
    x.settle()
    x.send("\x1b[C" + "\x1b[D" + "\x1b[F" + "!")
    x.wait_for_line(PROMPT + "whoami!")
    x.send("\x1b[H" + "#")
    x.wait_for_line(PROMPT + "#whoami!")
    x.send("\x15" + "exit" + ENTER)
    x.expect_exit()
    assert not any("[C" in line or "[D" in line for line in history_lines(env)), history_lines(env)


def test_word_moves_and_delete_end_a_ctrl_r_search_and_do_their_work(spawn, env):
    # Only arrows, Home and End were read as keys after a search: Ctrl-Left
    # typed ";5D", Delete "3~" and Alt-b "b" into the line, and history kept it.
    # A search leaves the cursor at what it found ("vars" of "help vars").
    x = spawn()
    x.send("help vars" + ENTER)
    x.expect(PROMPT)
    for keys, typed, line in [("\x1b[1;5D", "X", "Xhelp vars"), ("\x1b[3~", "", "help ars"), ("\x1bb", "Y", "Yhelp vars"),
                              ("\x1b[1;5C", "Z", "help varsZ"), ("\x1bf", "W", "help varsW")]:
        x.send("\x12" + "vars")
        x.settle()
        x.send(keys + typed)
        x.wait_for_line(PROMPT + line)
        # Ctrl-C: a new line, read with the history from its end again.
        x.send("\x03")
        x.expect(PROMPT)
    x.send("exit" + ENTER)
    x.expect_exit()
    assert not any(";5" in line or "3~" in line for line in history_lines(env)), history_lines(env)


@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGHUP"])
def test_a_signal_that_ends_the_repl_leaves_the_terminal_as_it_found_it(spawn, signal_name):
    # Killed at the prompt (a dropped ssh session, a closed tmux pane, `timeout`), it left the
    # terminal raw: no echo, no line editing, for the shell that came back.
    import signal
    import termios
    x = spawn()
    x.type_visibly("get /api/tas")
    editing = termios.tcgetattr(x.child.child_fd)[3]
    assert not editing & termios.ICANON, "libedit edits the line in raw mode"
    os.kill(x.child.pid, getattr(signal, signal_name))
    x.child.expect(pexpect.EOF, timeout=10)
    restored = termios.tcgetattr(x.child.child_fd)[3]
    assert restored & termios.ICANON and restored & termios.ECHO, "canonical mode and echo are back"
    x.child.close()
    assert x.child.signalstatus == getattr(signal, signal_name), "the signal still ends it as its own"


@pytest.mark.skipif(not __import__("shutil").which("dash"), reason="needs dash, a shell that leaves a stopped job's terminal as it is")
def test_ctrl_z_gives_the_shell_its_terminal_as_it_was_and_fg_brings_the_repl_back(tmp_path):
    # Under dash (which does not restore the terminal of a job that stops) Ctrl-Z left it raw: no echo, no lines.
    from support import BINARY, isolated_env
    env = isolated_env(tmp_path, TERM="xterm", PS1="$ ", ENV="")
    shell = pexpect.spawn("dash", ["-i"], env=env, encoding="utf-8", timeout=15, dimensions=(40, 120))
    try:
        shell.expect_exact("$ ")
        shell.sendline(f'"{BINARY}"')
        shell.expect_exact("linku> ")
        shell.send("\x1a")
        shell.expect("Stopped")
        shell.expect_exact("$ ")
        shell.sendline("stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo -e -icanon -e -echo | tr '\\n' ' '; echo")
        shell.expect(r"(-?icanon -?echo|-?echo -?icanon) ")
        assert "-icanon" not in shell.after and "-echo" not in shell.after, shell.after
        shell.sendline("fg")
        shell.send("help ne" + "\t")  # TAB completes: the editor is in its own mode again
        shell.expect_exact("xt ")
        shell.send("\r")
        shell.expect_exact("usage: next")
        shell.sendline("exit")
        shell.expect_exact("$ ")
    finally:
        shell.close(force=True)


def test_the_line_comes_back_whole_after_ctrl_z_and_fg(spawn):
    # After Ctrl-Z the shell leaves the terminal cooked: back with `fg`, keys
    # were echoed twice, arrows typed ^[[D and TAB did nothing until Enter.
    import signal
    import termios
    x = spawn()
    x.type_visibly("get /api/tas")
    os.kill(x.child.pid, signal.SIGSTOP)
    # What a shell does while it has the terminal: canonical mode and echo on.
    attributes = termios.tcgetattr(x.child.child_fd)
    attributes[3] |= termios.ICANON | termios.ECHO
    termios.tcsetattr(x.child.child_fd, termios.TCSANOW, attributes)
    os.kill(x.child.pid, signal.SIGCONT)
    x.wait_for_line(PROMPT + "get /api/tas")
    x.send("\x1b[D" + "k" + "\x05" + TAB)
    x.wait_for_line(PROMPT + "get /api/taks")
    assert "^[[D" not in x.transcript


def test_ctrl_d_at_the_email_question_ends_its_line(spawn):
    # `email: ^Dlogin abandoned (nothing sent)` was one line.
    x = spawn()
    x.send("login" + ENTER)
    x.expect("email: ")
    x.send(CTRL_D)
    x.expect("login abandoned")
    x.expect(PROMPT)
    assert re.search(r"email: (\^D)?\r?\n\s*login abandoned", x.transcript), x.transcript
