#!/usr/bin/env python3
"""Fallback for hyperfine: times commands and writes hyperfine-style JSON.

    timecmd.py --runs 5 --warmup 1 --export-json FILE -n NAME 'CMD ARGS' [-n NAME 'CMD ARGS' ...]

Commands are split with shlex and run without a shell, output discarded;
a non-zero exit status aborts (like hyperfine without -i).
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
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--export-json", required=True)
    parser.add_argument("-n", "--command-name", action="append", required=True)
    parser.add_argument("commands", nargs="+")
    opts = parser.parse_intermixed_args()
    if len(opts.command_name) != len(opts.commands):
        parser.error("give one -n NAME per command")

    results = []
    for name, command in zip(opts.command_name, opts.commands):
        argv = shlex.split(command)
        times = []
        for i in range(opts.warmup + opts.runs):
            start = time.perf_counter()
            status = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL).returncode
            elapsed = time.perf_counter() - start
            if status != 0:
                sys.exit(f"timecmd.py: '{name}' exited with status {status}")
            if i >= opts.warmup:
                times.append(elapsed)
        results.append({"command": name, "mean": statistics.mean(times), "median": statistics.median(times),
                        "stddev": statistics.stdev(times) if len(times) > 1 else 0.0,
                        "min": min(times), "max": max(times), "times": times})
        print(f"  {name:<22} mean {results[-1]['mean'] * 1000:9.1f} ms  (n={len(times)})")
    with open(opts.export_json, "w") as f:
        json.dump({"results": results}, f, indent=2)


if __name__ == "__main__":
    main()
