"""HTTPie's request-line options through the built binary, against a small
server of Python's standard library that behaves as real ones do:
redirects, cookies, a slow answer, a form.
"""
import base64
import gzip
import json
import re
import os
import subprocess
import time
import urllib.parse

import pytest

from support import BINARY, QuietHandler, base_url, isolated_env, run_explorer


class Backend(QuietHandler):
    protocol_version = "HTTP/1.1"
    # (port, path, Cookie header) of every request: what reached the servers.
    seen = []
    # (port, path, Authorization header) of every request.
    auth = []
    # The client's address of every connection the servers accepted.
    connections = []
    # (port, path, {name: value}) of the credential-like headers typed in the tests.
    typed = []
    # (port, path, query) of every request.
    queries = []

    def setup(self):
        Backend.connections.append(self.client_address)
        super().setup()

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        path = urllib.parse.urlsplit(self.path).path
        Backend.seen.append((self.server.server_address[1], path, self.headers.get("Cookie")))
        Backend.auth.append((self.server.server_address[1], path, self.headers.get("Authorization")))
        Backend.queries.append((self.server.server_address[1], path, urllib.parse.urlsplit(self.path).query))
        Backend.typed.append((self.server.server_address[1], path,
                              {name: self.headers[name] for name in ("X-Api-Key", "X-Note", "Proxy-Authorization", "X-Trace", "X-CSRFToken") if name in self.headers}))
        if path == "/old":
            self.reply(302, b"moved", [("Location", "/new")])
        elif path == "/elsewhere-with-query":
            # A server that copies the request's query into the Location (the profile's api_key with it).
            self.reply(302, b"", [("Location", self.headers["X-Other"] + "/landing?" + urllib.parse.urlsplit(self.path).query)])
        elif path == "/elsewhere":
            self.reply(307, b"", [("Location", self.headers["X-Other"] + "/landing")])
        elif path == "/login":
            self.reply(200, b'{"ok": true}', [("Content-Type", "application/json"), ("Set-Cookie", "sid=c00kie-s3cret; Path=/; HttpOnly")])
        elif path == "/gzip":
            packed = gzip.compress(json.dumps({"accept_encoding": self.headers.get("Accept-Encoding"), "packed": True}).encode())
            self.reply(200, packed, [("Content-Type", "application/json"), ("Content-Encoding", "gzip")])
        elif path == "/cut-gzip":
            # A gzip body whose trailer (CRC and size) never came.
            self.reply(200, gzip.compress(b'{"hello": "world"}')[:-8], [("Content-Type", "text/plain"), ("Content-Encoding", "gzip")])
        elif path == "/not-gzip":
            # A server that says gzip and sends its JSON plain.
            self.reply(200, b'{"plain": 1}', [("Content-Type", "application/json"), ("Content-Encoding", "gzip")])
        elif path == "/br":
            self.reply(200, bytes(range(40)), [("Content-Type", "application/json"), ("Content-Encoding", "br")])
        elif path == "/png":
            self.reply(200, b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", [("Content-Type", "image/png")])
        elif path == "/head":
            # The request's head as one string, as httpbin's /headers or a debugging endpoint gives it back.
            head = "".join(f"{name}: {value}\n" for name, value in self.headers.items())
            self.reply(200, json.dumps({"head": head}).encode(), [("Content-Type", "application/json")])
        elif path == "/slow":
            time.sleep(3)
            self.reply(200, b"late")
        else:
            echo = {"method": self.command, "path": self.path, "cookie": self.headers.get("Cookie"),
                    "authorization": self.headers.get("Authorization"),
                    "content_type": self.headers.get("Content-Type"), "body": body.decode()}
            self.reply(200, json.dumps(echo).encode(), [("Content-Type", "application/json")])

    do_GET = do_POST = do_HEAD = answer


@pytest.fixture
def backend(http_server):
    Backend.seen = []
    Backend.auth = []
    Backend.connections = []
    Backend.typed = []
    Backend.queries = []
    return base_url(http_server(Backend)), base_url(http_server(Backend))


def explorer(base, lines, tmp_path):
    return run_explorer(["--base-url", base], env=isolated_env(tmp_path), input="\n".join(lines) + "\n", cwd=tmp_path)


def test_requests_share_one_connection_and_open_no_other(backend, tmp_path):
    # async-http-client, asked to keep a request's channel on one event loop,
    # opened a second connection beside the first for every `-c` request.
    result = explorer(backend[0], ["get /a", "get /b", "get /c"], tmp_path)
    assert result.returncode == 0, result.stderr
    one = run_explorer(["--base-url", backend[1], "-c", "get /one"], env=isolated_env(tmp_path), cwd=tmp_path)
    assert one.returncode == 0, one.stderr
    time.sleep(0.5)  # a connection the explorer opened and left is accepted late
    ports = [port for _, port in Backend.connections]
    assert len(ports) == 2, Backend.connections
    assert [path for _, path, _ in Backend.seen] == ["/a", "/b", "/c", "/one"]


def test_a_session_cookie_an_answer_echoes_is_not_written_in_clear(backend, tmp_path):
    # The jar's cookie, never typed, echoed inside a string (`"head": "…Cookie: sid=…"`): the screen hid
    # it, the recording wrote it in clear.
    base, _ = backend
    record = tmp_path / "cookie.transcript"
    result = run_explorer(["--base-url", base, "--record", str(record)], env=isolated_env(tmp_path), cwd=tmp_path,
                          input="post /login\nget /head\n")
    assert "c00kie-s3cret" not in result.stdout + result.stderr, result.stdout
    text = record.read_text()
    assert "c00kie-s3cret" not in text and "Cookie: sid={{secret:sid}}" in text, text
    replay = run_explorer(["replay", str(record), "--base-url", base], env=isolated_env(tmp_path), cwd=tmp_path)
    assert replay.returncode == 0, replay.stdout + replay.stderr


def test_a_redirect_is_shown_with_its_location_and_followed_on_request(backend, tmp_path):
    base, _ = backend
    result = explorer(base, ["get /old", "get /old --follow", "get /old -F -v"], tmp_path)
    out = result.stdout
    assert "HTTP/1.1 302 Found" in out and "Location: /new" in out
    assert out.count('"path": "/new"') == 2
    # -v shows each hop: the first request, its 302, then the request to /new.
    verbose = out[out.rindex("GET /old HTTP/1.1"):]
    assert verbose.index("HTTP/1.1 302") < verbose.index("GET /new HTTP/1.1")


def test_cookies_are_kept_sent_back_and_hidden_on_screen(backend, tmp_path):
    base, other = backend
    result = explorer(base, ["post /login -h", "get /echo", f"get {other}/echo", "get /echo -v", "get /echo --curl", f"get {other}/echo --curl",
                             "cookies", "get /echo --offline", "logout", "cookies clear", "get /echo"], tmp_path)
    out = result.stdout
    # A cookie login has no login of explorer's for logout to end: it says how the cookies go.
    assert "not logged in; the session holds 1 cookie (cookies clear forgets them)" in out, out
    # --curl sends the cookies the request would carry (it left them out), each value a shell variable.
    assert out.count("-H 'Cookie: sid='\"$SID\"") == 1, out
    assert "Set-Cookie: sid=<hidden: 13 characters>; Path=/; HttpOnly" in out
    assert "Cookie: sid=<hidden: 13 characters>" in out
    # --offline shows the cookies the request would carry, as -v does (it left them out).
    assert out.split("GET /echo HTTP/1.1")[-1].count("Cookie: sid=<hidden: 13 characters>") == 1, out
    # The echoed header is a member named cookie: hidden too.
    assert "c00kie-s3cret" not in out + result.stderr
    assert [cookie for _, path, cookie in Backend.seen] == [None, "sid=c00kie-s3cret", None, "sid=c00kie-s3cret", None]
    port = base.rsplit(":", 1)[1]
    assert f"sid=<hidden: 13 characters>  127.0.0.1:{port}, path /, httponly, for the session" in out
    assert "forgot 1 cookie" in result.stderr, "in a script, what a setting says back is on standard error"
    assert Backend.seen[2][0] == int(other.rsplit(":", 1)[1]), "the other server got no cookie"


def test_a_cookie_past_its_time_is_not_listed_and_capture_says_it_expired(http_server, tmp_path):
    # `cookies` listed a cookie whose Max-Age had passed until the next request, and `capture` blamed the
    # cookie's origin ("one is held for 127.0.0.1:PORT/", the very origin asked).
    class Short(QuietHandler):
        def do_GET(self):
            self.reply(200, b"{}", [("Content-Type", "application/json"), ("Set-Cookie", "short=s3cr3t-value; Max-Age=1; Path=/"),
                                    ("Set-Cookie", "long=kept-value; Path=/")])

    server = http_server(Short)
    child = subprocess.Popen([BINARY, "--base-url", f"http://127.0.0.1:{server.server_address[1]}"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=isolated_env(tmp_path), cwd=tmp_path)
    child.stdin.write("get /set\n")
    child.stdin.flush()
    time.sleep(2.5)
    out, err = child.communicate("cookies\ncapture s = cookie:short\n", timeout=20)
    assert "long=<hidden: 10 characters>" in out and "short=" not in out, out
    assert "stdin:3: error: the cookie named short expired (Max-Age or Expires); the session holds long" in err, err


def test_a_cookie_or_a_header_is_captured_sent_back_hidden_and_replayed(backend, tmp_path):
    # Django and Rails want the csrftoken cookie back in a header; a 302 names where to go: neither could be
    # captured (capture read only JSON bodies), so a recorded CSRF flow failed against a fresh server.
    base, _ = backend
    record = tmp_path / "csrf.transcript"
    result = run_explorer(["--base-url", base, "--record", str(record)], env=isolated_env(tmp_path), cwd=tmp_path,
                          input="post /login\ncapture csrf = cookie:sid\nget /old\ncapture next = header:Location\n"
                                "post /echo X-CSRFToken:{{csrf}} went={{next}}\ncapture nope = header:X-Missing\nvars\n"
                                "post /echo note={{csrf}} -v\nset copy={{csrf}}\nvars\n")
    out = result.stdout + result.stderr
    assert "c00kie-s3cret" not in out, out
    assert "error: the last response has no X-Missing header (it has " in out, out
    # A cookie's value is a credential: hidden in vars as a typed secret is.
    assert re.search(r"csrf\s+=?\s*<hidden: 13 characters>", out), out
    # What reached the server: the cookie's value in the header, the Location in the body.
    assert [typed for _, path, typed in Backend.typed if path == "/echo"] == [{"X-CSRFToken": "c00kie-s3cret"}, {}], Backend.typed
    assert [cookie for _, path, cookie in Backend.seen if path == "/echo"] == ["sid=c00kie-s3cret"] * 2, Backend.seen
    text = record.read_text()
    assert "c00kie-s3cret" not in text, text
    assert "> capture csrf = cookie:sid\n" in text and "> capture next = header:Location\n" in text, text
    assert "> post /echo X-CSRFToken:{{csrf}} went={{next}}\n" in text, text
    replay = run_explorer(["replay", str(record), "--base-url", base], env=isolated_env(tmp_path), cwd=tmp_path)
    assert replay.returncode == 0 and "10 steps: 10 passed" in replay.stdout, replay.stdout + replay.stderr
    # A replay that differs where the captured value shows says so without showing it.
    text = record.read_text()
    assert '"body": "{\\"note\\":\\"{{csrf}}\\"}"' in text, text
    record.write_text(text.replace('"body": "{\\"note\\":\\"{{csrf}}\\"}"', '"body": "nope"'))
    replay = run_explorer(["replay", str(record), "--base-url", base], env=isolated_env(tmp_path), cwd=tmp_path)
    assert replay.returncode == 4 and "c00kie-s3cret" not in replay.stdout + replay.stderr, replay.stdout + replay.stderr
    assert [typed for _, path, typed in Backend.typed if path == "/echo"][-2] == {"X-CSRFToken": "c00kie-s3cret"}, Backend.typed


def test_max_redirects_alone_follows_nothing_and_says_so(backend, tmp_path):
    # It followed: HTTPie, xh and curl count the redirects --follow follows, and follow none without it.
    base, _ = backend
    out = explorer(base, ["get /old --max-redirects 3", "get /old --follow --max-redirects 3"], tmp_path).stdout
    first, second = out.split("HTTP/1.1 ")[1:3]
    assert first.startswith("302 Found") and "not followed: --max-redirects counts the redirects --follow follows" in first, out
    assert "/new" in second and "not followed" not in second, out
    # A line's --no-follow under `defaults --follow --max-redirects 2` said --max-redirects was the reason.
    refused = explorer(base, ["defaults --follow --max-redirects 2", "get /old --no-follow"], tmp_path).stdout
    assert "302 Found" in refused and "not followed" not in refused, refused


def test_a_redirect_to_another_origin_drops_the_typed_authorization(backend, tmp_path):
    base, other = backend
    result = explorer(base, [f"get /elsewhere X-Other:{other} Authorization:'Basic dXNlcjpwdw==' --follow"], tmp_path)
    assert '"path": "/landing"' in result.stdout
    assert '"authorization": null' in result.stdout


def test_a_redirect_to_another_origin_drops_every_credential_typed_on_the_line(backend, tmp_path):
    # X-Api-Key, Proxy-Authorization and a header holding a {{secret:}} went on to the other origin.
    base, other = backend
    env = isolated_env(tmp_path, EXPLORER_SECRET_TOK="tok-s3cret-xyz")
    line = (f"get /elsewhere X-Other:{other} X-Api-Key:k3y-typed X-Note:{{{{secret:tok}}}} "
            "Proxy-Authorization:'Basic eHg6eXk=' X-Trace:t-1 --follow")
    result = run_explorer(["--base-url", base], env=env, input=line + "\n", cwd=tmp_path)
    assert '"path": "/landing"' in result.stdout, result.stdout + result.stderr
    first, landing = Backend.typed
    assert first[2] == {"X-Api-Key": "k3y-typed", "X-Note": "tok-s3cret-xyz", "Proxy-Authorization": "Basic eHg6eXk=", "X-Trace": "t-1"}
    assert landing[1] == "/landing" and landing[2] == {"X-Trace": "t-1"}, landing


def test_a_307_to_another_origin_with_a_secret_in_its_body_is_not_followed(backend, tmp_path):
    # The body went again to the other origin, its password and client secret with it.
    base, other = backend
    result = explorer(base, [f"post /elsewhere X-Other:{other} password=Pa55word1 client_secret=ClSec999 --follow",
                             f"post /elsewhere X-Other:{other} --form password=Pa55word1 --follow",
                             f"post /elsewhere X-Other:{other} title=plain --follow"], tmp_path)
    other_port = int(other.rsplit(":", 1)[1])
    landings = [entry for entry in Backend.seen if entry[0] == other_port]
    assert len(landings) == 1, (Backend.seen, result.stdout, result.stderr)  # only the plain body went on
    assert (f"error: not following the 307 redirect: it would send the body, with its password, client_secret, again to another origin, "
            f"{other} (send it there yourself if it belongs there)") in result.stderr, result.stderr
    assert "Pa55word1" not in result.stdout + result.stderr


def test_a_307_to_another_origin_with_a_secret_under_any_name_in_its_body_is_not_followed(backend, tmp_path):
    # `note={{secret:key}}`, a form, --raw, a nested field, a captured secret: the body went on to the other
    # origin, the secret with it, though the same value in a header stayed behind.
    base, other = backend
    env = isolated_env(tmp_path, EXPLORER_SECRET_KEY="EnvSecret4455")
    lines = [f"post /elsewhere X-Other:{other} note={{{{secret:key}}}} --follow",
             f"post /elsewhere X-Other:{other} --form note={{{{secret:key}}}} --follow",
             f"post /elsewhere X-Other:{other} --raw 'k={{{{secret:key}}}}' --follow",
             f"post /elsewhere X-Other:{other} data[x]={{{{secret:key}}}} --follow",
             "set plain=not-a-secret",
             f"post /elsewhere X-Other:{other} note={{{{plain}}}} --follow"]
    result = run_explorer(["--base-url", base], env=env, input="\n".join(lines) + "\n", cwd=tmp_path)
    other_port = int(other.rsplit(":", 1)[1])
    landings = [entry for entry in Backend.seen if entry[0] == other_port]
    assert len(landings) == 1, (Backend.seen, result.stdout, result.stderr)  # only the plain body went on
    refusal = (f"error: not following the 307 redirect: it would send the body, which holds a secret, again to another origin, "
               f"{other} (send it there yourself if it belongs there)")
    assert result.stderr.count(refusal) == 4, result.stderr
    assert "EnvSecret4455" not in result.stdout + result.stderr


def test_timeout_is_one_line_and_the_session_goes_on(backend, tmp_path):
    base, _ = backend
    result = explorer(base, ["get /slow --timeout 0.5", "get /echo"], tmp_path)
    assert "did not answer in time: no complete answer within 0.5 s" in result.stderr
    assert '"path": "/echo"' in result.stdout
    assert result.returncode == 3


def test_form_and_raw_bodies(backend, tmp_path):
    base, _ = backend
    result = explorer(base, ['post /echo --form title="a b" n=1', "post /echo --raw 'plain words' Content-Type:text/plain"], tmp_path)
    out = result.stdout
    assert '"content_type": "application/x-www-form-urlencoded; charset=utf-8"' in out
    assert '"body": "title=a+b&n=1"' in out
    assert '"body": "plain words"' in out and '"content_type": "text/plain"' in out


def test_head_shows_headers_by_default(backend, tmp_path):
    base, _ = backend
    result = explorer(base, ["head /echo"], tmp_path)
    assert "Content-Type: application/json" in result.stdout
    # Its body piped is nothing, and no JSON gone wrong ("the body says application/json but is not valid JSON").
    piped = run_explorer(["--base-url", base, "-c", "head /echo -b"], env=isolated_env(tmp_path), cwd=tmp_path)
    assert piped.returncode == 0 and piped.stdout == "" and piped.stderr == "", piped.stderr


def test_gzip_is_asked_for_and_decoded_and_brotli_is_named(backend, tmp_path):
    base, _ = backend
    result = explorer(base, ["get /gzip", "get /br"], tmp_path)
    out = result.stdout
    assert '"accept_encoding": "gzip, deflate"' in out and '"packed": true' in out
    assert "body encoded as br, which explorer cannot decode: application/json, 40 B (not shown)" in out
    assert "not valid JSON" not in out + result.stderr
    # Saved or piped, its bytes go as they came, and that is said (it was "saved 40 B" alone, and nothing at all).
    saved = explorer(base, ["get /br -o b.json"], tmp_path)
    assert "saved 40 B to b.json, encoded as br, which explorer cannot decode: the bytes as they came" in saved.stdout, saved.stdout
    assert (tmp_path / "b.json").read_bytes() == bytes(range(40))
    piped = run_explorer(["--base-url", base, "-c", "get /br -b"], env=isolated_env(tmp_path), cwd=tmp_path, text=False)
    assert piped.stdout == bytes(range(40))
    assert piped.stderr.decode() == "note: the body is encoded as br, which explorer cannot decode: the bytes as they came\n"


def test_a_body_that_is_not_the_gzip_it_says_keeps_its_answer(backend, tmp_path):
    # The line failed ("sent a body that does not decode"): status, headers and body lost, -v showed the request alone.
    base, _ = backend
    result = explorer(base, ["get /not-gzip -v", "show", "get /not-gzip -o plain.json"], tmp_path)
    out = result.stdout
    assert "HTTP/1.1 200 OK" in out and "Content-Encoding: gzip" in out, out
    assert "body does not decode as the gzip its Content-Encoding says: application/json, 12 B (not shown)" in out, out
    assert '"plain": 1' in out, "show has the bytes as they came"
    assert "saved 12 B to plain.json, not the gzip its Content-Encoding says: the bytes as they came" in out, out
    assert (tmp_path / "plain.json").read_bytes() == b'{"plain": 1}'
    # It exited 0, where curl exits 61 and HTTPie fails: a script must not take the bytes for the body.
    script = run_explorer(["--base-url", base, "-c", "get /not-gzip"], env=isolated_env(tmp_path), cwd=tmp_path)
    assert script.returncode == 3 and "does not decode as the gzip its Content-Encoding says" in script.stdout + script.stderr, script
    # One cut before its end is what came of it, said to be cut, as curl shows it (the line failed, status and all).
    cut = explorer(base, ["get /cut-gzip"], tmp_path)
    assert "HTTP/1.1 200 OK" in cut.stdout and '"hello": "world"' in cut.stdout, cut.stdout + cut.stderr
    assert "warning: its gzip stream ended before its end came: the body is what came of it" in cut.stderr, cut.stderr


def test_a_request_after_the_options_runs_as_httpie_s_does(backend, tmp_path):
    # `explorer --base-url URL get /x` was "2 unexpected arguments": `http GET URL ITEM…` is how HTTPie and xh take it.
    base, _ = backend
    result = run_explorer(["--base-url", base, "post", "/echo", "title=a b", "n:=1", "-v"], env=isolated_env(tmp_path), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "POST /echo HTTP/1.1" in result.stdout and '"body": "{\\"title\\":\\"a b\\",\\"n\\":1}"' in result.stdout, result.stdout
    # Into a pipe, the body alone, as HTTPie prints it there (`| jq` read `HTTP/1.1 200 OK  3 ms` first);
    # a URL alone with data is a POST, as HTTPie infers it.
    piped = run_explorer(["--base-url", base, "/echo", "title=a"], env=isolated_env(tmp_path), cwd=tmp_path)
    assert piped.returncode == 0, piped.stderr
    assert json.loads(piped.stdout)["method"] == "POST", piped.stdout
    # Standard input is the body of a POST with no data of its own, as HTTPie's `http POST URL < task.json`
    # (it was dropped and an empty body went); HTTPie's --ignore-stdin leaves it alone.
    sent = run_explorer(["--base-url", base, "post", "/echo"], input='{"from": "stdin"}', env=isolated_env(tmp_path), cwd=tmp_path)
    echoed = json.loads(sent.stdout)
    # JSON goes compact (one line of a transcript holds it); with --form it is typed as a form.
    assert echoed["body"] == '{"from":"stdin"}' and echoed["content_type"] == "application/json", sent.stdout + sent.stderr
    form = run_explorer(["--base-url", base, "post", "/echo", "--form"], input="a=1&b=2\n", env=isolated_env(tmp_path), cwd=tmp_path)
    assert json.loads(form.stdout)["content_type"].startswith("application/x-www-form-urlencoded"), form.stdout + form.stderr
    ignored = run_explorer(["--base-url", base, "--ignore-stdin", "post", "/echo"], input='{"from": "stdin"}', env=isolated_env(tmp_path), cwd=tmp_path)
    assert json.loads(ignored.stdout)["body"] == "", ignored.stdout + ignored.stderr
    # A method that is an option's value is not a request.
    named = run_explorer(["--base-url", base, "--env", "get"], env=isolated_env(tmp_path), cwd=tmp_path)
    assert "POST" not in named.stdout and named.returncode != 0


def test_c_given_several_times_runs_each_line_in_order(backend, tmp_path):
    base, _ = backend
    result = run_explorer(["--base-url", base, "-c", "get /one", "-c", "no-such-command", "-c", "post /two a=1"],
                          env=isolated_env(tmp_path), cwd=tmp_path)
    assert [path for _, path, _ in Backend.seen] == ["/one", "/two"], "every line ran, in order"
    assert "unknown command 'no-such-command'" in result.stderr
    assert result.returncode == 1, "the worst status, as a script's"


def test_a_profile_file_without_auth_says_where_auth_goes(backend, tmp_path):
    base, _ = backend
    (tmp_path / "shop.yaml").write_text(f"explorer-profile: 1\nname: shop\nenvironments:\n  local: {{base-url: \"{base}\"}}\n")
    result = run_explorer(["--profile", str(tmp_path / "shop.yaml"), "-c", "login me@example.com pw"], env=isolated_env(tmp_path), cwd=tmp_path)
    assert "shop's profile says no auth: give it an auth: section (docs/profiles.md" in result.stderr
    assert Backend.seen == [], "login posted nothing anywhere"


def test_a_server_named_on_the_command_line_is_not_linku(backend, tmp_path):
    base, _ = backend
    result = explorer(base, ["login me@example.com pw", "endpoints", "get /status"], tmp_path)
    assert "has no login flow explorer knows" in result.stderr
    assert "no catalog for HTTP API" in result.stderr
    assert [path for _, path, _ in Backend.seen] == ["/status"], "login posted nothing anywhere"
    assert "LinkU" not in result.stdout + result.stderr


def test_show_after_a_binary_answer_prints_a_summary_not_bytes(backend, tmp_path):
    # Issue 11 #24: show printed the raw bytes, cut at the first NUL.
    base, _ = backend
    result = explorer(base, ["get /png", "show"], tmp_path)
    assert "binary body: image/png, 16 B (not shown)" in result.stdout
    assert "binary body: image/png, 16 bytes (not shown)" in result.stdout
    assert "PNG" not in result.stdout


def test_a_nul_in_a_value_does_not_cut_the_output(tmp_path):
    result = run_explorer(["--offline", "--base-url", "http://127.0.0.1:9"], input=b"set a=x\0y\nset b=after\nvars\n",
                          text=False, env=isolated_env(tmp_path), cwd=tmp_path)
    out = result.stdout.decode()
    assert "a = x\\0y" in out, out
    assert "b = after" in out


def test_output_and_save_write_the_body_byte_for_byte(backend, tmp_path):
    base, _ = backend
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
    result = explorer(base, ["get /png -o first.png", "get /png -o first.png", "save second.png", "save second.png",
                             "save second.png --force"], tmp_path)
    out, err = result.stdout, result.stderr
    assert (tmp_path / "first.png").read_bytes() == png and (tmp_path / "second.png").read_bytes() == png
    assert oct((tmp_path / "first.png").stat().st_mode & 0o777) == "0o600"
    assert out.count("saved 16 B to first.png") == 1 and "error: first.png exists; --force replaces it: not sent" in err
    assert "second.png exists; save second.png --force replaces it" in err
    assert out.count("saved 16 B to second.png") == 2
    assert "PNG" not in out, "-o prints no body"


@pytest.mark.skipif(not __import__("shutil").which("curl"), reason="needs curl")
def test_curl_names_a_variable_that_holds_a_credential_and_two_passwords_apart(backend, tmp_path):
    # `set f=user=a&password=X` (which vars and history hide) was printed in clear where `{{f}}` went; a form's
    # password and a Basic one were both "$PASSWORD", so the command sent one of them twice.
    base, _ = backend
    result = explorer(base, ["set f=user=a&password=MidPw123456", "post /echo note={{f}} --curl",
                             "post /echo -f password=FormPw111111 -a alice:BasicPw22222 --curl"], tmp_path)
    first, second = result.stdout.strip().splitlines()
    assert "MidPw123456" not in result.stdout and "FormPw111111" not in result.stdout and "BasicPw22222" not in result.stdout
    sent = subprocess.run(["bash", "-c", first], capture_output=True, text=True, timeout=30, env=dict(os.environ, F="user=a&password=MidPw123456"))
    assert json.loads(json.loads(sent.stdout)["body"]) == {"note": "user=a&password=MidPw123456"}, sent.stdout
    assert "-u 'alice:'\"$PASSWORD\"" in second and "password='\"$PASSWORD_2\"" in second, second
    # One value under one name is one variable, whichever way it goes (it became two).
    same = explorer(base, ["post /echo -f password=abc12345 -a bob:abc12345 --curl"], tmp_path).stdout
    assert "-u 'bob:'\"$PASSWORD\"" in same and "password='\"$PASSWORD\"" in same and "PASSWORD_2" not in same, same
    # A body's own text that looks like a variable is left as typed (it was renamed $PASSWORD_2).
    typed = explorer(base, ["post /echo -a bob:abc12345 'script=echo \"$PASSWORD\"' --curl"], tmp_path).stdout
    assert 'echo \\"$PASSWORD\\"' in typed and "PASSWORD_2" not in typed, typed


def test_curl_prints_a_command_that_sends_the_same_request(backend, tmp_path):
    base, _ = backend
    # A nested secret field is named by its key (it was printed in clear), and a
    # number secret stays a number; --follow and --timeout are curl's -L and -m.
    result = explorer(base, ["post /echo title=\"it's\" password=s3cret X-Api-Key:k3y n:=1 user[token]=t0k3n pin_token:=1234 "
                             "--follow --max-redirects 3 --timeout 2.5 --curl"], tmp_path)
    command = result.stdout.strip()
    assert command.startswith("curl -L --max-redirs 3 -m 2.5 "), command  # --data-raw makes it a POST
    assert not any(secret in command for secret in ["s3cret", "k3y", "t0k3n", "1234"]), command
    assert Backend.seen == [], "--curl sends nothing"
    sent = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=30,
                          env=dict(os.environ, PASSWORD="s3cret", X_API_KEY="k3y", TOKEN="t0k3n", PIN_TOKEN="1234"))
    echo = json.loads(sent.stdout)
    assert json.loads(echo["body"]) == {"title": "it's", "password": "s3cret", "n": 1, "user": {"token": "t0k3n"}, "pin_token": 1234}
    assert echo["content_type"] == "application/json"


@pytest.mark.skipif(not __import__("shutil").which("curl"), reason="needs curl")
def test_curl_of_an_upload_is_curls_own_form_parts(backend, tmp_path):
    # The multipart body was inlined with raw CRs and a fixed boundary, or `--data-binary @BODY_FILE` nobody had.
    base, _ = backend
    (tmp_path / "note.txt").write_text("hello from a file\n")
    result = explorer(base, ["post /echo file@note.txt title=hi password=s3cret --curl"], tmp_path)
    command = result.stdout.strip()
    assert "-F 'file=@note.txt' --form-string 'title=hi' --form-string 'password='\"$PASSWORD\"" in command, command
    assert "BODY_FILE" not in command and "s3cret" not in command and "Content-Type" not in command, command
    sent = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=30, cwd=tmp_path,
                          env=dict(os.environ, PASSWORD="s3cret"))
    echo = json.loads(sent.stdout)
    assert echo["content_type"].startswith("multipart/form-data; boundary="), echo
    assert "hello from a file" in echo["body"] and 'name="title"' in echo["body"] and "s3cret" in echo["body"], echo["body"]
    # A name with what ends a path in curl's -F (`;`, `,`) or a quote: in double quotes (curl skipped "x.png" as a field).
    (tmp_path / "semi;x.png").write_text("semi\n")
    (tmp_path / 'we"ird,n.png').write_text("weird\n")
    result = explorer(base, ["""post /echo 'a@semi;x.png' 'b@we"ird,n.png' --curl"""], tmp_path)
    command = result.stdout.strip()
    assert """-F 'a=@"semi;x.png"' -F 'b=@"we\\"ird,n.png"'""" in command, command
    sent = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=30, cwd=tmp_path)
    assert sent.returncode == 0, sent
    body = json.loads(sent.stdout)["body"]
    assert "semi\n" in body and "weird\n" in body and 'filename="semi;x.png"' in body, body


