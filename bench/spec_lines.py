#!/usr/bin/env python3
"""1,000 partial REPL lines for TAB timing, fixed for a given document
(seeded, sorted input): what a person types before pressing TAB.

A fifth each: a method and part of a path (`get /api/v1/namesp`); a whole
concrete path and a space (query and body fields are offered); a path and
the start of a query or body item (`… lab`); a bare partial path
(`/apis/app`); a partial path after a `{param}` segment that was filled in
(`get /api/v1/namespaces/1/po`). Usage: spec_lines.py SPEC.json OUT.txt"""
import json
import random
import sys

METHODS = ("get", "put", "post", "delete", "patch", "head", "options")


def concrete(path):
    return "/".join("1" if s.startswith("{") else s for s in path.split("/"))


def main():
    with open(sys.argv[1]) as f:
        if sys.argv[1].endswith((".yaml", ".yml")):
            import yaml
            doc = yaml.safe_load(f)
        else:
            doc = json.load(f)
    ops = sorted((m, p, op.get("parameters", []) + item.get("parameters", []))
                 for p, item in doc["paths"].items() for m, op in item.items() if m in METHODS)
    rng = random.Random(6)
    lines = []
    for i in range(1000):
        method, path, parameters = ops[rng.randrange(len(ops))]
        kind = i % 5
        if kind == 0:
            whole = concrete(path)
            cut = rng.randrange(2, len(whole) + 1)
            lines.append(f"{method} {whole[:cut]}")
        elif kind == 1:
            lines.append(f"{method} {concrete(path)} ")
        elif kind == 2:
            names = [p.get("name", "") for p in parameters if isinstance(p, dict) and p.get("in") == "query"]
            word = rng.choice(names)[:2] if names else "f"
            lines.append(f"{method} {concrete(path)} {word}")
        elif kind == 3:
            whole = concrete(path)
            cut = rng.randrange(2, len(whole) + 1)
            lines.append(whole[:cut])
        else:
            segments = concrete(path).split("/")
            prefix = "/".join(segments[:-1])
            last = segments[-1]
            lines.append(f"{method} {prefix}/{last[:max(1, len(last) // 2)]}")
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
