"""`explorer run FILE` runs a file's lines in batches on the interpreter's
event loop; `record` and transcript commands end a batch and run on the main
thread. A file that mixes them must run every line once, in order, with
variables carried across, and stop at `exit`.
"""
import re
import subprocess

from support import BINARY, ROOT, QuietHandler, base_url, isolated_env, run_explorer, start_http_server, stop_http_server


def run(script, tmp_path):
    path = tmp_path / "mixed.txt"
    path.write_text(script)
    env = isolated_env(tmp_path)
    try:
        return run_explorer(["run", str(path)], env=env, cwd=tmp_path)
    finally:
        # It holds a demo password: scripts/test fails on any secret the suite leaves on disk.
        path.unlink()


def test_a_file_mixing_batched_and_main_thread_lines_runs_each_once_in_order(tmp_path):
    chat = ROOT / "sessions" / "linku" / "browse-tasks.transcript"
    result = run(
        "# Variables set in a batch reach the main thread's lines, and back.\n"
        "set name=rec.transcript\n"
        "record {{name}}\n"
        "set who=alice@example.com\n"
        "login {{who}} alice123\n"
        "get /api/tasks/1\n"
        "record stop\n"
        f"replay {chat}\n"
        "no-such-command\n"
        "ws connect /__sandbox/echo\n"
        "ws send n:=1\n"
        "ws recv\n"
        "exit\n"
        "get /api/tasks/2\n",
        tmp_path)
    # The unknown command is a usage error: the worst status, 1.
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stderr == f"{tmp_path / 'mixed.txt'}:9: error: unknown command 'no-such-command' (type help for the list)\n"
    out = result.stdout
    milestones = ["recording to rec.transcript", "logged in as alice", '"title": "Pick up a parcel"',
                  "recorded 3 steps to rec.transcript", "7 steps: 7 passed, 0 failed",
                  "connected to ws://127.0.0.1:", '← {"n":1}']
    positions = [out.find(m) for m in milestones]
    assert -1 not in positions, list(zip(milestones, positions))
    assert positions == sorted(positions), list(zip(milestones, positions))
    assert out.count("7 steps: 7 passed") == 1
    # Nothing after exit ran.
    assert '"id": 2' not in out
    transcript = (tmp_path / "rec.transcript").read_text()
    # Lines are written as typed, variables included (issue 11 #19); the password never is.
    assert re.search(r"\n> login \{\{who\}\} \{\{secret:password\}\}\n", transcript), transcript
    assert "\n> get /api/tasks/1\n" in transcript
    assert "alice123" not in transcript and "eyJ" not in transcript
    # A replay resolves {{who}}, and the demo password with it.
    replay = run_explorer(["replay", str(tmp_path / "rec.transcript")], env=isolated_env(tmp_path), cwd=tmp_path)
    assert replay.returncode == 0, replay.stdout + replay.stderr


def test_header_and_auth_lines_in_a_file_run_and_the_file_goes_on(tmp_path):
    # `finish` reads the headers to hide after a header line, waiting on the
    # interpreter's loop: run inside a batch on that loop, any header or auth
    # line hung `explorer run` for ever.
    script = tmp_path / "headers.txt"
    script.write_text("header X-Trace:abc\nauth bearer s3cr3t-token\nget /api/banners\nheader clear\nget /api/banners\n")
    result = run_explorer(["--offline", "run", str(script)], env=isolated_env(tmp_path), cwd=tmp_path, timeout=30)
    assert result.returncode == 0, result.stdout + result.stderr
    first, second = result.stdout.split("GET /api/banners")[1:3]
    assert "X-Trace: abc" in first and "Authorization: Bearer" in first and "s3cr3t-token" not in result.stdout, result.stdout
    assert "X-Trace" not in second, second


def test_lines_that_type_a_secret_in_a_file_run_and_the_file_goes_on(tmp_path):
    # A line typing a secret of 6 characters or more (`password=…`, `set
    # password=…`, `X-Api-Key:…`) shares it with the interpreter, waiting on
    # its loop: inside a batch on that loop, `explorer run` hung for ever.
    script = tmp_path / "secrets.txt"
    script.write_text("set password=abcdef\npost /api/login password=s3cretPassw0rd\n"
                      "get /api/banners X-Api-Key:abcdefgh\nget /api/after\n")
    result = run_explorer(["--offline", "run", str(script)], env=isolated_env(tmp_path), cwd=tmp_path, timeout=30)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "POST /api/login" in result.stdout and "GET /api/banners" in result.stdout and "GET /api/after" in result.stdout
    assert "s3cretPassw0rd" not in result.stdout and "abcdefgh" not in result.stdout, result.stdout


def test_a_refresh_in_a_recorded_file_is_recorded_and_the_file_goes_on(tmp_path):
    # A refresh on the way makes the recording learn the new tokens; it asked
    # the session for them, waiting on the interpreter's loop from a batch on
    # that loop: `explorer run FILE --record` crashed at the first refresh.
    script = tmp_path / "refresh.txt"
    script.write_text("login alice@example.com alice123\npost /__sandbox/expire-access-tokens\n"
                      "get /api/users/profile/me -b\nget /api/banners -b\n")
    recorded = tmp_path / "refresh.transcript"
    try:
        result = run_explorer(["--record", str(recorded), "run", str(script)], env=isolated_env(tmp_path), cwd=tmp_path, timeout=60)
    finally:
        script.unlink()
    assert result.returncode == 0, result.stdout + result.stderr
    text = recorded.read_text()
    assert "> get /api/users/profile/me -b\n(access token refreshed; request retried)\nHTTP/1.1 200" in text, text
    assert "> get /api/banners -b\n" in text and "alice123" not in text, text


