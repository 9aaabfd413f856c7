#!/usr/bin/env python3
"""Time from launch to the first REPL prompt, over a pseudo-terminal.

    startup.py --bin PATH --label NAME --launches 20 --out FILE.json [-- EXTRA ARGS...]

Each launch spawns the binary on a pty (pexpect), starts the clock just before
the spawn and stops it when the prompt `linku> ` has arrived; then it leaves
with Ctrl-D (not timed). One warm-up launch is not counted. Prints one summary
line and writes every sample (ms) to --out. The environment (HOME, XDG_*)
is the caller's: bench/run points it at a throwaway directory.
"""

import argparse
import json
import os
import statistics
import sys
import time

import pexpect

PROMPT = "linku> "
TIMEOUT = 30


def percentile(samples, p):
    """Nearest-rank percentile."""
    ordered = sorted(samples)
    rank = max(1, -(-len(ordered) * p // 100))  # ceil(n * p / 100)
    return ordered[int(rank) - 1]


def launch_once(binary, args, env):
    start = time.perf_counter()
    child = pexpect.spawn(binary, args, env=env, dimensions=(40, 120), encoding="utf-8",
                          codec_errors="replace", timeout=TIMEOUT)
    try:
        child.expect_exact(PROMPT)
        elapsed = (time.perf_counter() - start) * 1000
        child.sendeof()  # Ctrl-D at the empty prompt
        child.expect(pexpect.EOF)
        child.wait()
        if child.exitstatus != 0:
            raise RuntimeError(f"exited with status {child.exitstatus} (signal {child.signalstatus})")
        return elapsed
    finally:
        if child.isalive():
            child.terminate(force=True)
        child.close(force=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--label", required=True)
    parser.add_argument("--launches", type=int, default=20)
    parser.add_argument("--out", required=True)
    parser.add_argument("args", nargs="*")
    opts = parser.parse_args()

    env = dict(os.environ, TERM="xterm", NO_COLOR="1")
    launch_once(opts.bin, opts.args, env)  # warm-up: page cache, dynamic loader
    samples = [launch_once(opts.bin, opts.args, env) for _ in range(opts.launches)]

    summary = {
        "label": opts.label,
        "command": [opts.bin] + opts.args,
        "launches": len(samples),
        "median_ms": statistics.median(samples),
        "p90_ms": percentile(samples, 90),
        "min_ms": min(samples),
        "max_ms": max(samples),
        "samples_ms": samples,
    }
    with open(opts.out, "w") as f:
        json.dump(summary, f, indent=2)
    print(f"  {opts.label:<38} median {summary['median_ms']:7.1f} ms   p90 {summary['p90_ms']:7.1f} ms"
          f"   (min {summary['min_ms']:.1f}, max {summary['max_ms']:.1f}, n={len(samples)})")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as error:  # a readable one-liner for bench/run
        print(f"startup.py: {error}", file=sys.stderr)
        sys.exit(1)
