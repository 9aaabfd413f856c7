"""Request items against HTTPie's own: each line below is given to `http
--offline` (HTTPie 3.2) and to `explorer --offline`, and the two requests
are compared field by field: method, path, query (decoded), headers (but
User-Agent, Connection, Content-Length, Accept-Encoding and Host) and body
(JSON parsed, forms decoded). Issue 14's parity test; a deliberate
difference would be listed in README ("Request items").
"""
import json
import os
import shlex
import shutil
import subprocess
import urllib.parse

import pytest

from support import run_explorer

HTTP = shutil.which("http")

CASES = [
 "a=1", "a=1 b=2", "n:=3", "f:=1.5", "t:=true", "z:=null", "arr:='[1,2]'", "obj:='{\"k\":\"v\"}'",
 "'name=with space'", "'quote=\"q\"'", "unicode=café", "emoji=🚲", "'user[name]=alice'",
 "'user[roles][]=admin' 'user[roles][]=dev'", "'items[0][id]:=1' 'items[1][id]:=2'", "'[]:=1' '[]:=2'",
 "'a[b][c]=d'", "'a[]=x'", "'a[1]=x'", "'a\\[b\\]=x'", "'x[y]:=true'", "X-Trace:1", "'X-Name:with space'",
 "Accept:text/plain", "'X-Empty;'", "q==1", "'q==a b'", "q==1 q==2", "q==ü", "'q==a&b'", "k==", "a=1 q==2 X:3",
 "'deep[a][b][c][d]=e'", "'m[0]=a' 'm[1]=b'", "'n[]:=1' 'n[]:=2'", "'obj[k]:={\"x\":1}'", "e=", "x:=-1", "x:=1e3",
 "'x:=\"str\"'", "'x:=[]'", "'x:={}'", "k=a=b", "k=a:b", "'k:=[1,{\"a\":2}]'", "'key\\=with=value'", "H-1:a:b",
 "--form a=1 b=2", "--form 'a=x y'", "--form 'u[n]=1'", "--form a=1 q==2", "--raw hello", "--raw '{\"a\":1}'",
 "@body.json", "f=@text.txt", "f:=@data.json", "a=1 a=2", "'x[]='", "'a.b=1'", "h-dash=1", "num=007", "X-Many:1 X-Many:2",
 "'a[0]=x' 'a[2]=y'", "'k=line1\\nline2'", "'sp ace=1'", "'[0]=a' '[1]=b'", "Content-Type:application/vnd.api+json a=1",
 "'q==x' '[]:=1'", "'x\\\\=1'", "'x\\\\:=1'", "'x\\\\\\\\=1'", "'x\\\\[a]=1'", "-f 'x=%41'", "'x=%41'", "'q==%41'",
 # A value given whole with := and a path into it build on it.
 "'a:=[1]' 'a[]=2'", "'a:=[1]' 'a[3]=2'",
]


def parse(out):
    """A printed request as comparable fields."""
    out = out.replace("\r\n", "\n").rstrip("\n")
    head, _, body = out.partition("\n\n")
    lines = head.split("\n")
    method, target, _ = lines[0].split(" ", 2)
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers.setdefault(name.strip().lower(), []).append(value.strip())
    for ignored in ["user-agent", "connection", "content-length", "accept-encoding", "host"]:
        headers.pop(ignored, None)
    path, _, query = target.partition("?")
    content_type = (headers.get("content-type") or [""])[0]
    if "json" in content_type and body:
        try:
            body = json.loads(body)
        except ValueError:
            pass  # `--raw hello` goes as typed, JSON or not, in both
    elif "x-www-form-urlencoded" in content_type:
        body = urllib.parse.parse_qsl(body, keep_blank_values=True)
    return dict(method=method, path=path, query=urllib.parse.parse_qsl(query, keep_blank_values=True),
                headers=headers, body=body)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    where = tmp_path_factory.mktemp("parity")
    (where / "body.json").write_text('{"from": "file"}')
    (where / "text.txt").write_text("some text")
    (where / "data.json").write_text("[1, 2]")
    return where


@pytest.mark.skipif(HTTP is None, reason="HTTPie is not installed (scripts/test installs it)")
@pytest.mark.parametrize("items", CASES)
def test_explorer_sends_what_httpie_sends(items, folder):
    args = shlex.split(items)
    flags = []
    while args and args[0] in ("--form", "-f", "--raw"):
        flags.append(args.pop(0))
        if flags[-1] == "--raw":
            flags.append(args.pop(0))
    httpie = subprocess.run([HTTP, "--ignore-stdin", "--offline", "--print=HB", *flags, "POST", "http://127.0.0.1:9/x", *args],
                            capture_output=True, text=True, timeout=60, cwd=folder)
    ours = run_explorer(["--offline", "--base-url", "http://127.0.0.1:9", "-c", "post /x " + items],
                        cwd=folder, env=dict(os.environ, NO_COLOR="1"))
    assert httpie.returncode == 0, httpie.stderr
    assert ours.returncode == 0, ours.stderr
    theirs, mine = parse(httpie.stdout), parse(ours.stdout)
    for field in theirs:
        assert mine[field] == theirs[field], f"{field}: HTTPie {theirs[field]!r}, explorer {mine[field]!r}"
