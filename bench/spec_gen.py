#!/usr/bin/env python3
"""The generated spec-bench document: OpenAPI 3.1 JSON, deterministic, with
the shape of a real API:
120 resources, each with list/create/get/put/patch/delete and two actions
(960 operations), plus 24 nested collections of 2 (1,008 in all), query
parameters and JSON bodies of 8 fields. Usage: spec_gen.py OUT.json"""
import json
import sys


def document():
    body = {"content": {"application/json": {"schema": {
        "type": "object", "required": ["name"],
        "properties": {f"field{i}": {"type": "string" if i % 2 == 0 else "integer"} for i in range(8)}}}}}
    ok = {"200": {"description": "ok"}}
    query = [{"name": "page", "in": "query", "schema": {"type": "integer"}},
             {"name": "q", "in": "query", "schema": {"type": "string"}}]
    ident = [{"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}]
    paths = {}
    for r in range(120):
        name = f"/api/v2/resource{r}"
        paths[name] = {"get": {"summary": f"List resource {r}", "parameters": query, "responses": ok},
                       "post": {"summary": "Create", "requestBody": body, "responses": ok}}
        paths[name + "/{id}"] = {"parameters": ident, "get": {"summary": "One", "responses": ok},
                                 "put": {"requestBody": body, "responses": ok},
                                 "patch": {"requestBody": body, "responses": ok}, "delete": {"responses": ok}}
        paths[name + "/{id}/archive"] = {"parameters": ident, "post": {"responses": ok}}
        paths[name + "/{id}/restore"] = {"parameters": ident, "post": {"responses": ok}}
        if r % 5 == 0:
            paths[name + "/{id}/children"] = {"parameters": ident, "get": {"responses": ok},
                                              "post": {"requestBody": body, "responses": ok}}
    return {"openapi": "3.1.0", "info": {"title": "bench", "version": "1"}, "paths": paths}


if __name__ == "__main__":
    with open(sys.argv[1], "w") as f:
        json.dump(document(), f, indent=1)
