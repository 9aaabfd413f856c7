#!/usr/bin/env python3
"""Writes a transcript of N `get /api/tasks/ID` steps (LinkU), for bench/sandbox's
mock runs: every step recorded, so the mock must find one among N per request.

    python3 bench/mock_transcript.py 1000 > /tmp/tasks.transcript
"""
import json
import sys

count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
print("# explorer transcript v1")
print("profile: linku")
print("base-url: sandbox")
for n in range(1, count + 1):
    task = {
        "id": n, "title": f"Task {n}", "description": "Generated for the mock benchmark.",
        "category": "errand", "city": "Leeds", "price": n % 50, "status": "open",
        "poster_id": 1, "taker_id": None, "images": [],
        "created_at": "{{timestamp}}", "updated_at": "{{timestamp}}",
    }
    print()
    print(f"> get /api/tasks/{n}")
    print("HTTP/1.1 200 OK")
    print("Content-Type: application/json; charset=utf-8")
    print(json.dumps(task, indent=2))