@pytest.mark.skipif(not __import__("shutil").which("curl"), reason="needs curl")
def test_curl_of_a_body_from_a_file_reads_the_file_and_names_its_secrets(backend, tmp_path):
    # `@body.txt` was inlined as --data-raw, the file's password and all; `token=@tok.txt` printed the token.
    base, _ = backend
    (tmp_path / "body.txt").write_text("grant_type=password&password=fileS3cret")
    (tmp_path / "tok.txt").write_text("fileT0ken")
    (tmp_path / "creds.json").write_text('{"user": "bob", "deep": {"password": "fileS3cret"}}')
    result = explorer(base, ["post /echo @body.txt --curl", "post /echo token=@tok.txt note=@body.txt --curl",
                             "post /echo creds:=@creds.json --curl"], tmp_path)
    whole, fields, nested = result.stdout.strip().split("\n")
    assert "fileS3cret" not in nested and '"password":"\'"$PASSWORD"\'"' in nested, nested
    assert whole.endswith("--data-binary '@body.txt'") and "fileS3cret" not in whole, whole
    assert "fileT0ken" not in fields and '"token":"\'"$TOKEN"\'"' in fields, fields
    sent = subprocess.run(["bash", "-c", whole], capture_output=True, text=True, timeout=30, cwd=tmp_path)
    assert json.loads(sent.stdout)["body"] == "grant_type=password&password=fileS3cret"


