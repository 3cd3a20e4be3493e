#!/usr/bin/env bash
# calimcp against a real node (../shared/realnode: calimero-node 0.11.0-rc.4, or
# merod 0.11.0-rc.25 with `rc25`), for BENCHMARKS.md (issue 13 §3, issue 19):
#  1. the time from starting the node to the first successful call (node healthy,
#     app installed, context created, `calimcp call`: the path every test walks);
#  2. a full `calimcp call` (ABI cached) beside curl posting the same execute body;
#  3. `serve` tools/call round trips per second over Streamable HTTP (rc4 only).
# usage: [CALIMCP_BIN=PATH] benches/realnode.sh [rc4|rc25]   — needs hyperfine and curl
#   rc25 starts merod through run-node.sh and installs testapps/kv (the shared
#   kv.c's methods; its state holds on rc.25) as com.example.kv-c.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v hyperfine >/dev/null || { echo "install hyperfine: apt-get install -y hyperfine" >&2; exit 1; }
version=${1:-rc4}
node_bin=../shared/realnode/bin/calimero-node-rc4
[ "$version" = rc25 ] && node_bin=../shared/realnode/bin/merod-rc25
[ -x "$node_bin" ] || { echo "no real node at $node_bin" >&2; exit 1; }
bin=${CALIMCP_BIN:-}   # another calimcp binary (e.g. a debug build) instead of building a release one
if [ -z "$bin" ]; then cargo build --release --quiet --bin calimcp; bin=$PWD/target/release/calimcp; fi
out=target/bench
mkdir -p "$out"
tmp=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
url=http://127.0.0.1:$port
cleanup() {
  [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null
  [ "$version" = rc25 ] && ../shared/realnode/run-node.sh --stop --home "$tmp/node"
  wait 2>/dev/null || true; rm -rf "$tmp"
}
trap cleanup EXIT
export CALIMCP_STATE_DIR=$tmp/state CALIMERO_NODE_URL=$url

echo "## machine"; nproc; uptime
echo "## node start → first successful call"
start=$(date +%s.%N)
if [ "$version" = rc25 ]; then
  bash testapps/build.sh kv
  ../shared/realnode/run-node.sh --version rc25 --home "$tmp/node" --port "$port" --swarm-port "$((port + 1))" >/dev/null
  healthy=$(date +%s.%N)
  ../shared/realnode/setup-app.sh "$url" kvmain "$PWD/target/testapps/kv.wasm" com.example.kv-c >/dev/null
else
  REALNODE_HOME=$tmp/node REALNODE_PORT=$port REALNODE_AUTH=proxy RUST_LOG=warn "$node_bin" >/dev/null 2>&1 &
  pid=$!
  until curl -sf "$url/admin-api/health" >/dev/null; do sleep 0.01; done
  healthy=$(date +%s.%N)
  ../shared/realnode/setup-app.sh "$url" kvmain >/dev/null
fi
set_up=$(date +%s.%N)
"$bin" call com.example.kv-c.add -c kvmain --a 1 --b 2 >/dev/null
first=$(date +%s.%N)
python3 -c "import sys; s,h,u,f=map(float,sys.argv[1:]); print(f'healthy after {h-s:.3f} s; app installed and context created (curl) after {u-s:.3f} s; first calimcp call (ABI read from the module) done after {f-s:.3f} s (the call itself {f-u:.3f} s)')" "$start" "$healthy" "$set_up" "$first"

"$bin" call com.example.kv-c.add -c kvmain --a 1 --b 2 --dry-run --json \
  | python3 -c 'import json,sys; json.dump(json.load(sys.stdin)["body"], open(sys.argv[1],"w"), separators=(",",":"))' "$out/realnode-body.json"
ctx=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["params"]["contextId"])' "$out/realnode-body.json")
echo "## full call, ABI cached, context by id, vs curl posting the same body"
hyperfine -N --warmup 10 --runs 200 --export-json "$out/realnode-call.json" \
  "$bin call com.example.kv-c.add -c $ctx --a 1 --b 2" \
  "curl -s -X POST -H content-type:application/json --data-binary @$out/realnode-body.json $url/jsonrpc"
[ "$version" = rc25 ] && exit 0
echo "## serve: tools/call round trips over Streamable HTTP"
cargo bench --quiet --bench serve -- calls 1000 50 "$url" com.example.kv-c kv_c 2>/dev/null
