"""Large answers through the built binary against Python's http.server
(issue 15, goal 1): a body past what is kept in memory is spooled to a
private file, shown cut, and `save` writes it whole; past the 64 MiB that
`show` reads, it still is, and `show` says why it will not. Before, a body
over 64 MiB failed the request ("response ... is too large").
"""
import gzip
import hashlib
import json
import subprocess
import time

import pytest

from support import BINARY, QuietHandler, base_url, isolated_env, run_explorer


def document(count):
    """A JSON list of `count` items, about 100 bytes each."""
    item = '{"id": %d, "title": "Task %d \u00e9", "notes": "a line of text, generated for the test"}'
    return ('{"items": [' + ", ".join(item % (n, n) for n in range(count)) + '], "total": %d}' % count).encode()


class Bodies(QuietHandler):
    medium = b""
    huge = b""
    zipped = b""
    indented = b""
    picture = b"\x89PNG\r\n\x1a\n\x00\x00" + bytes(range(256)) * 40

    def do_GET(self):
        json_type = [("Content-Type", "application/json")]
        if self.path == "/medium":
            self.reply(200, Bodies.medium, json_type)
        elif self.path == "/huge":
            self.reply(200, Bodies.huge, json_type)
        elif self.path == "/zipped":
            self.reply(200, Bodies.zipped, json_type + [("Content-Encoding", "gzip")])
        elif self.path == "/failing":
            self.reply(500, b'{"code": "EXPORT_FAILED", "message": "the export broke", "partial": ' + Bodies.medium + b"}", json_type)
        elif self.path == "/indented":
            self.reply(200, Bodies.indented, json_type)
        elif self.path == "/picture":
            self.reply(200, Bodies.picture, [("Content-Type", "image/png")])
        elif self.path == "/broken":
            self.reply(200, Bodies.medium[:-3] + b"x}", json_type)
        else:
            self.send_error(404)


@pytest.fixture(scope="module")
def bodies():
    Bodies.medium = document(30_000)          # about 2.6 MiB: spooled, read back whole by show
    Bodies.huge = document(720_000)           # about 70 MiB: past what show reads
    Bodies.zipped = gzip.compress(Bodies.huge, compresslevel=1)
    # Its first 1 MiB prints shorter than a preview: deep indents become two spaces.
    Bodies.indented = json.dumps({"items": [{"id": n} for n in range(20_000)]}, indent=60).encode()
    return Bodies


@pytest.fixture
def server(http_server, bodies):
    return base_url(http_server(Bodies))


def mib(body):
    return "%.1f MiB" % (len(body) / 1024 / 1024)


def spool_files(folder):
    return [p for p in folder.rglob("explorer-body.*")]


def test_a_body_past_what_is_kept_is_shown_cut_and_read_back_whole(server, bodies, tmp_path):
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    lines = ["get /failing", "get /medium", "show .total", "capture last .items[29999].id", "save medium.json", "get /broken",
             "show .total", "get /indented"]
    result = run_explorer(["--base-url", server], env=isolated_env(tmp_path, TMPDIR=str(temporary)),
                          input="\n".join(lines) + "\n", cwd=tmp_path, timeout=120)
    said = result.stdout + result.stderr
    # A large error page's envelope is read from its start, not the whole read back and parsed.
    assert "error: 500 EXPORT_FAILED: the export broke" in said, said[:3000]
    assert '"id": 0,' in said and '"title": "Task 0 é"' in said, said[:2000]
    assert f"… the rest of the {mib(bodies.medium)} body is not shown; `show` prints it all" in said, said[-3000:]
    assert "\n30000\n" in said and "\n29999\n" in said
    assert (tmp_path / "medium.json").read_bytes() == bodies.medium
    # Broken past the start kept in memory: found on the way to disk, where the parser would find it.
    broken = bodies.medium[:-3] + b"x}"
    column = len(broken.decode()) - 1
    assert f"is not valid JSON (expected ',' or '}}', found 'x' at line 1, column {column}); shown as text" in said, said[-3000:]
    assert "error: the last response is not JSON" in said
    assert result.stdout.rstrip().endswith(f"… the rest of the {mib(bodies.indented)} body is not shown; `show` prints it all"), \
        "a spooled body's start is never shown as if it were the whole"
    assert spool_files(tmp_path) == [], "the spool file never has a name on disk"


def test_a_body_past_64_mib_is_no_longer_refused(server, bodies, tmp_path):
    lines = ["get /huge", "show .total", "save huge.json", "get /zipped", "save unzipped.json"]
    result = run_explorer(["--base-url", server], env=isolated_env(tmp_path), input="\n".join(lines) + "\n",
                          cwd=tmp_path, timeout=240)
    said = result.stdout + result.stderr
    assert "too large" not in said, said[-2000:]
    size = mib(bodies.huge)
    assert f"… the rest of the {size} body is not shown; `save FILE` writes it all" in said, said[-2000:]
    assert f"error: the body is {size}, more than the 64 MiB `show` and `capture` read; `save FILE` writes it whole" in said
    assert f"saved {size} to huge.json" in said and f"saved {size} to unzipped.json" in said, said[-2000:]
    digest = hashlib.sha256(bodies.huge).digest()
    assert hashlib.sha256((tmp_path / "huge.json").read_bytes()).digest() == digest
    assert hashlib.sha256((tmp_path / "unzipped.json").read_bytes()).digest() == digest, "gzip decoded as it came, whole"
    assert json.loads((tmp_path / "huge.json").read_bytes())["total"] == 720_000