@pytest.mark.skipif(not __import__("shutil").which("curl"), reason="needs curl")
def test_curl_names_the_secrets_a_body_holds_under_no_secret_name(backend, tmp_path):
    # A JSON file read into a field (`data=@creds.json`) and a "Bearer …" in a value were printed in clear.
    base, _ = backend
    (tmp_path / "creds.json").write_text('{"user": {"password": "fileS3cret"}}')
    bearer = "Bearer " + "b" * 32
    result = explorer(base, ["post /echo data=@creds.json --curl", f"post /echo data:='{{\"a\": \"{bearer}\"}}' --curl"], tmp_path)
    field, value = result.stdout.strip().split("\n")
    assert "fileS3cret" not in field and '\\"password\\": \\"\'"$PASSWORD"\'\\"' in field, field
    assert "b" * 32 not in value and '"a":"Bearer \'"$AUTHORIZATION"\'"' in value, value
    sent = subprocess.run(["bash", "-c", field], capture_output=True, text=True, timeout=30, cwd=tmp_path,
                          env={**os.environ, "PASSWORD": "fileS3cret"})
    assert json.loads(json.loads(sent.stdout)["body"])["data"] == '{"user": {"password": "fileS3cret"}}'


@pytest.mark.skipif(not __import__("shutil").which("curl"), reason="needs curl")
def test_curl_names_supplied_secrets_keeps_schemes_and_users_and_sends_the_same_credentials(backend, tmp_path):
    base, _ = backend
    # `X-Api-Key:{{secret:tok}}` was `"$X_API_KEY"` (the variable the user had
    # set was TOK), a typed `Bearer …` and `auth basic bob:…` were a bare
    # `"$AUTHORIZATION"` (whose value had to be built by hand, in base64).
    env = isolated_env(tmp_path, EXPLORER_SECRET_TOK="t0k-supplied")
    lines = ["get /echo X-Api-Key:{{secret:tok}} --curl", "get /echo Authorization:'Bearer typed-t0k' --curl",
             "auth basic bob:pa55-w0rd", "get /echo --curl", "auth bearer {{secret:tok}}", "get /echo --curl",
             # `-a` gave `Basic "$BASIC_CREDENTIALS"`, a base64 to build by hand.
             "auth none", "get /echo -a bob:pa55-w0rd --curl", "get /echo -a 'eve:' --curl"]
    result = run_explorer(["--base-url", base], env=env, input="\n".join(lines) + "\n", cwd=tmp_path)
    commands = [line for line in result.stdout.splitlines() if line.startswith("curl ")]
    assert len(commands) == 6, result.stdout + result.stderr
    assert commands[4].startswith("""curl -u 'bob:'"$PASSWORD" """) and "Authorization" not in commands[4], commands[4]
    # An empty password is none to hide (it was "$PASSWORD", a variable to set to nothing): the user
    # is the secret then, a token given as the user (Stripe's `-u sk_test_KEY:`).
    assert commands[5].startswith("""curl -u "$TOKEN"':' """) and "eve" not in commands[5], commands[5]
    assert """-H 'Authorization: Bearer '"$TOK\"""" in commands[3], commands[3]
    assert """-H 'X-Api-Key: '"$TOK\"""" in commands[0], commands[0]
    assert """-H 'Authorization: Bearer '"$TOKEN\"""" in commands[1], commands[1]
    assert commands[2].startswith("""curl -u 'bob:'"$PASSWORD" """) and "Authorization" not in commands[2], commands[2]
    assert not any(secret in result.stdout for secret in ["t0k-supplied", "typed-t0k", "pa55-w0rd"]), result.stdout
    assert Backend.auth == [], "--curl sends nothing"
    variables = dict(os.environ, TOK="t0k-supplied", TOKEN="typed-t0k", PASSWORD="pa55-w0rd")
    for index, command in enumerate(commands):
        given = dict(variables, TOKEN="eve") if index == 5 else variables  # eve's user is the token there
        sent = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=30, env=given)
        assert sent.returncode == 0, sent.stderr
    assert [auth for _, _, auth in Backend.auth] == [None, "Bearer typed-t0k", "Basic " + base64.b64encode(b"bob:pa55-w0rd").decode(),
                                                     "Bearer t0k-supplied", "Basic " + base64.b64encode(b"bob:pa55-w0rd").decode(),
                                                     "Basic " + base64.b64encode(b"eve:").decode()]


