#!/usr/bin/env bash
# tools/call throughput of `calimcp serve` over stdio and Streamable HTTP, side
# by side in one run against one fake node (issue 29 §7; results in
# BENCHMARKS.md), with two clients: the official MCP TypeScript SDK
# (benches/mcp_throughput.mjs: what an agent built on it gets, and the same
# client against benches/mcp_null_http.py, a server that does nothing: the
# client's own ceiling over HTTP), then a lean
# client with the same few lines for both transports (benches/mcp_lean.py:
# the server's own cost per transport).
#
#   bash benches/mcp_throughput.sh [CALLS] [IN_FLIGHT] [ROUNDS] [LEAN_CALLS]   # default 200 10 3 2000
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin calimcp --example fake-node
(cd tests/interop/ts-sdk && npm ci --no-audit --no-fund --loglevel=error)
target=${CARGO_TARGET_DIR:-$PWD/target}
coproc FAKE { exec "$target/release/examples/fake-node"; }
fake_pid=$FAKE_PID
trap 'exec {FAKE[1]}>&- 2>/dev/null || true; wait "$fake_pid" 2>/dev/null || true' EXIT
read -r node_url <&"${FAKE[0]}"
state=$(mktemp -d)
trap 'exec {FAKE[1]}>&- 2>/dev/null || true; wait "$fake_pid" 2>/dev/null || true; rm -rf "$state"' EXIT
unset CALIMCP_APPS CALIMERO_NODE_URL CALIMERO_AUTH_TOKEN
export CALIMCP_STATE_DIR=$state
node benches/mcp_throughput.mjs "$target/release/calimcp" "$node_url" "${1:-200}" "${2:-10}" "${3:-3}"
python3 benches/mcp_lean.py "$target/release/calimcp" "$node_url" "${4:-2000}" "${2:-10}" "${3:-3}"
