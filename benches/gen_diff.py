#!/usr/bin/env python3
"""Writes a pair of manifests for the diff benchmark: OLD and NEW.

usage: gen_diff.py BASE.json OLD/abi.json NEW/abi.json  (same file name: same tool names)

BASE is a generated manifest (benches/gen_manifest.py). OLD is BASE with 100
events and a 40-field state root added; NEW is OLD with 500 changes spread
over every rule a single manifest can trigger (service rules need bundles):
methods removed, added, view<->mutation, parameters added (required and
nullable), removed, made required/optional, retyped (narrowed and widened),
results made nullable and retyped, enum cases added and removed, record
fields added, docs changed, events removed/added/retyped, state fields
changed, removed, added and downgraded, and state_version bumped without a
migration. Deterministic.
"""
import copy
import json
import sys


def main():
    base = json.load(open(sys.argv[1]))
    old = copy.deepcopy(base)
    old["events"] = [{"name": f"Event{i:03d}", "payload": {"kind": "u32"}} for i in range(100)]
    fields = []
    for i in range(40):
        crdt = "authored_map" if i % 4 == 0 else "unordered_map"
        fields.append({"name": f"field{i:02d}", "type": {"kind": "map", "key": {"kind": "string"},
                       "value": {"kind": "u64"}, "crdt_type": crdt}})
    old["types"]["BenchState"] = {"kind": "record", "fields": fields}
    old["state_root"] = "BenchState"
    old["state_version"] = 1
    new = copy.deepcopy(old)
    methods = new["methods"]
    changes = 0

    def scalar_params(m):
        return [p for p in m["params"] if "kind" in p["type"] and p["type"]["kind"] in ("u32", "u64", "i32", "i64")]

    # 10 methods per bucket of 100; each bucket index picks a change.
    removed = set()
    for i, m in enumerate(methods):
        if i % 10 != 3 or i >= 3640:
            continue
        kind = (i // 10) % 12
        if kind == 0:
            removed.add(m["name"])
        elif kind == 1:
            m["intent"] = "mutating" if m.get("intent") == "read_only" else "read_only"
        elif kind == 2:
            m["params"].append({"name": "added_required", "type": {"kind": "string"}})
        elif kind == 3:
            m["params"].append({"name": "added_optional", "type": {"kind": "string"}, "nullable": True})
        elif kind == 4 and m["params"]:
            m["params"].pop()
        elif kind == 5 and m["params"]:
            m["params"][0]["nullable"] = not m["params"][0].get("nullable", False)
        elif kind == 6 and scalar_params(m):
            scalar_params(m)[0]["type"] = {"kind": "i32"}
        elif kind == 7 and scalar_params(m):
            scalar_params(m)[0]["type"] = {"kind": "f64"}
        elif kind == 8:
            m["returns_nullable"] = not m.get("returns_nullable", False)
        elif kind == 9:
            m["returns"] = {"kind": "string"}
        elif kind == 10:
            m["doc"] = f"Changed documentation {i}."
        else:
            m["params"] = [dict(p, doc="changed") for p in m["params"]] or [{"name": "x", "type": {"kind": "u32"}}]
        changes += 1
    new["methods"] = [m for m in methods if m["name"] not in removed]
    for i in range(25):
        new["methods"].append({"name": f"added_{i:03d}", "params": [], "returns": {"kind": "unit"}})
        changes += 1
    variants = sorted(k for k, t in new["types"].items() if t["kind"] == "variant")
    for i, name in enumerate(variants[:20]):
        cases = new["types"][name]["variants"]
        if i % 2:
            cases.append({"name": "Added"})
        else:
            cases.pop(0)
        changes += 1
    records = sorted(k for k, t in new["types"].items() if t["kind"] == "record" and k != "BenchState")
    for i, name in enumerate(records[:20]):
        new["types"][name]["fields"].append({"name": "extra", "type": {"kind": "u32"}, "nullable": i % 2 == 1})
        changes += 1
    events = new["events"]
    for i in range(0, 30, 3):
        events[i]["payload"] = {"kind": "u64"}
        events[i + 1]["payload"] = {"kind": "string"}
        changes += 2
    new["events"] = [e for j, e in enumerate(events) if j % 10 != 9]
    new["events"] += [{"name": f"NewEvent{i}"} for i in range(10)]
    changes += 20
    st = new["types"]["BenchState"]["fields"]
    for i in range(0, 40, 4):
        st[i]["type"]["crdt_type"] = "unordered_map"      # identity downgrade
        st[i + 1]["type"]["value"] = {"kind": "string"}   # changed
        changes += 2
    new["types"]["BenchState"]["fields"] = [f for j, f in enumerate(st) if j % 8 != 7]
    new["types"]["BenchState"]["fields"] += [{"name": f"added{i}", "type": {"kind": "u64"}} for i in range(5)]
    new["state_version"] = 2
    changes += 11
    # The node refuses an ABI whose methods or events are not sorted by name,
    # and `calimcp diff` refuses to compare such a NEW: keep both sorted.
    for doc in (old, new):
        doc["methods"].sort(key=lambda m: m["name"])
        doc["events"].sort(key=lambda e: e["name"])
    for path, doc in ((sys.argv[2], old), (sys.argv[3], new)):
        with open(path, "w") as f:
            json.dump(doc, f, separators=(",", ":"))
    print(f"{changes} changes", file=sys.stderr)


if __name__ == "__main__":
    main()