def query_key_profile(tmp_path, base):
    """Writes tmp_path/qp.yaml, a profile whose credential is ?api_key= (the secret qk-s3cret-555); returns the env."""
    (tmp_path / "qp.yaml").write_text(f"""explorer-profile: 1
name: qp
environments:
  local:
    base-url: {base}
auth:
  kind: query
  parameter: api_key
  value: "{{{{secret:qk}}}}"
""")
    return isolated_env(tmp_path, EXPLORER_SECRET_QK="qk-s3cret-555")


def test_a_profiles_query_credential_that_a_redirect_copies_to_another_origin_stays_behind(backend, tmp_path):
    base, other = backend
    env = query_key_profile(tmp_path, base)
    result = run_explorer(["--profile", str(tmp_path / "qp.yaml"), "-c", f"get /elsewhere-with-query page==2 X-Other:{other} --follow"],
                          env=env, cwd=tmp_path)
    assert '"path": "/landing?page=2"' in result.stdout, result.stdout + result.stderr
    assert "qk-s3cret-555" not in result.stdout + result.stderr
    assert [(path, query) for _, path, query in Backend.queries] == [("/elsewhere-with-query", "page=2&api_key=qk-s3cret-555"),
                                                                      ("/landing", "page=2")]


def test_a_profiles_query_credential_is_listed_and_dropped_as_a_session_header_is(backend, tmp_path):
    # `auth none`, `header clear` and `auth bearer` left the profile's ?api_key= on every request, and `header`
    # said "no session headers" (docs/profiles.md: it is a session header, listed and dropped as one).
    base, _ = backend
    env = query_key_profile(tmp_path, base)
    for drop in ["auth none", "header clear", "auth bearer tok-123456"]:
        Backend.queries = []
        result = run_explorer(["--profile", str(tmp_path / "qp.yaml"), "-c", "header", "-c", "get /a", "-c", drop, "-c", "get /b"],
                              env=env, cwd=tmp_path)
        assert "?api_key=<hidden: 13 characters> (in the query; header clear or auth none drops it)" in result.stdout, result.stdout
        assert "qk-s3cret-555" not in result.stdout + result.stderr
        assert [(path, query) for _, path, query in Backend.queries] == [("/a", "api_key=qk-s3cret-555"), ("/b", "")], (drop, Backend.queries)


