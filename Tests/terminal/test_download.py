"""`--download` through the built binary against Python's http.server: a
body past the 64 MiB that an answer may take in memory is written whole, the
file is named by Content-Disposition, the URL or -o, a taken name gets -1,
and a 404 saves nothing. Issue 14, "Saving".
"""
import hashlib
import resource
import signal
import subprocess
import time
import os

import pytest

import pexpect

from support import BINARY, QuietHandler, base_url, isolated_env, pty_explorer, run_explorer

BIG = 70 * 1024 * 1024


class Files(QuietHandler):
    big = b""
    paths = []

    def do_GET(self):
        Files.paths.append(self.path)
        if self.path == "/missing":
            self.send_error(404)
            return
        if self.path == "/moved":
            self.reply(302, b"", [("Location", "/notes.txt")])
            return
        body = Files.big if self.path.startswith("/big") else b"x" * 100_000 if self.path.startswith("/mid") else b"report\n"
        if self.path.startswith("/encoding"):
            body = (self.headers.get("Accept-Encoding") or "").encode()
        headers = [("Content-Type", "application/octet-stream")]
        if self.path.startswith("/dot"):
            headers.append(("Content-Disposition", 'attachment; filename=".bashrc"'))
        if self.path.startswith("/export"):
            headers.append(("Content-Disposition", "attachment; filename=\"../../report 2026.csv\"; filename*=UTF-8''r%C3%A9sum%C3%A9.csv"))
        self.reply(200, body, headers)


@pytest.fixture
def files(http_server):
    Files.big = os.urandom(BIG)
    return base_url(http_server(Files))


def test_download_writes_any_size_and_names_the_file_as_httpie_does(files, tmp_path):
    lines = ["get /big.bin --download", "get /export/1 -d", "get /export/1 -d", "get /notes.txt -d -o mine.txt", "get /missing -d",
             "get /dot -d", "get /encoding -d"]
    result = run_explorer(["--base-url", files], env=isolated_env(tmp_path), input="\n".join(lines) + "\n", cwd=tmp_path, timeout=120)
    said = result.stdout + result.stderr
    assert "saved 70.0 MiB to big.bin" in said, said
    assert hashlib.sha256((tmp_path / "big.bin").read_bytes()).digest() == hashlib.sha256(Files.big).digest()
    assert "saved 7 B to résumé.csv" in said and "saved 7 B to résumé-1.csv" in said, said
    assert (tmp_path / "mine.txt").read_bytes() == b"report\n"
    assert "not saved: the answer was 404" in said
    assert (tmp_path / "big.bin").stat().st_mode & 0o777 == 0o600
    assert not (tmp_path.parent / "report 2026.csv").exists(), "a name from the server never leaves the folder"
    assert (tmp_path / "encoding").read_text() == "identity", "the bytes as sent, of any size: nothing to decode in memory"
    assert "saved 7 B to bashrc" in said and not (tmp_path / ".bashrc").exists(), "nor hides itself as a dotfile, as in HTTPie"


def test_a_download_follows_a_redirect_as_httpies_does(files, tmp_path):
    # A 302 to the file saved nothing and exited 0: a ported `http --download URL` broke without a sign.
    result = run_explorer(["--base-url", files, "-c", "get /moved -d -o got.txt"], env=isolated_env(tmp_path), cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / "got.txt").read_bytes() == b"report\n"
    # --follow's own limit still holds.
    limited = run_explorer(["--base-url", files, "-c", "get /moved -d -o other.txt --max-redirects 0"], env=isolated_env(tmp_path), cwd=tmp_path)
    assert limited.returncode != 0 and not (tmp_path / "other.txt").exists(), limited.stdout + limited.stderr