def test_a_file_that_cannot_be_read_is_one_line_and_status_2(tmp_path):
    # Issue 11 #28: it printed the whole usage and exited 64, a status the README did not list.
    env = isolated_env(tmp_path)
    missing = tmp_path / "missing.txt"
    result = run_explorer(["run", str(missing)], env=env, cwd=tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (2, "", f"error: cannot read {missing}: no such file\n")
    result = run_explorer(["run", str(tmp_path)], env=env, cwd=tmp_path)
    assert (result.returncode, result.stderr) == (2, f"error: cannot read {tmp_path}: it is a directory\n")
    # /dev/zero was read for ever, 350 MB a second.
    result = run_explorer(["run", "/dev/zero"], env=env, cwd=tmp_path, timeout=20)
    assert (result.returncode, result.stderr) == (2, "error: cannot read /dev/zero: it is larger than 16 MiB, which no script of lines is\n")


def test_lines_piped_in_are_read_as_run_reads_a_file(tmp_path):
    # A byte-order mark made the first line "unknown command '\ufeffget'"; a Latin-1 line went out with
    # U+FFFD in place of its letter; UTF-16 made a line of garbage of each; an old Mac file's lines, ended
    # by a carriage return alone, ran as one whose `# comment` hid the rest, and exited 0.
    env = isolated_env(tmp_path)
    result = run_explorer(["--offline"], env=env, cwd=tmp_path, input=b"\xef\xbb\xbfget /bom\n", text=False)
    assert result.returncode == 0 and b"GET /bom" in result.stdout, result
    result = run_explorer(["--offline"], env=env, cwd=tmp_path, input=b"post /up note=caf\xe9\nget /next\n", text=False)
    assert result.stderr == b"stdin:1: error: not UTF-8 text; the line is not run\n" and b"caf" not in result.stdout, result
    assert result.returncode == 1 and b"GET /next" in result.stdout, result
    result = run_explorer(["--offline"], env=env, cwd=tmp_path, input="get /x\n".encode("utf-16"), text=False)
    assert (result.returncode, result.stderr) == (2, b"error: cannot read stdin: UTF-16 text; save it as UTF-8\n"), result
    cr = "error: cannot read {}: its lines end in a carriage return alone; save it with LF (or CRLF) line ends\n"
    result = run_explorer(["--offline"], env=env, cwd=tmp_path, input="# setup\rget /x\r")
    assert (result.returncode, result.stdout, result.stderr) == (2, "", cr.format("stdin")), result
    (tmp_path / "old-mac.explorer").write_bytes(b"# setup\rget /x\r")
    result = run_explorer(["--offline", "run", "old-mac.explorer"], env=env, cwd=tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (2, "", cr.format("old-mac.explorer")), result
    line_cr = "error: cannot read {}: line {} holds a carriage return that ends no line; save it with LF (or CRLF) line ends\n"
    # One inside a file of LF lines ran two lines as one (`set b=2\rvars` set b to "2\rvars").
    (tmp_path / "mixed.explorer").write_bytes(b"set a=1\r\nset b=2\rvars\nvars\n")
    result = run_explorer(["--offline", "run", "mixed.explorer"], env=env, cwd=tmp_path)
    assert (result.returncode, result.stderr) == (2, line_cr.format("mixed.explorer", 2)), result
    result = run_explorer(["--offline"], env=env, cwd=tmp_path, input="set a=1\nset b=2\rvars\nvars\n")
    assert result.returncode == 1 and result.stderr.startswith("stdin:2: error: a carriage return inside it"), result
    assert "a = 1" in result.stdout and "b = " not in result.stdout, result
    # In the first line too: it was "its lines end in a carriage return alone", of a file of LF lines.
    result = run_explorer(["--offline"], env=env, cwd=tmp_path, input="get /a x==1\ry\nget /b\n")
    assert result.returncode == 1 and result.stderr.startswith("stdin:1: error: a carriage return inside it"), result
    assert "GET /b" in result.stdout, result
    # A file's line that is not UTF-8 is named, as a piped one is; a byte-order mark at a later line's start (files
    # joined with cat) is dropped, as the first line's is.
    (tmp_path / "latin.explorer").write_bytes(b"get /a\npost /up note=caf\xe9\n")
    result = run_explorer(["--offline", "run", "latin.explorer"], env=env, cwd=tmp_path)
    assert (result.returncode, result.stderr) == (2, "error: cannot read latin.explorer: line 2 is not UTF-8 text\n"), result
    joined = b"get /one\n\xef\xbb\xbfget /two\n"
    (tmp_path / "joined.explorer").write_bytes(joined)
    for args, given in [(["--offline", "run", "joined.explorer"], None), (["--offline"], joined)]:
        result = run_explorer(args, env=env, cwd=tmp_path, input=given, text=False)
        assert result.returncode == 0 and b"GET /two" in result.stdout, result
    # UTF-16 without its byte-order mark: said, not run as garbage.
    result = run_explorer(["--offline"], env=env, cwd=tmp_path, input="get /x\n".encode("utf-16-le"), text=False)
    assert (result.returncode, result.stderr) == (2, b"error: cannot read stdin: UTF-16 text; save it as UTF-8\n"), result
    (tmp_path / "utf16.explorer").write_bytes("get /x\n".encode("utf-16-le"))
    result = run_explorer(["--offline", "run", "utf16.explorer"], env=env, cwd=tmp_path)
    assert (result.returncode, result.stderr) == (2, "error: cannot read utf16.explorer: UTF-16 text; save it as UTF-8\n"), result


def test_a_file_from_a_pipe_runs(tmp_path):
    """`explorer run <(…)`, `run /dev/stdin` and `run -` read a pipe to its
    end: it has no size, and reading by the size said "permission denied"."""
    env = isolated_env(tmp_path)
    result = subprocess.run(["bash", "-c", f"'{BINARY}' --offline run <(printf 'get /from-a-pipe\\n')"],
                            env=env, cwd=tmp_path, capture_output=True, text=True, timeout=30)
    assert result.returncode == 0 and "GET /from-a-pipe" in result.stdout, result.stdout + result.stderr
    result = run_explorer(["--offline", "run", "/dev/stdin"], env=env, cwd=tmp_path, input="get /from-stdin\n")
    assert result.returncode == 0 and "GET /from-stdin" in result.stdout, result.stdout + result.stderr
    # `-` is standard input, as most tools read it; a failing line is named stdin:N.
    result = run_explorer(["--offline", "run", "-"], env=env, cwd=tmp_path, input="get /from-dash\nget\n")
    assert "GET /from-dash" in result.stdout, result.stdout + result.stderr
    assert result.returncode == 1 and result.stderr.startswith("stdin:2: error: GET needs a path"), result.stderr


def test_sandbox_on_a_busy_port_says_so_in_one_line(tmp_path):
    # Issue 11 #28: it said "bind(descriptor:ptr:bytes:): Address already in use) (errno: 98)".
    import socket
    env = isolated_env(tmp_path)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        result = run_explorer(["sandbox", "--port", str(port)], env=env, cwd=tmp_path, stdin=subprocess.DEVNULL)
    assert (result.returncode, result.stdout, result.stderr) == (3, "", f"error: port {port} is in use on 127.0.0.1\n")


def test_a_spec_that_cannot_be_used_is_one_line_not_the_usage(tmp_path):
    # Issue 11 #30: --spec with a Swagger 2.0 document printed the whole usage and exited 64.
    env = isolated_env(tmp_path)
    spec = tmp_path / "swagger.json"
    spec.write_text('{"swagger": "1.2", "info": {"title": "x", "version": "1"}, "paths": {}}')
    result = run_explorer(["--spec", str(spec), "--offline", "-c", "vars"], env=env, cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr == f"error: {spec}: this is a Swagger 1.2 document; explorer reads Swagger 2.0 and OpenAPI 3.0 and 3.1\n"
    # A document with no server gave "Error: no sandbox for profile 'generic'; known: linku, …".
    spec.write_text('{"openapi": "3.0.3", "info": {"title": "x", "version": "1"}, "paths": {}}')
    result = run_explorer(["--spec", str(spec), "-c", "endpoints"], env=env, cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr == f"error: {spec} names no server with an absolute URL: give --base-url URL too\n", result.stderr


def test_options_given_before_the_subcommand_apply_to_it(tmp_path):
    # Issue 14: `explorer --base-url URL run FILE` was refused ("Unexpected
    # argument"); the REPL's options belonged to a hidden default subcommand.
    env = isolated_env(tmp_path)
    script = tmp_path / "one.txt"
    script.write_text("get /things a==1\n")
    result = run_explorer(["--base-url", "http://127.0.0.1:9/v1", "--offline", "run", str(script)], env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("GET /v1/things?a=1 HTTP/1.1\nHost: 127.0.0.1:9\n"), result.stdout
    # After the name, as before, and the one after the name wins.
    result = run_explorer(["--base-url", "http://127.0.0.1:8/", "run", "--offline", "--base-url", "http://127.0.0.1:9/v1",
                           str(script)], env=env, cwd=tmp_path)
    assert "Host: 127.0.0.1:9\n" in result.stdout, result.stdout + result.stderr
    # What replay cannot use is refused by name, not ignored.
    transcript = ROOT / "sessions" / "linku" / "create-task.transcript"
    result = run_explorer(["--offline", "replay", str(transcript)], env=env, cwd=tmp_path)
    assert result.returncode == 64
    assert "--offline is an option of the REPL and explorer run, not of explorer replay" in result.stderr


def test_a_subcommands_option_named_like_the_repls_still_reaches_it(tmp_path):
    # The argument parser reads explorer's own options anywhere on the line:
    # `sandbox --profile nova` and `profile init --base-url` must still work,
    # and a REPL option a subcommand has no use for is refused by name.
    env = isolated_env(tmp_path)
    sandbox = subprocess.Popen([BINARY, "sandbox", "--profile", "nova", "--port", "0"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    try:
        assert sandbox.stdout.readline().startswith("Nova sandbox listening on http://127.0.0.1:")
    finally:
        # Signalled as soon as it says it listens: it stops cleanly (a SIGTERM
        # in the moment before its handler was set was lost, and it ran on).
        sandbox.terminate()
        sandbox.communicate(timeout=30)
    assert sandbox.returncode == 0
    made = run_explorer(["profile", "init", "mine", "--base-url", "http://127.0.0.1:9/api", "-o", str(tmp_path / "mine.yaml")],
                        env=env, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert "http://127.0.0.1:9/api" in (tmp_path / "mine.yaml").read_text()
    # A built-in profile's name: `--profile linku` would find the built-in one, never the file written.
    shadowed = run_explorer(["profile", "init", "linku", "--base-url", "http://127.0.0.1:9/api"], env=env, cwd=tmp_path)
    assert shadowed.returncode == 64, shadowed.stderr
    assert "'linku' is a built-in profile's name, which --profile linku finds first" in shadowed.stderr, shadowed.stderr
    assert not (tmp_path / ".explorer" / "profiles" / "linku.yaml").exists()
    generic = run_explorer(["profile", "init", "generic", "--base-url", "http://127.0.0.1:9/api"], env=env, cwd=tmp_path)
    assert generic.returncode == 64 and "'generic' is a built-in profile's name" in generic.stderr, generic.stderr
    # A folder as -o: said as one ("--force replaces it", then Foundation's "error 512" with --force).
    (tmp_path / "out").mkdir()
    folder = run_explorer(["profile", "init", "mine3", "--base-url", "http://127.0.0.1:9/api", "-o", str(tmp_path / "out"), "--force"],
                          env=env, cwd=tmp_path)
    assert folder.returncode == 1 and "is a folder: -o names the file to write" in folder.stderr, folder.stderr
    # A spec's API key header that is no header name wrote a profile that did not read back; a scheme it cannot
    # carry over (digest) wrote `kind: none` without a word, and --spec said nothing of it either.
    spec = tmp_path / "weird.yaml"
    spec.write_text('openapi: 3.0.3\ninfo: {title: w, version: "1"}\nservers: [{url: "http://127.0.0.1:9/api"}]\n'
                    'security: [{k: []}]\npaths: {/u: {get: {responses: {"200": {description: ok}}}}}\n'
                    'components: {securitySchemes: {k: {type: apiKey, in: header, name: \'X-Key: "evil" #\'}}}\n')
    weird = run_explorer(["profile", "init", "weird", "--from-spec", str(spec)], env=env, cwd=tmp_path)
    assert weird.returncode == 2 and "API key header 'X-Key: \"evil\" #' is not a header name" in weird.stderr, weird.stderr
    assert not (tmp_path / ".explorer" / "profiles" / "weird.yaml").exists()
    spec.write_text(spec.read_text().replace("{k: {type: apiKey, in: header, name: 'X-Key: \"evil\" #'}}", "{k: {type: http, scheme: digest}}"))
    digest = run_explorer(["profile", "init", "digest", "--from-spec", str(spec)], env=env, cwd=tmp_path)
    assert digest.returncode == 0 and "note: security schemes other than bearer" in digest.stderr, digest.stderr
    started = run_explorer(["--spec", str(spec), "-c", "endpoints"], env=env, cwd=tmp_path)
    assert "note: " + str(spec) + ": security schemes other than bearer" in started.stderr, started.stderr
    # Neither a spec nor a base URL: said with this command's usage (it came with explorer's whole usage).
    bare = run_explorer(["profile", "init", "mine2"], env=env, cwd=tmp_path)
    assert bare.returncode == 64 and "give --from-spec FILE, --base-url URL, or both" in bare.stderr, bare.stderr
    assert "Usage: explorer profile init <name>" in bare.stderr and "explorer replay" not in bare.stderr, bare.stderr
    refused = run_explorer(["sandbox", "--offline"], env=env, cwd=tmp_path)
    assert refused.returncode == 64
    assert "--offline is an option of the REPL and explorer run, not of explorer sandbox" in refused.stderr


def test_an_answer_that_fails_names_its_line_like_any_other_failure(tmp_path):
    # A 4xx is a failure of the script (status 3), and its "error:" line says
    # where it came from, as a mistyped command's does; a 2xx says nothing there.
    result = run("get /api/banners\n# not logged in\nget /api/tasks/1\nnot-a-command\n", tmp_path)
    path = tmp_path / "mixed.txt"
    lines = result.stderr.splitlines()
    assert len(lines) == 2, result.stderr
    assert lines[0].startswith(f"{path}:3: error: 401"), result.stderr
    assert lines[1] == f"{path}:4: error: unknown command 'not-a-command' (type help for the list)"


def test_stop_on_error_ends_a_script_at_its_first_failure_and_c_lines_are_named(tmp_path):
    """A script ran every line after a failed one: a missing secret's `auth`
    line failed, and the next request went out without it. --stop-on-error
    stops there, as sh -e does; several -c lines name the failing one."""
    env = isolated_env(tmp_path)
    env.pop("EXPLORER_SECRET_ZZ", None)
    script = tmp_path / "s.txt"
    script.write_text("get /api/banners\n# the token\nauth bearer {{secret:zz}}\n\nget /api/users/profile/me\nget /api/banners\n")
    stopped = run_explorer(["run", str(script), "--stop-on-error"], env=env, cwd=tmp_path, stdin=subprocess.DEVNULL)
    assert stopped.returncode == 3
    assert stopped.stderr.splitlines()[-1] == f"stopped at {script}:3 (--stop-on-error): 2 lines not run", stopped.stderr
    assert "401" not in stopped.stdout + stopped.stderr, "the request after it was not sent"
    # Without it every line runs, as before.
    ran = run_explorer(["run", str(script)], env=env, cwd=tmp_path, stdin=subprocess.DEVNULL)
    assert f"{script}:5: error: 401" in ran.stderr
    lines = run_explorer(["--stop-on-error", "-c", "get /api/banners", "-c", "get /api/nope", "-c", "get /api/banners"],
                         env=env, cwd=tmp_path)
    assert lines.returncode == 3
    assert lines.stderr.startswith("-c 2: error: 404") and lines.stderr.endswith("stopped at -c 2 (--stop-on-error): 1 line not run\n"), lines.stderr
    piped = run_explorer(["--stop-on-error"], input="get /api/nope\nget /api/banners\n", env=env, cwd=tmp_path)
    assert piped.stderr.endswith("stopped at stdin:1 (--stop-on-error): the lines after it not run\n"), piped.stderr
    assert piped.stdout.count("HTTP/1.1 ") == 1, piped.stdout


def test_a_built_in_profile_names_its_deployments(tmp_path):
    # Issue 13: the seeds list LinkU's and Nova's base URLs per environment
    # (and posture's and Level Up's production); --env picks one. The
    # catalogs' paths carry their prefix, so it is not doubled.
    env = isolated_env(tmp_path)

    def offline(*args):
        return run_explorer(["--offline", *args], env=env, cwd=tmp_path)

    staging = offline("--profile", "nova", "--env", "staging", "-c", "get /feed limit==2")
    assert staging.stdout.startswith("GET /feed?limit=2 HTTP/1.1\nHost: api-staging.nova.social\n"), staging.stdout + staging.stderr
    posture = offline("--profile", "posture", "--env", "production", "-c", "get /api/v1/postures/logs")
    assert posture.stdout.startswith("GET /api/v1/postures/logs HTTP/1.1\nHost: api.beidao-posture.com\n"), posture.stdout
    wrong = offline("--profile", "linku", "--env", "staging", "-c", "vars")
    assert wrong.returncode == 2 and wrong.stderr == "error: the linku profile has no environment 'staging'; it has sandbox, dev, test, production\n"
    # The sandbox is listed first by `env`, so --env takes it too: the default, named.
    sandboxed = offline("--profile", "linku", "--env", "sandbox", "-c", "get /api/banners")
    assert sandboxed.returncode == 0, sandboxed.stderr
    assert re.search(r"^GET /api/banners HTTP/1.1\nHost: 127\.0\.0\.1:\d+\n", sandboxed.stdout), sandboxed.stdout
    listed = run_explorer(["profiles"], env=env, cwd=tmp_path)
    assert "LinkU: sandbox*, dev, test, production" in listed.stdout


def test_env_is_checked_alike_for_a_built_in_profile_and_a_profile_file(tmp_path):
    # An unknown environment is one line and exit 2, and --env beside
    # --base-url (both name the server) a usage error, in both cases; nothing
    # is sent. A built-in profile's unknown environment printed the whole
    # usage (64), and a profile file let --base-url win silently.
    env = isolated_env(tmp_path)
    shop = tmp_path / "shop.yaml"
    shop.write_text("explorer-profile: 1\nname: shop\nenvironments:\n  dev: {base-url: \"http://127.0.0.1:9\"}\n"
                    "  prod: {base-url: \"https://api.example.com\"}\n")
    for profile, known in [("linku", "the linku profile has no environment 'nope'; it has sandbox, dev, test, production"),
                           (str(shop), f"{shop}: no environment 'nope'; there are dev, prod")]:
        unknown = run_explorer(["--offline", "--profile", profile, "--env", "nope", "-c", "vars"], env=env, cwd=tmp_path)
        assert unknown.returncode == 2 and unknown.stderr == f"error: {known}\n", unknown.stderr
        both = run_explorer(["--offline", "--profile", profile, "--env", "prod" if profile != "linku" else "production",
                             "--base-url", "http://127.0.0.1:9", "-c", "get /x"], env=env, cwd=tmp_path)
        assert both.returncode == 64 and " and --base-url both name the server: give one of them" in both.stderr, both.stderr
        assert both.stdout == ""
    # replay and test too: the base URL won silently.
    for command in (["replay", "x.transcript"], ["test", "x.transcript"]):
        replayed = run_explorer([*command, "--env", "prod", "--base-url", "http://127.0.0.1:9"], env=env, cwd=tmp_path)
        assert replayed.returncode == 64 and "--env prod and --base-url both name the server" in replayed.stderr, replayed.stderr
    chosen = run_explorer(["--offline", "--profile", str(shop), "--env", "prod", "-c", "get /x"], env=env, cwd=tmp_path)
    assert chosen.stdout.startswith("GET /x HTTP/1.1\nHost: api.example.com\n"), chosen.stdout + chosen.stderr


def test_env_moves_a_built_in_session_between_the_sandbox_and_its_deployments(tmp_path):
    # The built-in profiles' deployments are environments in the REPL too:
    # env lists them (the sandbox first and the default), env NAME moves.
    env = isolated_env(tmp_path)
    lines = ["env", "env production", "get /api/banners", "env sandbox", "get /api/banners", "env nope"]
    result = run_explorer(["--offline"], input="\n".join(lines) + "\n", env=env, cwd=tmp_path)
    out = result.stdout
    assert out.startswith("* sandbox     a fresh in-process sandbox\n  dev         https://dev-api.link2ur.com\n"), out
    # Said on standard error: standard output stays the answers' (`| jq`).
    assert "now on production (https://api.link2ur.com)" in result.stderr and "now on" not in out, result.stderr
    # Leaving the sandbox closes it, and its data: said (env sandbox came back to an empty one, unsaid).
    assert "; the sandbox was closed, and what it held with it (env sandbox starts a fresh one)\n" in result.stderr, result.stderr
    assert result.stderr.count("the sandbox was closed") == 1, result.stderr
    assert "GET /api/banners HTTP/1.1\nHost: api.link2ur.com\n" in out
    assert re.search(r"GET /api/banners HTTP/1.1\nHost: 127\.0\.0\.1:\d+\n", out), out
    assert "the linku profile has no environment 'nope'; it has sandbox, dev, test, production" in result.stderr


def test_env_says_it_closed_the_socket(tmp_path):
    # Nothing is sent to production: moving opens no connection until a request.
    lines = ["login alice@example.com alice123", "ws connect", "env production", "ws status"]
    result = run_explorer([], input="\n".join(lines) + "\n", env=isolated_env(tmp_path), cwd=tmp_path, timeout=60)
    assert "now on production (https://api.link2ur.com); not logged in there; " \
           "the WebSocket was closed (ws connect opens one here)" in result.stderr, result.stdout + result.stderr
    assert "no WebSocket" in result.stdout


def test_an_output_that_cannot_be_written_stops_the_script_and_says_so(tmp_path):
    # Like curl and xh: a full disk is one line and a failed status, and the
    # lines after it do not run unseen; a reader that went away (| head) is
    # how a pipe ends, worth no word. Before, all of these exited 0 silently,
    # and a standard error on a full disk stopped the process (SIGILL).
    seen = []

    class Handler(QuietHandler):
        def do_GET(self):
            seen.append(self.path)
            self.reply(200, b'{"rows": "' + b"x" * 200_000 + b'"}', [("Content-Type", "application/json")])

    server = start_http_server(Handler)
    try:
        env = isolated_env(tmp_path)
        script = tmp_path / "two.txt"
        script.write_text("get /one\nget /two\n")
        url = base_url(server)
        with open("/dev/full", "w") as full:
            result = subprocess.run([BINARY, "--base-url", url, "run", str(script)], stdout=full, stderr=subprocess.PIPE,
                                    text=True, env=env, cwd=tmp_path, timeout=60)
        assert (result.returncode, result.stderr) == (3, "error: cannot write the output: no space left on device\n")
        assert seen == ["/one"]

        seen.clear()
        reader = subprocess.Popen([BINARY, "--base-url", url, "-c", "get /one", "-c", "get /two"], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, env=env, cwd=tmp_path)
        reader.stdout.close()  # the reader goes away before anything is written
        assert reader.wait(timeout=60) == 3
        assert reader.stderr.read() == b""
        reader.stderr.close()
        assert seen == ["/one"]

        closed = subprocess.run([BINARY, "--base-url", url, "-c", "vars"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True, env=env, cwd=tmp_path, timeout=60, pass_fds=(), close_fds=True,
                                preexec_fn=lambda: __import__("os").close(1))
        assert (closed.returncode, closed.stderr) == (3, "error: cannot write the output: it is closed\n")

        # An error that cannot be said stops the script too; a closed standard
        # error only once there is an error to say.
        seen.clear()
        with open("/dev/full", "w") as full:
            mistyped = subprocess.run([BINARY, "--base-url", url, "-c", "get /one", "-c", "nope", "-c", "get /two"],
                                      stdout=subprocess.DEVNULL, stderr=full, env=env, cwd=tmp_path, timeout=60)
        assert (mistyped.returncode, seen) == (3, ["/one"])
        seen.clear()
        quiet = subprocess.run([BINARY, "--base-url", url, "-c", "get /one", "-c", "get /two"], stdout=subprocess.DEVNULL,
                               env=env, cwd=tmp_path, timeout=60, preexec_fn=lambda: __import__("os").close(2))
        assert (quiet.returncode, seen) == (0, ["/one", "/two"])

        # A replay stops at its first failed write too (its heading), before any step.
        recorded = tmp_path / "three.transcript"
        made = run_explorer(["--base-url", url, "--record", str(recorded), "-c", "get /one", "-c", "get /two"], env=env, cwd=tmp_path)
        assert made.returncode == 0, made.stderr
        seen.clear()
        with open("/dev/full", "w") as full:
            replayed = subprocess.run([BINARY, "replay", str(recorded)], stdout=full, stderr=subprocess.PIPE, text=True,
                                      env=env, cwd=tmp_path, timeout=60)
        assert (replayed.returncode, replayed.stderr, seen) == (3, "error: cannot write the output: no space left on device\n", [])

        # A reader gone before anything was sent: no SIGPIPE (status 141) either.
        offline = subprocess.Popen([BINARY, "--base-url", url, "--offline", "-c", "get /one"], stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL, env=env, cwd=tmp_path)
        offline.stdout.close()
        assert offline.wait(timeout=60) == 3
    finally:
        stop_http_server(server)


def test_a_file_from_windows_runs_line_by_line(tmp_path):
    # CRLF line ends and a byte order mark, as an editor on Windows writes
    # them: the file was one line ("unknown option '-b\r\nget'").
    path = tmp_path / "crlf.txt"
    path.write_bytes("\ufeffset a=1\r\n# a comment\r\n\r\nset b=2\r\nvars\r\n".encode())
    result = run_explorer(["run", str(path)], env=isolated_env(tmp_path), cwd=tmp_path)
    assert (result.returncode, result.stderr) == (0, ""), result.stderr
    assert "a = 1\nb = 2" in result.stdout, result.stdout


def test_replay_env_for_a_built_in_profile(tmp_path):
    # --env sandbox replays a built-in profile's sandbox transcript, as env
    # lists the sandbox; another name says what to do instead. Both were
    # "--env NAME needs a profile file".
    env = isolated_env(tmp_path)
    transcript = str(ROOT / "sessions" / "linku" / "create-task.transcript")
    sandboxed = run_explorer(["replay", "--env", "sandbox", transcript], env=env, cwd=tmp_path)
    assert sandboxed.returncode == 0, sandboxed.stdout + sandboxed.stderr
    elsewhere = run_explorer(["replay", "--env", "production", transcript], env=env, cwd=tmp_path)
    assert elsewhere.returncode == 2
    assert "this transcript's profile is the built-in linku: not run (without --env it runs where its header says; " \
           "to replay it against dev, test, production, give --base-url URL)" in elsewhere.stderr, elsewhere.stderr


def test_test_env_over_a_mixed_suite_skips_the_built_in_profiles_transcripts(tmp_path, http_server):
    # `explorer test suite/ --env staging` marked every built-in profile's transcript BROKEN and
    # exited 2, so a suite that held one could not run against an environment at all.
    import shutil
    import xml.etree.ElementTree as ET

    class Hello(QuietHandler):
        def do_GET(self):
            self.reply(200, b'{"ok": true}', [("Content-Type", "application/json")])

    url = base_url(http_server(Hello))
    suite = tmp_path / "suite"
    suite.mkdir()
    shutil.copy(ROOT / "sessions" / "linku" / "create-task.transcript", suite / "builtin.transcript")
    (suite / "mine.yaml").write_text(f"explorer-profile: 1\nname: mine\nenvironments:\n  staging: {{base-url: \"{url}\"}}\n")
    (suite / "mine.transcript").write_text(f"# explorer transcript v1\nprofile: ./mine.yaml\nbase-url: {url}\n\n> get /hello\nHTTP/1.0 200 OK\n"
                                           "{\"ok\": true}\n")
    env = isolated_env(tmp_path)
    result = run_explorer(["test", "suite", "--env", "staging", "--junit", "report.xml"], env=env, cwd=tmp_path, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "SKIP    suite/builtin.transcript  --env staging picks an environment of a profile file; its profile is the built-in linku" \
        in result.stdout, result.stdout
    assert "PASS    " in result.stdout and result.stdout.rstrip().endswith("1 passed, 0 failed, 1 skipped"), result.stdout
    cases = ET.parse(tmp_path / "report.xml").getroot().iter("testcase")
    skipped = [case for case in cases if case.find("skipped") is not None]
    assert skipped and all("suite/builtin.transcript" == case.get("classname") for case in skipped), ET.tostring(ET.parse(tmp_path / "report.xml").getroot())
    # One file named to `replay` is still refused: skipping it would pass a run that tested nothing.
    assert run_explorer(["replay", str(suite / "builtin.transcript"), "--env", "staging"], env=env, cwd=tmp_path).returncode == 2
    # And so is a suite all of whose transcripts are skipped: a CI job went green having tested nothing.
    (suite / "mine.transcript").unlink()
    nothing = run_explorer(["test", "suite", "--env", "staging", "--junit", "report.xml"], env=env, cwd=tmp_path, timeout=60)
    assert nothing.returncode == 2, nothing.stdout + nothing.stderr
    assert nothing.stdout.rstrip().endswith("0 passed, 0 failed, 1 skipped"), nothing.stdout
    assert nothing.stderr.endswith("error: nothing ran: every transcript was skipped (each SKIP line says why)\n"), nothing.stderr


def test_a_command_continued_with_backslashes_is_one_line_in_a_file_a_pipe_and_at_the_prompt(tmp_path, spawn):
    # A curl copied from a browser's dev tools or API docs spans lines ending
    # in `\`: each line ran alone ("a second URL", "unknown command '-H'").
    lines = ["curl {base}/api/banners \\", "  -H 'X-Trace: t-1' \\", "  -H 'X-Other: 2'", "get /api/banners \\", "", "vars"]
    from support import PROMPT
    x = spawn()
    base = re.search(r"(http://127\.0\.0\.1:\d+)", x.welcome).group(1)
    text = "\n".join(lines).replace("{base}", base) + "\n"
    path = tmp_path / "continued.txt"
    path.write_text(text)
    env = isolated_env(tmp_path)
    for result in (run_explorer(["run", str(path)], env=env, cwd=tmp_path, timeout=60),
                   run_explorer([], input=text, env=env, cwd=tmp_path, timeout=60)):
        said = result.stdout + result.stderr
        assert "unknown command" not in said and "a second URL" not in said, said
        assert result.stdout.count("HTTP/1.1 200 OK") == 2 and "profile = linku" in result.stdout, said
    x.send(lines[0].replace("{base}", base) + "\r")
    x.expect("... ")
    x.send(lines[1] + "\r")
    x.expect("... ")
    x.send(lines[2] + "\r")
    x.expect("HTTP/1.1 200 OK")
    x.expect(PROMPT)
    # Ctrl-C at `... ` drops the unfinished command: it was sent.
    x.send("post /api/tasks title=abandoned \\\r")
    x.expect("... ")
    x.send("\x03")
    x.expect("(nothing sent)")
    x.expect(PROMPT)


def test_an_open_quote_reads_on_at_the_prompt_but_not_in_a_script(tmp_path, spawn):
    # A body pasted over lines (`--data-raw '{` from a browser's "Copy as
    # cURL") ran each line alone: "unterminated single quote", then each
    # member an unknown command.
    from support import PROMPT
    x = spawn()
    x.send("post /api/tasks --offline --raw '{\r")
    x.expect("... ")
    x.send('  "title": "pasted"\r')
    x.expect("... ")
    x.send("}'\r")
    before = x.expect('"title": "pasted"')
    x.expect(PROMPT)
    assert "unknown command" not in before
    # A stray apostrophe waits too, as a shell does; an empty line drops it.
    x.send("post /api/tasks title=Bob's bike\r")
    x.expect("... ")
    x.send("\r")
    x.expect("dropped: a quote was left open (nothing sent)")
    x.expect(PROMPT)
    # In a script the quote does not take the lines after it.
    path = tmp_path / "quote.txt"
    path.write_text("post /api/tasks title=Bob's bike --offline\nvars\n")
    result = run_explorer(["run", str(path)], env=isolated_env(tmp_path), cwd=tmp_path, timeout=60)
    assert "unterminated single quote" in result.stderr and "profile = linku" in result.stdout, result.stdout + result.stderr


def test_ctrl_c_at_a_replays_secret_prompt_stops_the_run(tmp_path):
    # It did nothing (the signal went to another thread than the one reading), and `explorer test`
    # asked again for the next transcript.
    import time

    from support import pty_explorer
    for name in ("a", "b"):
        (tmp_path / f"{name}.transcript").write_text(
            "# explorer transcript v1\nprofile: generic\nbase-url: http://127.0.0.1:9\n\n> get /x?token={{secret:token}}\nHTTP/1.1 200 OK\n")
    env = isolated_env(tmp_path, drop_prefixes=("EXPLORER_SECRET_",))
    for command in (["replay", str(tmp_path / "a.transcript")], ["test", str(tmp_path)]):
        child = pty_explorer(command, env, timeout=15)
        try:
            child.expect_exact("(EXPLORER_SECRET_TOKEN is not set): ")
            time.sleep(0.3)
            pressed = time.monotonic()
            child.sendcontrol("c")
            child.expect(pexpect_eof())
            child.close()
            assert child.exitstatus == 130, (command, child.exitstatus, child.before)
            assert time.monotonic() - pressed < 5
        finally:
            child.close(force=True)


def pexpect_eof():
    import pexpect
    return pexpect.EOF


def test_replay_and_test_take_a_timeout_for_every_step(tmp_path):
    # A step slower than 30 s said "--timeout changes it", and replay refused --timeout.
    import time

    class Slow(QuietHandler):
        def do_GET(self):
            time.sleep(1.5 if self.path == "/slow" else 0)
            self.reply(200, b'{"ok": true}', [("Content-Type", "application/json")])

    server = start_http_server(Slow)
    try:
        path = tmp_path / "slow.transcript"
        path.write_text(f"# explorer transcript v1\nprofile: generic\nbase-url: {base_url(server)}\n\n"
                        "> get /fast\nHTTP/1.1 200 OK\n{\"ok\": true}\n\n> get /slow\nHTTP/1.1 200 OK\n{\"ok\": true}\n")
        env = isolated_env(tmp_path)
        for command in ("replay", "test"):
            result = run_explorer([command, "--timeout", "0.5", str(path)], env=env)
            assert result.returncode == 3, (command, result)
            assert "did not answer in time: no complete answer within 0.5 s" in result.stdout + result.stderr, (command, result)
        assert run_explorer(["replay", "--timeout", "5", str(path)], env=env).returncode == 0
        refused = run_explorer(["test", "--timeout", "0", str(path)], env=env)
        assert refused.returncode == 64 and "--timeout takes seconds from 0.001 to 3600" in refused.stderr, refused
    finally:
        stop_http_server(server)


def test_a_login_waits_as_long_as_the_timeout_given_for_the_session(tmp_path):
    # `defaults --timeout 2`, `replay --timeout 3`: a login to a silent server still waited 30 s, then said
    # "--timeout changes it".
    import time

    class SlowLogin(QuietHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            time.sleep(4)
            self.reply(200, b'{"access_token": "T0KEN-12345678"}', [("Content-Type", "application/json")])

    server = start_http_server(SlowLogin)
    try:
        profile = tmp_path / "slow.yaml"
        profile.write_text(f"explorer-profile: 1\nname: slow\nenvironments:\n  dev: {{base-url: \"{base_url(server)}\"}}\n"
                           "auth: {kind: login, login-path: /login, whoami-path: /me}\n")
        env = isolated_env(tmp_path, EXPLORER_SECRET_PASSWORD="pw")
        started = time.monotonic()
        result = run_explorer(["--profile", str(profile), "--base-url", base_url(server),
                               "-c", "defaults --timeout 0.5", "-c", "login a@b.c {{secret:password}}"], env=env)
        assert result.returncode == 3, result
        assert "no complete answer within 0.5 s" in result.stderr, result
        path = tmp_path / "login.transcript"
        path.write_text(f"# explorer transcript v1\nprofile: {profile}\nbase-url: {base_url(server)}\n\n"
                        "> login a@b.c {{secret:password}}\nnote: logged in as a@b.c\n")
        replayed = run_explorer(["replay", "--timeout", "0.5", str(path)], env=env)
        assert replayed.returncode == 3 and "no complete answer within 0.5 s" in replayed.stdout + replayed.stderr, replayed
        assert time.monotonic() - started < 7, "each waited for the server's 4 s answer"
    finally:
        stop_http_server(server)


def test_colour_for_a_terminal_on_standard_output_stays_off_a_standard_error_in_a_file(tmp_path):
    # With stdout a terminal and `2>err.log`, the log got `^[[31merror: ^[[0m…`.
    import pexpect
    log = tmp_path / "err.log"
    env = isolated_env(tmp_path, TERM="xterm")
    env.pop("NO_COLOR", None)
    child = pexpect.spawn("/bin/sh", ["-c", f'"{BINARY}" --base-url http://127.0.0.1:9 -c "get /x" -c "nope" 2>"{log}"'],
                          env=env, encoding="utf-8", timeout=20)
    child.expect(pexpect.EOF)
    child.close()
    errors = log.read_text()
    assert "error: cannot connect to 127.0.0.1:9" in errors and "\x1b" not in errors, repr(errors)
    # Asked for (--color always), it is kept.
    forced = run_explorer(["--color", "always", "--base-url", "http://127.0.0.1:9", "-c", "get /x"], env=env)
    assert "\x1b[31merror: " in forced.stderr, repr(forced.stderr)


def test_a_transcript_from_a_pipe_replays(tmp_path):
    # `replay /dev/stdin` and `replay <(…)` said "cannot be read": a pipe has no size to read by.
    text = "# explorer transcript v1\nprofile: generic\nbase-url: http://127.0.0.1:9\n\n> set a=1\n\n> set b=2\n"
    replayed = run_explorer(["replay", "/dev/stdin"], input=text, env=isolated_env(tmp_path), cwd=tmp_path)
    assert replayed.returncode == 0 and "2 steps: 2 passed" in replayed.stdout, replayed.stdout + replayed.stderr


def test_a_fifo_in_a_suite_folder_is_skipped_not_waited_on(tmp_path):
    # `explorer test DIR` opened a FIFO named *.transcript and waited for ever for a writer.
    import os
    suite = tmp_path / "suite"
    suite.mkdir()
    os.mkfifo(suite / "stuck.transcript")
    # Nothing else to serve: the mock says so and ends.
    served = run_explorer(["mock", "--port", "0", str(suite)], env=isolated_env(tmp_path), timeout=20)
    assert served.returncode == 2, served.stderr
    assert f"warning: skipped {suite / 'stuck.transcript'}: a FIFO, not a file" in served.stderr, served.stderr
    (suite / "set.transcript").write_text("# explorer transcript v1\nprofile: generic\nbase-url: http://127.0.0.1:9\n\n> set a=1\n")
    tested = run_explorer(["test", str(suite)], env=isolated_env(tmp_path), timeout=20)
    assert f"warning: skipped {suite / 'stuck.transcript'}: a FIFO, not a file" in tested.stderr, tested.stderr
    assert tested.returncode == 0 and "1 passed" in tested.stdout, tested.stdout + tested.stderr


def test_a_suite_whose_output_cannot_be_written_reports_what_did_not_run(tmp_path):
    # `explorer test DIR --junit r.xml > /dev/full` wrote the transcripts it then skipped as suites of no
    # steps, passed: CI published a green report for a suite that never ran.
    for n in range(3):
        (tmp_path / f"t{n}.transcript").write_text((ROOT / "sessions" / "linku" / "browse-tasks.transcript").read_text())
    report = tmp_path / "r.xml"
    with open("/dev/full", "w") as full:
        result = subprocess.run([BINARY, "test", str(tmp_path), "--jobs", "1", "--junit", str(report)], stdout=full, stderr=subprocess.PIPE,
                                text=True, env=isolated_env(tmp_path), cwd=tmp_path, timeout=120)
    assert result.returncode == 3, result.stderr
    xml = report.read_text()
    suites = re.findall(r'<testsuite name="[^"]*" tests="(\d+)" failures="\d+" errors="(\d+)"', xml)
    # The first ran whole before its line could not be written; the others stopped at once, and say so.
    assert len(suites) == 3 and suites[0][1] == "0", xml
    assert all(int(tests) > 0 and errors == "1" for tests, errors in suites[1:]), xml
    assert "the output could not be written" in xml


def test_a_suite_stopped_before_its_end_leaves_no_report_of_an_earlier_run(tmp_path):
    # Killed by a CI timeout (or Ctrl-C), `explorer test --junit r.xml` left the last run's report, which CI published.
    import signal
    import time
    import xml.etree.ElementTree as ElementTree

    class Slow(QuietHandler):
        def do_GET(self):
            time.sleep(5)
            self.reply(200, b"{}", [("Content-Type", "application/json")])

    server = start_http_server(Slow)
    try:
        (tmp_path / "slow.transcript").write_text("# explorer transcript v1\nprofile: generic\n"
                                                  f"base-url: {base_url(server)}\n\n> get /slow\nHTTP/1.1 200 OK\n{{}}\n\n")
        report = tmp_path / "r.xml"
        report.write_text("<testsuites tests=\"9\" failures=\"0\"/>")
        run = subprocess.Popen([BINARY, "test", str(tmp_path), "--junit", str(report)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, env=isolated_env(tmp_path), cwd=tmp_path)
        time.sleep(1.5)
        run.send_signal(signal.SIGTERM)
        run.wait(timeout=30)
        root = ElementTree.fromstring(report.read_text())
        assert root.get("errors") == "1" and "did not finish" in report.read_text()
    finally:
        stop_http_server(server)


def test_a_file_under_home_is_read_from_home(tmp_path):
    # `@~/b.json` went to the account's home, not $HOME: "no such file" with HOME set elsewhere (no shell expands it here).
    (tmp_path / "b.json").write_text('{"from": "home"}')
    result = run_explorer(["--base-url", "http://127.0.0.1:9", "--offline", "-c", "post /x @~/b.json", "-c", "post /x n:=@~/b.json"],
                          env=isolated_env(tmp_path), cwd="/")
    assert result.returncode == 0, result.stderr
    assert result.stdout.count('"from": "home"') + result.stdout.count('"from":"home"') == 2, result.stdout