def test_a_session_header_goes_to_the_backend_only_and_stays_hidden(backend, tmp_path):
    base, other = backend
    lines = ["header Authorization:'Bearer s3ss10n'", "get /echo", f"get {other}/echo", "get /echo Authorization:'Bearer line'",
             "header", "header Authorization:", "get /echo"]
    result = explorer(base, lines, tmp_path)
    assert [a for _, _, a in Backend.auth] == ["Bearer s3ss10n", None, "Bearer line", None]
    assert "Authorization: Bearer <hidden: 7 characters>" in result.stdout
    assert "s3ss10n" not in result.stdout + result.stderr


def test_defaults_apply_to_every_later_line_until_cleared(backend, tmp_path):
    base, _ = backend
    result = explorer(base, ["defaults --follow -h", "get /old", "get /old -b", "defaults", "defaults --raw x", "defaults clear",
                             "get /old"], tmp_path)
    out = result.stdout
    assert "every request line: --follow --print h" in out
    assert [path for _, path, _ in Backend.seen] == ["/old", "/new", "/old", "/new", "/old"]
    assert "--raw is for one line" in result.stderr
    assert out.rstrip().endswith("moved"), "after clear, the 302 is shown, not followed"


def test_a_line_undoes_defaults_with_no_follow_and_json(backend, tmp_path):
    # HTTPie's `--no-follow` and `--json`: `--no-follow` was refused, and `--max-redirects 0` made the 302 an error.
    base, _ = backend
    result = explorer(base, ["defaults --follow --form", "get /old --no-follow", "post /echo a=1 --json", "post /echo a=1",
                             "post /echo a=1 -f -j"], tmp_path)
    assert [path for _, path, _ in Backend.seen] == ["/old", "/echo", "/echo"], Backend.seen
    assert "moved" in result.stdout
    assert '"content_type": "application/json"' in result.stdout
    assert '"content_type": "application/x-www-form-urlencoded' in result.stdout
    assert "--form and --json say two ways to send the fields: give one" in result.stderr