def test_a_download_renamed_because_its_name_was_taken_replays(files, tmp_path):
    # Recorded as notes-1.txt (notes.txt was there), it replayed as notes.txt
    # (a replay saves into a folder of its own) and failed.
    (tmp_path / "notes.txt").write_text("mine\n")
    env = isolated_env(tmp_path)
    run_explorer(["--base-url", files, "--record", "dl.transcript"], env=env, input="get /notes.txt -d\nget /notes.txt -d\n", cwd=tmp_path, timeout=60)
    text = (tmp_path / "dl.transcript").read_text()
    assert text.count("note: saved 7 B to notes{{/(-[0-9]+)?/}}.txt\n") == 2, text
    assert (tmp_path / "notes.txt").read_text() == "mine\n" and (tmp_path / "notes-2.txt").read_bytes() == b"report\n"
    replay = run_explorer(["replay", "dl.transcript"], env=env, cwd=tmp_path, timeout=60)
    assert replay.returncode == 0, replay.stdout + replay.stderr + text


def test_a_replay_writes_no_file_outside_its_own_folder(files, tmp_path):
    # `-o /home/me/.bashrc --force` in a transcript someone else wrote replaced the file: a replay saves into a
    # folder of its own, relative names only.
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    transcript = tmp_path / "t.transcript"
    for line in (f"get /notes.txt -b -o {victim} --force", f"get /notes.txt -d -o ../{victim.name} --force", "get /notes.txt -o /dev/null"):
        transcript.write_text(f"# explorer transcript v1\nprofile: generic\nbase-url: {files}\n\n> {line}\nHTTP/1.0 200 OK\n{{{{*}}}}\n")
        replay = run_explorer(["replay", str(transcript)], env=isolated_env(tmp_path), cwd=tmp_path, timeout=60)
        said = replay.stdout + replay.stderr
        if "/dev/null" in line:
            assert "outside" not in said and "saved 7 B to /dev/null" in said, said
        else:
            assert replay.returncode != 0 and "is outside the replay's folder: a replay writes files there alone" in said, said
    assert victim.read_text() == "precious\n"


def test_a_download_from_a_server_that_stops_sending_ends_after_the_timeout(socket_server, tmp_path):
    # It hung for ever: the deadline is lifted once a download's body starts,
    # so --timeout now bounds the silence between its parts instead.
    def serve(server, connection):
        connection.recv(65536)
        connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 100000\r\n\r\n" + b"x" * 1000)
        time.sleep(20)

    port = socket_server(serve).port
    started = time.monotonic()
    result = run_explorer(["--base-url", f"http://127.0.0.1:{port}", "-c", "get /stall --download --timeout 1"],
                          env=isolated_env(tmp_path), cwd=tmp_path, timeout=15)
    assert result.returncode == 3, result.stdout + result.stderr
    assert time.monotonic() - started < 10
    assert "it sent nothing for 1 s; stopped after 1000 B; the partial file was removed" in result.stderr
    assert not (tmp_path / "stall").exists()


def assert_refused_unsent(files, tmp_path, cases):
    """Each line fails (exit 1) with its one line, and nothing reaches the server."""
    Files.paths.clear()
    for line, said in cases:
        refused = run_explorer(["--base-url", files, "-c", line], env=isolated_env(tmp_path), cwd=tmp_path)
        assert refused.returncode == 1 and refused.stderr == f"error: {said}: not sent\n", refused.stderr
    assert Files.paths == []


def test_a_name_that_cannot_be_written_is_said_before_the_request_is_sent(files, tmp_path):
    # The request went out (a POST acted on), then its answer was thrown away for the name.
    (tmp_path / "taken").write_text("mine\n")
    assert_refused_unsent(files, tmp_path, [("get /notes.txt -o taken", "taken exists; --force replaces it"),
                                            ("get /notes.txt --download -o taken", "taken exists; --force replaces it"),
                                            ("get /notes.txt -o nodir/x.txt", "cannot write nodir/x.txt: no folder nodir")])
    assert (tmp_path / "taken").read_text() == "mine\n"
    for line in ["get /notes.txt -o taken --force", "get /notes.txt --download -o taken --force"]:
        (tmp_path / "taken").write_text("mine\n")
        forced = run_explorer(["--base-url", files, "-c", line], env=isolated_env(tmp_path), cwd=tmp_path)
        assert forced.returncode == 0 and (tmp_path / "taken").read_text() == "report\n", forced.stderr


