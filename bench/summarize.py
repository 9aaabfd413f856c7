#!/usr/bin/env python3
"""Prints per-request figures from the hyperfine (or timecmd.py) JSON of bench/run.

    summarize.py FILE.json N

Expects the commands named explorer-N, explorer-0, curl-N and curl-1: N GETs
in one `explorer run` (after logging in), the same file with the login only,
N URLs in one curl process, and one URL in one curl process.
"""

import json
import sys


def main():
    path, n = sys.argv[1], int(sys.argv[2])
    results = {r["command"]: r for r in json.load(open(path))["results"]}
    t = {name: r["median"] * 1000 for name, r in results.items()}  # ms
    runs = len(next(iter(results.values()))["times"])

    explorer_whole = t["explorer-N"] / n
    curl_whole = t["curl-N"] / n
    explorer_net = (t["explorer-N"] - t["explorer-0"]) / n
    curl_net = (t["curl-N"] - t["curl-1"]) / (n - 1)

    print(f"  medians of {runs} runs (ms):")
    for label, key in ((f"explorer run, login + {n} GETs", "explorer-N"), ("explorer run, login only", "explorer-0"),
                       (f"curl, {n} URLs", "curl-N"), ("curl, 1 URL", "curl-1")):
        print(f"    {label:<34}{t[key]:9.1f}")
    print(f"  per request, whole process / {n}:  explorer {explorer_whole:6.2f} ms   curl {curl_whole:6.2f} ms"
          f"   ratio {explorer_whole / curl_whole:5.1f}x")
    print(f"  per request, net of start-up:      explorer {explorer_net:6.2f} ms   curl {curl_net:6.2f} ms"
          f"   ratio {explorer_net / curl_net:5.1f}x")
    summary = {"requests": n, "median_ms": t, "per_request_ms": {
        "explorer_whole": explorer_whole, "curl_whole": curl_whole, "ratio_whole": explorer_whole / curl_whole,
        "explorer_net": explorer_net, "curl_net": curl_net, "ratio_net": explorer_net / curl_net}}
    with open(path.replace(".json", "-summary.json"), "w") as f:
        json.dump(summary, f, indent=2)


if __name__ == "__main__":
    main()