def test_a_pasted_curl_command_runs_as_the_request_it_sends(backend, tmp_path):
    base, _ = backend
    line = f"curl -s '{base}/echo' -H 'content-type: application/json' -H 'Authorization: Bearer t0k3n' --data-raw '{{\"a\":1}}'"
    result = explorer(base, [line], tmp_path)
    assert '"body": "{\\"a\\":1}"' in result.stdout, result.stdout
    assert [a for _, _, a in Backend.auth] == ["Bearer t0k3n"]
    assert '"content_type": "application/json"' in result.stdout


def test_a_bad_url_is_quoted_without_its_password_or_token(backend, tmp_path):
    # The error line said the user:password@ and ?token= in clear, on screen and in a recording.
    base, _ = backend
    lines = ["get http://bob:PW2secret@127.0.0.1:99999/x", "get http://[bad/x?token=S3CRc3tok", "get http://alice:S3cr3tPW@/api"]
    result = explorer(base, ["record r.transcript"] + lines + ["record stop"], tmp_path)
    assert "'http://bob:…@127.0.0.1:99999/x' has port 99999" in result.stderr, result.stderr
    assert "'http://alice:…@/api' has no host (http://HOST/…)" in result.stderr
    assert "token=<hidden: 9 characters>" in result.stderr
    recorded = (tmp_path / "r.transcript").read_text()
    for secret in ["PW2secret", "S3CRc3tok", "S3cr3tPW"]:
        assert secret not in result.stdout + result.stderr and secret not in recorded, secret
    assert not Backend.seen


