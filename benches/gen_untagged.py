#!/usr/bin/env python3
"""Writes DIR/apps/deep.abi.json and DIR/args.json for BENCHMARKS.md (issue 28.12):
an untagged enum E of K members, each a record whose first field is E again and
whose second (required, named differently in each) tells them apart, the last
one's `next` nullable; and an argument nesting it D deep.

usage: benches/gen_untagged.py DIR [K [D]]   (default K=3000, D=60), then
  calimcp --apps DIR/apps call abi_m --args @DIR/args.json --dry-run -c $(printf 'ab%.0s' $(seq 32))
"""
import json
import os
import sys

out = sys.argv[1]
k = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
d = int(sys.argv[3]) if len(sys.argv) > 3 else 60
members = [
    {"name": f"M{i}", "payload": {"kind": "record", "fields": [
        {"name": "next", "type": {"$ref": "E"}},
        {"name": f"f{i}", "type": {"kind": "u64"}}]}}
    for i in range(k - 1)
]
members.append({"name": "Last", "payload": {"kind": "record", "fields": [
    {"name": "next", "type": {"$ref": "E"}, "nullable": True},
    {"name": "n", "type": {"kind": "u64"}}]}})
abi = {
    "schema_version": "wasm-abi/1",
    "types": {"E": {"kind": "variant", "untagged": True, "variants": members}},
    "methods": [{"name": "m", "params": [{"name": "e", "type": {"$ref": "E"}}], "returns": {"$ref": "E"}}],
    "events": [],
}
os.makedirs(os.path.join(out, "apps"), exist_ok=True)
with open(os.path.join(out, "apps", "deep.abi.json"), "w") as f:
    json.dump(abi, f)
v = {"next": None, "n": 5}
for _ in range(d):
    v = {"next": v, "n": 5}
with open(os.path.join(out, "args.json"), "w") as f:
    json.dump({"e": v}, f)
