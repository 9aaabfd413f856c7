#!/usr/bin/env python3
"""Swagger 2.0 JSON -> OpenAPI 3.0.3 JSON, mechanically, for bench/spec.

Only what the explorer's importer reads is carried over faithfully: paths,
operations, parameters (query/path/header/cookie), JSON bodies (`in: body`),
the first JSON schema of each response, definitions -> components.schemas,
securityDefinitions -> components.securitySchemes, and `$ref`s rewritten to
their 3.0 places. Usage: swagger2openapi.py IN.json OUT.json
"""
import json
import sys

METHODS = ("get", "put", "post", "delete", "options", "head", "patch")


def refs(node):
    """Rewrites #/definitions/X to #/components/schemas/X everywhere below node."""
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith("#/definitions/"):
                out[key] = "#/components/schemas/" + value[len("#/definitions/"):]
            elif key == "type" and value == "file":
                out[key] = "string"
            else:
                out[key] = refs(value)
        return out
    if isinstance(node, list):
        return [refs(v) for v in node]
    return node


def parameter_schema(p):
    keys = ("type", "format", "items", "enum", "default", "minimum", "maximum", "pattern", "uniqueItems")
    return refs({k: p[k] for k in keys if k in p})


def convert(doc):
    global_params = doc.get("parameters", {})

    def resolve(p):
        if "$ref" in p and p["$ref"].startswith("#/parameters/"):
            return global_params[p["$ref"][len("#/parameters/"):]]
        return p

    def operation(op, shared):
        out = {k: refs(op[k]) for k in ("summary", "description", "operationId", "tags", "deprecated", "security") if k in op}
        params, body = [], None
        seen = set()
        for raw in op.get("parameters", []) + shared:
            p = resolve(raw)
            if (p["name"], p["in"]) in seen:
                continue
            seen.add((p["name"], p["in"]))
            if p["in"] == "body":
                body = {"required": p.get("required", False),
                        "content": {"application/json": {"schema": refs(p.get("schema", {}))}}}
            elif p["in"] == "formData":
                continue
            else:
                q = {k: p[k] for k in ("name", "in", "description", "required") if k in p}
                q["schema"] = parameter_schema(p)
                params.append(q)
        if params:
            out["parameters"] = params
        if body:
            out["requestBody"] = body
        responses = {}
        for code, r in op.get("responses", {}).items():
            answer = {"description": r.get("description", "")}
            if "schema" in r:
                answer["content"] = {"application/json": {"schema": refs(r["schema"])}}
            responses[str(code)] = answer
        out["responses"] = responses or {"default": {"description": ""}}
        return out

    paths = {}
    for path, item in doc.get("paths", {}).items():
        shared = item.get("parameters", [])
        paths[path] = {m: operation(item[m], shared) for m in METHODS if m in item}

    schemes = {}
    for name, s in doc.get("securityDefinitions", {}).items():
        if s["type"] == "apiKey":
            schemes[name] = {"type": "apiKey", "name": s["name"], "in": s["in"]}
        elif s["type"] == "basic":
            schemes[name] = {"type": "http", "scheme": "basic"}
        else:
            schemes[name] = {"type": "oauth2", "flows": {}}

    out = {"openapi": "3.0.3", "info": doc.get("info", {"title": "converted", "version": "1"}), "paths": paths,
           "components": {"schemas": refs(doc.get("definitions", {})), "securitySchemes": schemes}}
    if "security" in doc:
        out["security"] = doc["security"]
    return out


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        source = json.load(f)
    with open(sys.argv[2], "w") as f:
        json.dump(convert(source), f)