def test_a_port_out_of_range_is_one_line_wherever_it_is_typed(backend, tmp_path):
    base, _ = backend
    lines = ["get http://127.0.0.1:70000/x", "curl http://127.0.0.1:0/x", "ws connect ws://127.0.0.1:99999/x", "get /still-here"]
    result = explorer(base, lines, tmp_path)
    assert "'http://127.0.0.1:70000/x' has port 70000; a port is 1 to 65535" in result.stderr
    assert "'http://127.0.0.1:0/x' has port 0" in result.stderr
    assert "'ws://127.0.0.1:99999/x' has port 99999" in result.stderr
    assert "Fatal error" not in result.stderr and [path for _, path, _ in Backend.seen] == ["/still-here"]
    flag = run_explorer(["--base-url", "http://127.0.0.1:99999", "-c", "get /x"], env=isolated_env(tmp_path), cwd=tmp_path)
    assert "'http://127.0.0.1:99999' has port 99999" in flag.stderr and "Fatal error" not in flag.stderr
    (tmp_path / "p.yaml").write_text('explorer-profile: 1\nname: p\nenvironments:\n  local: {base-url: "http://127.0.0.1:99999"}\n')
    profile = run_explorer(["--profile", str(tmp_path / "p.yaml"), "-c", "get /x"], env=isolated_env(tmp_path), cwd=tmp_path)
    assert profile.returncode == 2
    assert profile.stderr.endswith("p.yaml:4: at $.environments.local.base-url: 'http://127.0.0.1:99999' has port 99999; a port is 1 to 65535\n")


def test_verbose_shows_a_request_that_got_no_answer(tmp_path):
    # A helper found -v printing nothing of the request when it failed
    # (refused, timed out): HTTPie prints it before sending, which is when
    # it is wanted most. Its credentials are hidden as in any -v.
    import socket
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    base = f"http://127.0.0.1:{port}"
    result = explorer(base, ["post /x a=1 -v X-Api-Key:k3y-s3cret-value", "get /y", "get /z -p H"], tmp_path)
    assert result.stdout.startswith("POST /x HTTP/1.1\n"), result.stdout
    assert "X-Api-Key: <hidden" in result.stdout and "k3y-s3cret-value" not in result.stdout + result.stderr
    assert '\n\n{\n  "a": "1"\n}\n' in result.stdout, result.stdout
    assert "GET /y" not in result.stdout, "without -v a failure is its line alone"
    assert "GET /z HTTP/1.1\n" in result.stdout
    refused = f"error: cannot connect to 127.0.0.1:{port}: connection refused (is the server running?)"
    assert result.stderr.count(refused) == 3, result.stderr


class Prefixed(QuietHandler):
    """An API under /api/v1 that gives its own URLs as absolute paths, as most do:
    Link targets for paging, a Location for what a POST made."""
    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/api/v1/items":
            page = int(urllib.parse.parse_qs(url.query).get("page", ["1"])[0])
            links = ['</api/v1/items?fields=id,name&page=%d>; rel="next"' % (page + 1)] if page < 3 else []
            self.reply(200, json.dumps([{"id": page}]).encode(), [("Content-Type", "application/json"), ("Link", '</api/v1/items?page=1>; rel="first"')]
                       + [("Link", link) for link in links])
        elif url.path == "/api/v1/items/49":
            self.reply(200, b'{"id": 49}', [("Content-Type", "application/json")])
        else:
            self.reply(404, b'{"error": "no route for %s"}' % url.path.encode(), [("Content-Type", "application/json")])

    def do_POST(self):
        self.reply(201, b'{"id": 49}', [("Content-Type", "application/json"), ("Location", "/api/v1/items/49")])


def test_urls_an_answer_gives_are_read_against_the_request_under_a_base_path(http_server, tmp_path):
    # Under a base URL ending in /api/v1, `next` and `get {{loc}}` went to /api/v1/api/v1/…, a 404;
    # a comma in the Link's target, or a next in the second Link field, ended paging.
    base = base_url(http_server(Prefixed)) + "/api/v1"
    lines = ["get /items", "next", "next", "next", "post /items name=x", "capture loc = header:Location", "get {{loc}}"]
    result = run_explorer(["--base-url", base] + [arg for line in lines for arg in ("-c", line)], env=isolated_env(tmp_path), cwd=tmp_path)
    out = result.stdout + result.stderr
    assert '"id": 2' in out and '"id": 3' in out and "no next page" in out, out
    assert '"/items/49"' in out and "no route" not in out and result.returncode == 0, out