def test_save_and_show_after_a_download_say_where_the_body_went(files, tmp_path):
    # `save` wrote an empty file and said "saved 0 B"; `show` printed nothing.
    result = run_explorer(["--base-url", files, "-c", "get /notes.txt --download", "-c", "save copy.txt", "-c", "show"],
                          env=isolated_env(tmp_path), cwd=tmp_path)
    assert "error: the last body went to notes.txt (--download), not kept: nothing to save" in result.stderr, result.stderr
    assert "error: the last body went to notes.txt (--download), not kept to show" in result.stderr, result.stderr
    assert not (tmp_path / "copy.txt").exists() and (tmp_path / "notes.txt").read_text() == "report\n"


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_script_download_ended_by_a_signal_leaves_no_part_behind(socket_server, tmp_path, stop):
    # Only the REPL removed a download stopped half-way: a script's, ended by Ctrl-C, SIGTERM or
    # SIGHUP, left its part, and with --force a hidden .NAME.XXXXXX beside the file it was to replace.
    def serve(server, connection):
        connection.recv(65536)
        connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 100000\r\n\r\n" + b"x" * 1000)
        time.sleep(20)

    port = socket_server(serve).port
    (tmp_path / "kept.bin").write_text("mine\n")
    for line, name in [("get /stall --download -o new.bin", "new.bin"), ("get /stall --download -o kept.bin --force", "kept.bin")]:
        run = subprocess.Popen([BINARY, "--base-url", f"http://127.0.0.1:{port}", "-c", line], env=isolated_env(tmp_path), cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and not any(p.stat().st_size >= 1000 for p in tmp_path.iterdir() if p.name.endswith(".bin")
                                                       or p.name.startswith(".kept.bin.")):
            time.sleep(0.05)
        run.send_signal(stop)
        run.communicate(timeout=15)
        assert run.returncode == -stop, run.returncode
        assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.bin"], name
        assert (tmp_path / "kept.bin").read_text() == "mine\n"


@pytest.mark.parametrize("term", ["xterm", "dumb"])
def test_a_one_shot_download_at_a_terminal_shows_its_progress_unless_term_is_dumb(socket_server, tmp_path, term):
    # The progress line was the REPL's alone: `explorer URL get /x -d` at a terminal showed nothing for seconds;
    # and under TERM=dumb the REPL still wrote its escape codes.
    def serve(server, connection):
        connection.recv(65536)
        connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 4000\r\n\r\n")
        for _ in range(4):
            connection.sendall(b"x" * 1000)
            time.sleep(0.4)

    port = socket_server(serve).port
    target = tmp_path / "slow.bin"
    child = pty_explorer(["--base-url", f"http://127.0.0.1:{port}", "get", "/slow", "--download", "-o", str(target)],
                         dict(isolated_env(tmp_path), TERM=term), timeout=20)
    child.expect(pexpect.EOF)
    said = child.before
    child.close()
    assert f"saved 3.9 KiB to {target}" in said and target.stat().st_size == 4000, said
    if term == "dumb":
        assert "downloading" not in said and "\x1b[K" not in said, repr(said)
    else:
        assert "\x1b[Kdownloading " in said and " of 3.9 KiB (" in said, repr(said)


def test_a_file_that_could_not_be_written_whole_is_not_left_behind(files, tmp_path):
    # On a full disk `-o` said "not saved" and left 64 KiB of the body, which then stood in the way of a retry.
    def small_files():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (50_000, 50_000))

    result = subprocess.run([BINARY, "--base-url", files, "-c", "get /mid -o part.bin", "-c", "save part2.bin"], env=isolated_env(tmp_path),
                            cwd=tmp_path, capture_output=True, text=True, timeout=30, preexec_fn=small_files)
    assert result.returncode == 3, result.stderr
    assert result.stderr.count("nothing was kept") == 2, result.stderr
    assert not (tmp_path / "part.bin").exists() and not (tmp_path / "part2.bin").exists()


