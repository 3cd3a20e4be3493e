#!/usr/bin/env bash
# What taking an app's docs from its module costs (issue 44 §2): merod
# 0.11.0-rc.25's ABI route drops every `doc`, so calimcp also reads the module
# (once per module; cached with the ABI). Times `calimcp tools --json` — the
# catalog `serve` builds at start — against an rc.25 node with 20 apps, each a
# distinct module (testapps' builds that embed an ABI, and copies of kv.wasm
# made distinct by an extra custom section), with the ABI cache cold (a fresh
# state directory each run) and warm, for each binary given (e.g. a build
# from before the change and one from after).
# usage: benches/abi_docs.sh BIN [BIN...]   — needs hyperfine, curl, clang/lld
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: benches/abi_docs.sh BIN [BIN...]" >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "install hyperfine" >&2; exit 1; }
bash testapps/build.sh --all >/dev/null
tmp=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
url=http://127.0.0.1:$port
cleanup() { ../shared/realnode/run-node.sh --stop --home "$tmp/node" >/dev/null 2>&1 || true; rm -rf "$tmp"; }
trap cleanup EXIT
../shared/realnode/run-node.sh --version rc25 --home "$tmp/node" --port "$port" --swarm-port "$((port + 1))" >/dev/null
mkdir -p "$tmp/apps"
n=0
for w in target/testapps/*.wasm; do
  case $w in *noabi*) continue ;; esac
  cp "$w" "$tmp/apps/$(basename "$w")"; n=$((n + 1))
done
i=0
while [ "$n" -lt 20 ]; do
  i=$((i + 1)); n=$((n + 1))
  # A custom section `bench` holding the copy's number: another blob id.
  python3 - "$PWD/target/testapps/kv.wasm" "$tmp/apps/kv-copy$i.wasm" "$i" <<'EOF'
import sys
src, dst, i = sys.argv[1], sys.argv[2], sys.argv[3].encode()
name = b"bench"
body = bytes([len(name)]) + name + i
open(dst, "wb").write(open(src, "rb").read() + b"\x00" + bytes([len(body)]) + body)
EOF
done
for w in "$tmp"/apps/*.wasm; do
  pkg=com.bench.$(basename "$w" .wasm)
  curl -fsS -H 'Content-Type: application/json' -X POST "$url/admin-api/install-dev-application" \
    -d "{\"path\":\"$w\",\"metadata\":[],\"package\":\"$pkg\",\"version\":\"1.0.0\"}" >/dev/null
done
echo "## machine"; nproc; uptime
echo "## $(curl -fsS "$url/admin-api/applications" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["data"]["apps"]))') apps on merod 0.11.0-rc.25 at $url"
for bin in "$@"; do
  echo "## $bin ($("$bin" --version))"
  export CALIMERO_NODE_URL=$url
  CALIMCP_STATE_DIR=$tmp/warm "$bin" tools --json >/dev/null
  hyperfine -N --warmup 2 --runs 20 \
    --prepare "rm -rf $tmp/cold" \
    -n cold "env CALIMCP_STATE_DIR=$tmp/cold $bin tools --json" \
    -n warm "env CALIMCP_STATE_DIR=$tmp/warm $bin tools --json"
  CALIMCP_STATE_DIR=$tmp/warm "$bin" tools --json | python3 -c '
import json, sys
tools = json.load(sys.stdin)
tools = tools["tools"] if isinstance(tools, dict) else tools
add = next(t for t in tools if t["name"].endswith("_add"))
print("tools:", len(tools), "| description of", add["name"] + ":", json.dumps(add["description"]))'
  rm -rf "$tmp/warm"
done