def test_the_body_alone_into_a_pipe_is_whole_for_a_program_to_read(server, bodies, tmp_path):
    """`-b` piped (`explorer -c 'get /x -b' | jq`) is for a program: the
    whole body, as `show` reads it, where the terminal's preview cut it
    after 256 KiB and jq read a broken JSON. Secrets stay hidden; a binary
    body is its bytes (`> photo.png`), as curl and HTTPie write them; past
    the 64 MiB `show` reads, nothing, and an error (half a document with a
    success status would mislead the program)."""
    env = isolated_env(tmp_path)
    whole = run_explorer(["--base-url", server, "-c", "get /medium -b"], env=env, cwd=tmp_path, timeout=120)
    assert whole.returncode == 0, whole.stderr
    assert json.loads(whole.stdout) == json.loads(bodies.medium), whole.stdout[-300:]
    assert "not shown" not in whole.stdout + whole.stderr
    # Not alone, the body is the terminal's preview still.
    shown = run_explorer(["--base-url", server, "-c", "get /medium"], env=env, cwd=tmp_path, timeout=120)
    assert f"… the rest of the {mib(bodies.medium)} body is not shown" in shown.stdout
    huge = run_explorer(["--base-url", server, "-c", "get /huge -b"], env=env, cwd=tmp_path, timeout=240)
    assert huge.returncode == 3 and huge.stdout == "", huge.stdout[-300:]
    assert huge.stderr == f"error: the body is {mib(bodies.huge)}, more than the 64 MiB printed whole into a pipe; " \
                          "-o FILE or `save FILE` writes it (nothing written)\n", huge.stderr
    picture = subprocess.run([BINARY, "--base-url", server, "-c", "get /picture -b"], env=env, cwd=tmp_path,
                             capture_output=True, timeout=60)
    assert picture.returncode == 0 and picture.stdout == Bodies.picture and picture.stderr == b"", picture.stderr


class LongStream(QuietHandler):
    """JSON lines, 1,100 of 65 KB: a stream longer than the 64 MiB kept of one."""
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for n in range(1100):
            line = b'{"n": %d, "pad": "%s"}\n' % (n, b"x" * 65000)
            self.wfile.write(b"%x\r\n%s\r\n" % (len(line), line))
        self.wfile.write(b"0\r\n\r\n")


def test_saving_a_stream_longer_than_what_is_kept_says_it_is_the_start(http_server, tmp_path):
    # In the REPL a stream is shown as it comes and its first 64 MiB kept;
    # `save` said "saved 64.0 MiB" of 71.6 MB as if that were all of it.
    import pexpect

    url = base_url(http_server(LongStream))
    child = pexpect.spawn(BINARY, ["--base-url", url], env=isolated_env(tmp_path), cwd=str(tmp_path),
                          encoding="utf-8", codec_errors="replace", timeout=120, maxread=1 << 20)
    try:
        child.expect("> ")
        child.sendline("get /lines")
        child.expect("1100 lines streamed above")
        child.expect("> ")
        child.sendline("save lines.ndjson")
        child.expect("saved 64.0 MiB to lines.ndjson: the start of a streamed answer; the rest was shown as it came, not kept")
        child.expect("> ")
        child.sendline("exit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert (tmp_path / "lines.ndjson").stat().st_size == 64 * 1024 * 1024


def test_ctrl_c_at_once_after_a_long_show_stops_it(spawn, server):
    # Pressed before the text was made, the line's wait took the press: the 12 MB printed whole after it.
    prompt = server.split("//")[1] + "> "
    x = spawn("--base-url", server, prompt=prompt)
    x.run("get /medium -h", prompt=prompt)
    x.send("show\r")
    time.sleep(0.05)
    x.send("\x03")
    shown = x.expect(prompt, timeout=30)
    assert "(stopped: Ctrl-C)" in shown, shown[-300:]
    assert '"total": 30000' not in shown, "not printed to its end"


def test_ctrl_c_while_a_long_show_is_being_made_stops_it(spawn, server):
    # A Ctrl-C pressed while `show` pretty-printed the body was thrown away, and all of it printed after.
    prompt = server.split("//")[1] + "> "
    x = spawn("--base-url", server, prompt=prompt)
    x.run("get /medium -h", prompt=prompt)
    x.send("show\r")
    time.sleep(0.15)  # while the body is pretty-printed (about 0.4 s), before any of it is written
    x.send("\x03")
    shown = x.expect(prompt, timeout=30)
    assert "(stopped: Ctrl-C)" in shown, shown[-300:]
    assert '"total": 30000' not in shown, "not printed to its end"
