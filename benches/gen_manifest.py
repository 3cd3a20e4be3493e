#!/usr/bin/env python3
"""Writes a deterministic wasm-abi/1 manifest with N methods to stdout.

usage: gen_manifest.py N [SEED]

Methods mix scalars, bytes (sized and unsized), lists, maps, tuples, nested
records (named types referencing each other) and variants (externally and
internally tagged), with nullable params and returns, so the benchmark
exercises every part of the mapping.
"""
import json
import random
import sys

SCALARS = ["bool", "i32", "i64", "u32", "u64", "f32", "f64", "string"]


def main():
    n = int(sys.argv[1])
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 42)
    types = {}
    n_types = max(8, n // 10)
    for t in range(n_types):
        name = f"Rec{t:05d}"
        fields = []
        level = t % LEVELS
        for f in range(rng.randint(1, 5)):
            fields.append({"name": f"f{f}", "type": leaf(rng, level, n_types), "nullable": rng.random() < 0.2})
        types[name] = {"kind": "record", "fields": fields}
        if t % 7 == 0:
            variants = [{"name": "Empty"}, {"name": "Text", "payload": {"kind": "string"}},
                        {"name": "Rec", "payload": {"$ref": name}}]
            types[f"Var{t:05d}"] = {"kind": "variant", "variants": variants}
        if t % 11 == 0:
            types[f"Tag{t:05d}"] = {"kind": "variant", "tag": "kind", "variants": [
                {"name": "a", "payload": {"$ref": name}}, {"name": "b"}]}
    refs = sorted(types)
    methods = []
    for i in range(n):
        params = []
        for p in range(rng.randint(0, 5)):
            params.append({"name": f"p{p}", "type": param_type(rng, refs), "nullable": rng.random() < 0.15})
        m = {"name": f"method_{i:05d}", "params": params,
             "returns": param_type(rng, refs), "returns_nullable": rng.random() < 0.2,
             "intent": rng.choice(["read_only", "mutating"])}
        if rng.random() < 0.3:
            m["doc"] = f"Method {i}: does thing number {i} with {len(params)} parameters."
        methods.append(m)
    json.dump({"schema_version": "wasm-abi/1", "types": types, "methods": methods, "events": []},
              sys.stdout, separators=(",", ":"))


LEVELS = 4  # records nest at most this deep: Rec(level k) refers to Rec(level k+1) only


def leaf(rng, level, n_types):
    r = rng.random()
    if r < 0.5:
        return {"kind": rng.choice(SCALARS)}
    if r < 0.65:
        return {"kind": "bytes", "size": 32} if rng.random() < 0.5 else {"kind": "bytes"}
    if r < 0.8:
        return {"kind": "list", "items": {"kind": rng.choice(SCALARS)}}
    if level + 1 < LEVELS:  # no cycles, bounded depth
        target = rng.randrange(level + 1, n_types, LEVELS)
        return {"$ref": f"Rec{target:05d}"}
    return {"kind": "string"}


def param_type(rng, refs):
    r = rng.random()
    if r < 0.35:
        return {"kind": rng.choice(SCALARS)}
    if r < 0.45:
        return {"kind": "bytes", "size": 32} if rng.random() < 0.5 else {"kind": "bytes"}
    if r < 0.55:
        return {"kind": "list", "items": param_type(rng, refs) if rng.random() < 0.3 else {"kind": "u64"}}
    if r < 0.65:
        return {"kind": "map", "key": {"kind": "string"}, "value": {"kind": rng.choice(SCALARS)}}
    if r < 0.72:
        return {"kind": "tuple", "elements": [{"kind": "string"}, {"kind": "u64"}]}
    return {"$ref": rng.choice(refs)}


if __name__ == "__main__":
    main()
