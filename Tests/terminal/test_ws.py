"""WebSocket notices printed while the user types: a frame that arrives with a
half-typed line on the prompt appears above it, and the line is intact after.

Bob (over REST, from this test) sends alice a chat message while alice's REPL
has `ws connect`ed and she has typed part of a command.
"""
import json
import re
import urllib.request

from test_repl import ALICE_PROMPT, ENTER, Explorer, env, spawn  # noqa: F401


def call(base, method, path, body, token=None):
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method=method,
                                     headers={"Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def test_a_frame_arriving_mid_line_prints_above_it_and_keeps_the_line(spawn):
    x = spawn()
    base = re.search(r"(http://127\.0\.0\.1:\d+)", x.welcome).group(1)
    x.run("login alice@example.com alice123", prompt=ALICE_PROMPT)
    assert "connected to ws://" in x.run("ws connect", prompt=ALICE_PROMPT)

    x.type_visibly("get /api/ta", prompt=ALICE_PROMPT)
    bob = call(base, "POST", "/api/secure-auth/login", {"email": "bob@example.com", "password": "bob12345"})["access_token"]
    call(base, "POST", "/api/users/messages/send", {"receiver_id": 1, "content": "hello-while-you-type"}, token=bob)

    x.expect("hello-while-you-type")
    x.wait_for_line(ALICE_PROMPT + "get /api/ta")
    screen = x.screen.text()
    # The frame is one timestamped line (wrapped by the window), then the prompt
    # and the partial line again, as the last row.
    rows = screen.rstrip().splitlines()
    frame = [i for i, row in enumerate(rows) if re.match(r"^\d\d:\d\d:\d\d ← \{\"type\":\"message\"", row)]
    assert frame, screen
    assert "hello-while-you-type" in "".join(rows[frame[-1]:-1]), screen
    assert rows[-1] == ALICE_PROMPT + "get /api/ta", screen

    x.send("sks page_size==1" + ENTER)
    x.expect("HTTP/1.1 200 OK")
    x.expect(ALICE_PROMPT)


def test_ws_subcommands_complete_on_tab(spawn):
    x = spawn()
    x.send("ws st\t")
    x.wait_for_line("linku> ws status ")
