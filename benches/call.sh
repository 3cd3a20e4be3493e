#!/usr/bin/env bash
# Times `calimcp call` (release build) for BENCHMARKS.md:
#  1. a dry run of a local app (--apps) with a context id: no network at all;
#  2. a full call against the fake node on loopback, ABI cached, beside curl
#     posting the same execute body;
#  3. the same full call against a node without the ABI route (profile rc4,
#     merod before 0.11.0-rc.19), the ABI read once from the app's module and cached.
# usage: benches/call.sh    — needs hyperfine (apt-get install hyperfine) and curl
set -euo pipefail
cd "$(dirname "$0")/.."
command -v hyperfine >/dev/null || { echo "install hyperfine: apt-get install -y hyperfine" >&2; exit 1; }
cargo build --release --quiet --bin calimcp --example fake-node
bin=target/release/calimcp
out=target/bench
mkdir -p "$out"
state=$(mktemp -d)
trap 'rm -rf "$state"' EXIT
export CALIMCP_STATE_DIR="$state"

coproc NODE { exec target/release/examples/fake-node; }
read -r url <&"${NODE[0]}"
coproc OLD { exec target/release/examples/fake-node --profile rc4; }
read -r old_url <&"${OLD[0]}"
hex=$(printf 'ab%.0s' $(seq 32))

echo "## machine"; nproc; uptime
echo "## dry run, local app, context id (no network); --version = process start on this box"
hyperfine -N --warmup 10 --runs 300 --export-json "$out/call-dry-run.json" \
  "$bin --version" \
  "$bin --offline --apps examples call kv_store_set --key a --value b --dry-run -c $hex"

# Warm the ABI cache, then take the exact body a call sends.
$bin --node "$url" call kv_store_set --key a --value b >/dev/null
$bin --node "$url" call kv_store_set --key a --value b --dry-run --json \
  | python3 -c 'import json,sys; v=json.load(sys.stdin); print(v["body"]["params"]["contextId"]); json.dump(v["body"], open(sys.argv[1],"w"), separators=(",",":"))' "$out/body.json" \
  > "$out/ctx"
ctx=$(cat "$out/ctx")

echo "## full call on loopback, ABI cached (context found / context given) vs curl"
hyperfine -N --warmup 10 --runs 300 --export-json "$out/call-full.json" \
  "$bin --node $url call kv_store_set --key a --value b" \
  "$bin --node $url call kv_store_set --key a --value b -c $ctx" \
  "curl -s -o /dev/null -X POST -H content-type:application/json --data-binary @$out/body.json $url/jsonrpc"

echo "## full call on loopback, node without the ABI route (rc4), module ABI cached"
$bin --node "$old_url" call kv_store_set --key a --value b >/dev/null
hyperfine -N --warmup 10 --runs 300 --export-json "$out/call-full-rc4.json" \
  "$bin --node $old_url call kv_store_set --key a --value b"

echo "## medians"
python3 - "$out/call-dry-run.json" "$out/call-full.json" "$out/call-full-rc4.json" <<'PY'
import json, sys
print("| command | median ms | mean ms | min ms |")
print("|---|---:|---:|---:|")
for f in sys.argv[1:]:
    for r in json.load(open(f))["results"]:
        cmd = r["command"].replace("target/release/", "")
        print(f"| `{cmd[:110]}` | {r['median']*1000:.1f} | {r['mean']*1000:.1f} | {r['min']*1000:.1f} |")
PY