def test_next_stops_where_the_pages_loop(http_server, tmp_path):
    # A cursor that comes back (b, c, b) and a Link to the page itself: `next` went round for ever.
    class Loops(QuietHandler):
        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            if url.path == "/loop":
                cursor = urllib.parse.parse_qs(url.query).get("cursor", [""])[0]
                following = {"": "b", "b": "c", "c": "b"}[cursor]
                self.reply(200, json.dumps({"items": [cursor or "a"], "next_cursor": following}).encode(), [("Content-Type", "application/json")])
            else:
                self.reply(200, b"[1]", [("Content-Type", "application/json"), ("Link", '</self?x=1>; rel="next"')])

    base = base_url(http_server(Loops))
    lines = ["get /loop -b", "next -b", "next -b", "next -b", "get /self?x=1 -b", "next -b"]
    result = run_explorer(["--base-url", base] + [arg for line in lines for arg in ("-c", line)], env=isolated_env(tmp_path), cwd=tmp_path)
    assert result.returncode == 0, result
    assert result.stdout.count('"items"') == 3, result.stdout
    assert f"no next page: the answer's next is {base}/loop?cursor=b, a page this list has fetched already (its pages loop)" in result.stdout
    assert result.stdout.count("[\n  1\n]") == 1 and f"no next page: the answer's next is {base}/self?x=1" in result.stdout, result.stdout


def test_a_large_answer_is_recorded_by_a_sample_that_replays(http_server, tmp_path):
    # A 50 MB list was written whole and pretty (116 MB, in 25 s and 1.4 GB): replay and the mock refuse a
    # transcript over 64 MiB, and the whole recording was lost with it.
    class Big(QuietHandler):
        def do_GET(self):
            count = 100_000 if self.path == "/big" else 3
            body = json.dumps({"items": [{"id": i, "name": "item %d" % i, "tags": ["a", "b"]} for i in range(count)], "count": count}).encode()
            self.reply(200, body, [("Content-Type", "application/json")])

    base = base_url(http_server(Big))
    transcript = tmp_path / "big.transcript"
    result = run_explorer(["--base-url", base, "--record", str(transcript), "-c", "get /big -b", "-c", "get /small"],
                          env=isolated_env(tmp_path), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count('"name": "item') == 100_003, "the screen shows it whole"
    text = transcript.read_text()
    assert len(text) < 20_000, len(text)
    assert re.search(r"# The answer was [0-9.]+ MiB: ", text) and "its lists are written by their first 20 elements and ..." in text, text[:400]
    assert '"name": "item 19"' in text and '"name": "item 20"' not in text, text
    # The small answer is written whole.
    assert text.count('"name": "item 2"') == 2, text
    replayed = run_explorer(["replay", str(transcript)], env=isolated_env(tmp_path), cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr


def test_next_pages_postgrests_ranges_and_stops_at_a_page_that_does_not_move(http_server, tmp_path):
    # PostgREST's pages share one URL, their Range apart: `next` took the second for the first again ("its pages
    # loop"). A server that does not read the offset answered each `next` with the same page, up to the total.
    rows = list(range(5))

    class Ranges(QuietHandler):
        served = 0

        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            if url.path == "/pg":
                first, last = map(int, self.headers["Range"].split("-"))
                page = rows[first:last + 1]
                self.reply(206, json.dumps(page).encode(), [("Content-Type", "application/json"),
                                                            ("Content-Range", f"{first}-{first + len(page) - 1}/{len(rows)}")])
            else:
                # A request id beside the items, new each time: the page is the same all the same.
                Ranges.served += 1
                self.reply(200, json.dumps({"items": [1, 2], "total": 100, "request_id": Ranges.served}).encode(), [("Content-Type", "application/json")])

    base = base_url(http_server(Ranges))
    lines = ["get /pg Range:0-1 -b", "next -b", "next -b", "next -b", "get /deaf offset==0 limit==2 -b", "next -b", "next -b"]
    result = run_explorer(["--base-url", base] + [arg for line in lines for arg in ("-c", line)], env=isolated_env(tmp_path), cwd=tmp_path)
    assert result.returncode == 0, result
    pages = [json.loads(page) for page in re.findall(r"^\[[^\]]*\]$", result.stdout, re.M | re.S)]
    assert pages == [[0, 1], [2, 3], [4]], result.stdout
    assert "no next page: items 4-4 reach the total, 5" in result.stdout, result.stdout
    assert result.stdout.count('"total": 100') == 2, result.stdout
    assert "no next page: this page has the items of one before it (the server did not move on)" in result.stdout, result.stdout


def test_verbose_follow_shows_the_redirects_before_a_hop_that_got_no_answer(http_server, tmp_path):
    # -v with --follow showed only the last request when a later hop failed: the 302s and their
    # Locations on the way were lost (HTTPie's --all -v prints them).
    import socket
    refusing = socket.socket()
    refusing.bind(("127.0.0.1", 0))  # bound, not listening: refused, and no one else takes the port
    dead = refusing.getsockname()[1]

    class Redirects(QuietHandler):
        def do_GET(self):
            target = "/b" if self.path == "/a" else f"http://127.0.0.1:{dead}/gone"
            self.reply(302, b"", [("Location", target)])

    try:
        url = base_url(http_server(Redirects))
        result = run_explorer(["--base-url", url, "-c", "get /a --follow -v"], env=isolated_env(tmp_path), cwd=tmp_path)
        out = result.stdout
        assert result.returncode != 0
        assert out.index("GET /a HTTP/1.1") < out.index("Location: /b") < out.index("GET /b HTTP/1.1") \
            < out.index(f"Location: http://127.0.0.1:{dead}/gone") < out.index("GET /gone HTTP/1.1"), out
        assert "connection refused" in result.stderr, result.stderr
    finally:
        refusing.close()


def test_verbose_follow_shows_the_redirect_it_stopped_at(http_server, tmp_path):
    # A chain stopped by --max-redirects (or at a 3xx without a Location) showed its last request
    # as if it had got no answer: the 302 it stopped at, and its headers, were never shown.
    class Redirects(QuietHandler):
        def do_GET(self):
            if self.path == "/bare":
                self.reply(302, b"moved somewhere", [("X-Why", "no-location"), ("Content-Type", "text/plain")])
                return
            hop = int(self.path.strip("/"))
            self.reply(302, b"", [("Location", f"/{hop + 1}"), ("X-Hop", str(hop))])

    url = base_url(http_server(Redirects))
    result = run_explorer(["--base-url", url, "-c", "get /0 --follow --max-redirects 2 -v"], env=isolated_env(tmp_path), cwd=tmp_path)
    out = result.stdout
    assert out.index("GET /1 HTTP/1.1") < out.index("X-Hop: 1") < out.index("GET /2 HTTP/1.1") < out.index("X-Hop: 2"), out
    assert out.count("GET /2 HTTP/1.1") == 1 and "GET /3" not in out, out
    assert "stopped after 2 redirects (--max-redirects 2); the next would go to" in result.stderr and result.returncode != 0

    # Without a Location it is the answer, body and all, as curl -L and HTTPie show it.
    result = run_explorer(["--base-url", url, "-c", "get /bare --follow -v"], env=isolated_env(tmp_path), cwd=tmp_path)
    assert result.stdout.count("GET /bare HTTP/1.1") == 1 and "X-Why: no-location" in result.stdout, result.stdout
    assert "moved somewhere" in result.stdout and result.returncode == 0, result.stdout + result.stderr
    assert "not followed: the 302 has no Location" in result.stdout + result.stderr