def test_a_file_that_force_was_to_replace_is_kept_when_the_new_one_cannot_be_written(files, tmp_path):
    # `-o FILE --force` cut the old file, then unlinked it when the disk filled: both bodies lost.
    def small_files():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (50_000, 50_000))

    for name in ["a.bin", "b.bin", "c.bin"]:
        (tmp_path / name).write_text("mine\n")
    lines = ["get /mid -o a.bin --force", "save b.bin --force", "get /mid --download -o c.bin --force"]
    result = subprocess.run([BINARY, "--base-url", files] + [part for line in lines for part in ["-c", line]], env=isolated_env(tmp_path),
                            cwd=tmp_path, capture_output=True, text=True, timeout=30, preexec_fn=small_files)
    assert result.returncode == 3, result.stderr
    for name in ["a.bin", "b.bin", "c.bin"]:
        assert f"{name} was left as it was" in result.stderr, result.stderr
        assert (tmp_path / name).read_text() == "mine\n"
    assert sorted(path.name for path in tmp_path.iterdir() if path.name.endswith(".bin")) == ["a.bin", "b.bin", "c.bin"]


def test_a_file_size_limit_is_said_as_a_write_that_failed(files, tmp_path):
    # `ulimit -f`: SIGXFSZ ended the process without a word.
    def small_files():
        resource.setrlimit(resource.RLIMIT_FSIZE, (50_000, 50_000))

    result = subprocess.run([BINARY, "--base-url", files, "-c", "get /mid -o part.bin"], env=isolated_env(tmp_path),
                            cwd=tmp_path, capture_output=True, text=True, timeout=30, preexec_fn=small_files)
    assert result.returncode == 3, (result.returncode, result.stderr)
    assert "error: not saved: cannot write part.bin: File too large; nothing was kept" in result.stderr, result.stderr


def test_a_device_is_written_as_it_is_and_never_removed(files, tmp_path):
    # As root, a failed write to /dev/full with --force unlinked the device node.
    # `-o /dev/null` was refused without --force ("exists"), where curl's needs nothing.
    result = run_explorer(["--base-url", files, "-c", "get /notes.txt -o /dev/null", "-c", "save /dev/full"],
                          env=isolated_env(tmp_path), cwd=tmp_path)
    assert "saved 7 B to /dev/null" in result.stdout, result.stdout
    assert "error: cannot write /dev/full: No space left on device; part of it may have gone to /dev/full" in result.stderr, result.stderr
    assert os.path.exists("/dev/full") and os.path.exists("/dev/null")


def test_force_keeps_the_replaced_files_mode_and_links_and_takes_a_long_name(files, tmp_path):
    # Replaced by a file renamed over it, a 0644 file became 0600 and its hard link kept the old body;
    # a 250-byte name failed ("File name too long": the file beside it had 8 bytes more).
    shared = tmp_path / "shared.txt"
    shared.write_text("old\n")
    shared.chmod(0o644)
    os.link(shared, tmp_path / "link.txt")
    long = "x" * 250
    (tmp_path / long).write_text("old\n")
    result = run_explorer(["--base-url", files, "-c", "get /notes.txt -o shared.txt --force", "-c", f"get /notes.txt -o {long} --force"],
                          env=isolated_env(tmp_path), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "link.txt").read_text() == "report\n" and shared.stat().st_mode & 0o777 == 0o644
    assert (tmp_path / long).read_text() == "report\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == [], "nothing left beside them"


