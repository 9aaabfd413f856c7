#!/usr/bin/env python3
"""One GET as a whole process, the tools taking turns: each round runs every
command once, in order, so a noisy moment costs them all alike. Prints the
median and p90 of each and its ratio to the first; writes them as JSON.

    one_get.py --rounds 30 --out FILE.json -n NAME 'CMD ARGS' [-n NAME 'CMD ARGS' ...]

Commands are split with shlex and run without a shell, output discarded; a
non-zero exit status aborts. One warm-up round first.
"""
import argparse
import json
import shlex
import statistics
import subprocess
import sys
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--out", required=True)
    parser.add_argument("-n", "--name", action="append", required=True)
    parser.add_argument("commands", nargs="+")
    opts = parser.parse_intermixed_args()
    if len(opts.name) != len(opts.commands):
        parser.error("give one -n NAME per command")
    argvs = [shlex.split(c) for c in opts.commands]
    times = {name: [] for name in opts.name}
    for round in range(opts.rounds + 1):
        for name, argv in zip(opts.name, argvs):
            start = time.perf_counter()
            status = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
            elapsed = (time.perf_counter() - start) * 1000
            if status != 0:
                sys.exit(f"one_get.py: '{name}' exited with status {status}")
            if round > 0:
                times[name].append(elapsed)
    first = statistics.median(times[opts.name[0]])
    results = {}
    for name in opts.name:
        ordered = sorted(times[name])
        median = statistics.median(ordered)
        p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
        results[name] = {"median_ms": median, "p90_ms": p90}
        print(f"    {name:<44}{median:8.1f} ms  p90 {p90:6.1f} ms   {median / first:5.2f}x the first")
    with open(opts.out, "w") as f:
        json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
