"""Bytes an agent reads: `tools --json` and serve's `tools/list` on the real manifests (issue 22.13).

    python3 benches/schema_bytes.py BIN [BIN2] [--fixtures DIR]

For every real `wasm-abi/1` manifest in DIR (default ../shared/fixtures/abi; the
bundle manifest and the synthetic file are left out: 16 files) prints the bytes
of `BIN tools FILE --json --offline` (as printed), of the `tools/list` result
that `BIN serve --apps D --offline` answers over stdio (one JSON-RPC line, as
sent), and how many of the tools/list bytes are `pattern` strings of 64-bit
integers. With BIN2, one table with both binaries side by side (before, after).
"""
import json, os, re, shutil, subprocess, sys, tempfile

args = sys.argv[1:]
fixtures = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "fixtures", "abi")
if "--fixtures" in args:
    i = args.index("--fixtures")
    fixtures = args[i + 1]
    del args[i : i + 2]
bins = args
if not 1 <= len(bins) <= 2:
    sys.exit(__doc__)
files = sorted(
    f
    for f in os.listdir(fixtures)
    if f.endswith(".json") and not f.startswith(("bundle-", "synthetic-"))
)
INT_PATTERN = re.compile(r'"pattern":"(\^\(\?:0\|[^"]*)"')


def int_pattern_bytes(text):
    """Bytes of `"pattern":"…"` members whose regex is a decimal-integer one."""
    return sum(len(m.group(0)) for m in INT_PATTERN.finditer(text) if "[1-9]" in m.group(1))


def tools_json(bin_, path):
    p = subprocess.run([bin_, "tools", path, "--json", "--offline", "--quiet"], capture_output=True, check=True)
    return len(p.stdout)


def tools_list(bin_, path):
    d = tempfile.mkdtemp()
    try:
        shutil.copy(path, d)
        msgs = [
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "b", "version": "0"}}},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        ]
        p = subprocess.Popen([bin_, "serve", "--apps", d, "--offline", "--quiet"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        for m in msgs[:2]:
            p.stdin.write((json.dumps(m) + "\n").encode())
        p.stdin.flush()
        p.stdout.readline()  # initialize
        p.stdin.write((json.dumps(msgs[2]) + "\n").encode())
        p.stdin.flush()
        line = p.stdout.readline()
        p.stdin.close()
        p.wait(timeout=30)
        assert json.loads(line)["id"] == 2, line[:200]
        return len(line.rstrip(b"\n")), int_pattern_bytes(line.decode())
    finally:
        shutil.rmtree(d)


rows = []
for f in files:
    path = os.path.join(fixtures, f)
    row = [f]
    for b in bins:
        tj = tools_json(b, path)
        tl, pat = tools_list(b, path)
        row += [tj, tl, pat]
    rows.append(row)

total = ["**total**"] + [sum(r[i] for r in rows) for i in range(1, len(rows[0]))]
if len(bins) == 1:
    print("| manifest | tools --json | tools/list | of which integer patterns |")
    print("| --- | ---: | ---: | ---: |")
    for r in rows + [total]:
        share = f" ({100 * r[3] / r[2]:.0f} %)" if r[2] else ""
        print(f"| {r[0]} | {r[1]:,} | {r[2]:,} | {r[3]:,}{share} |")
else:
    print("| manifest | tools --json before | after | tools/list before | after | change | integer patterns before → after |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows + [total]:
        change = f"{100 * (r[5] - r[2]) / r[2]:+.1f} %" if r[2] else "0"
        print(f"| {r[0]} | {r[1]:,} | {r[4]:,} | {r[2]:,} | {r[5]:,} | {change} | {r[3]:,} → {r[6]:,} |")