def test_standard_output_by_its_path_needs_no_force_and_an_empty_name_is_refused(files, tmp_path):
    # `-o /dev/stdout` was "exists; --force replaces it", then with --force "a symbolic link".
    result = run_explorer(["--base-url", files, "get", "/notes.txt", "-o", "/dev/stdout"], env=isolated_env(tmp_path), cwd=tmp_path)
    assert result.returncode == 0 and result.stdout.startswith("report\n"), result.stdout + result.stderr
    Files.paths.clear()
    empty = run_explorer(["--base-url", files, "-c", "get /notes.txt -o ''"], env=isolated_env(tmp_path), cwd=tmp_path)
    assert empty.returncode == 1 and "-o needs a file name (or - for standard output)" in empty.stderr, empty.stderr
    assert Files.paths == []


def test_a_symbolic_link_is_not_written_through(files, tmp_path):
    # `-o link` with a dangling link made the file it named (a link left in a shared folder chose where the body went),
    # and `--force` wrote through a link to the file it named.
    (tmp_path / "target.txt").write_text("mine\n")
    (tmp_path / "dangling").symlink_to(tmp_path / "made-by-link")
    (tmp_path / "link").symlink_to(tmp_path / "target.txt")
    assert_refused_unsent(files, tmp_path, [
        ("get /notes.txt -o dangling", "dangling exists; --force replaces it"),
        ("get /notes.txt -o link --force", "link is a symbolic link; give the path of the file it points to"),
        ("get /notes.txt --download -o dangling --force", "dangling is a symbolic link; give the path of the file it points to")])
    saved = run_explorer(["--base-url", files, "-c", "get /notes.txt", "-c", "save dangling", "-c", "save link --force"],
                         env=isolated_env(tmp_path), cwd=tmp_path)
    assert "error: dangling exists; save dangling --force replaces it" in saved.stderr, saved.stderr
    assert "error: link is a symbolic link; give the path of the file it points to" in saved.stderr, saved.stderr
    assert not (tmp_path / "made-by-link").exists() and (tmp_path / "target.txt").read_text() == "mine\n"
    assert (tmp_path / "link").is_symlink() and (tmp_path / "dangling").is_symlink()


def test_a_one_character_file_name_is_written(files, tmp_path):
    # `-o a`, `save a` and `--record b` crashed the process (Foundation's
    # deletingLastPathComponent traps on a one-character name on Linux).
    lines = ["get /notes.txt -o a", "get /notes.txt -d -o é", "get /notes.txt", "save s"]
    result = run_explorer(["--base-url", files, "--record", "b"], env=isolated_env(tmp_path), input="\n".join(lines) + "\n",
                          cwd=tmp_path, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    for name in ("a", "é", "s"):
        assert (tmp_path / name).read_bytes() == b"report\n", name
    assert "get /notes.txt -o a" in (tmp_path / "b").read_text()


def test_o_dash_into_a_pipe_writes_the_bodys_bytes_as_curl_does(http_server, tmp_path):
    """`-o -` wrote the JSON shown again, indented and re-encoded: a checksum
    of it differed from curl's and from the file `-o FILE` wrote."""
    body = b'{"id":42,  "name":"h\\u00e9llo", "n": 1.0}'

    class Compact(QuietHandler):
        def do_GET(self):
            self.reply(200, body, [("Content-Type", "application/json")])

    url = base_url(http_server(Compact))
    env = isolated_env(tmp_path)
    piped = subprocess.run([BINARY, "--base-url", url, "get", "/x", "-o", "-"], env=env, cwd=tmp_path, capture_output=True, timeout=30)
    assert piped.returncode == 0 and piped.stdout == body, piped.stdout + piped.stderr
    # -b stays what it was: the JSON shown, for jq and a reader.
    shown = subprocess.run([BINARY, "--base-url", url, "get", "/x", "-b"], env=env, cwd=tmp_path, capture_output=True, timeout=30)
    assert shown.stdout.startswith(b'{\n  "id": 42,'), shown.stdout
