#!/usr/bin/env bash
# Interop with a client nobody here wrote: the official MCP TypeScript SDK
# (pinned in ts-sdk/package.json and package-lock.json) drives `calimcp serve`
# over stdio — lists the tools, calls them, lists and reads the resources and
# completes a template variable, and (against the fake node) checks
# structuredContent with its own output-schema validation. Exits non-zero on
# any failure. Needs node and npm (Node >= 18); installs into ts-sdk/node_modules.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
sdk=tests/interop/ts-sdk

command -v node >/dev/null || { echo "interop: node is not installed" >&2; exit 1; }
command -v npm >/dev/null || { echo "interop: npm is not installed" >&2; exit 1; }
echo "interop: node $(node --version), npm $(npm --version)"

cargo build --quiet --bin calimcp --example fake-node
target=${CARGO_TARGET_DIR:-$root/target}
bin=$target/debug/calimcp
(cd "$sdk" && npm ci --no-audit --no-fund --loglevel=error)

# The fake node lives until its stdin closes; it prints its URL first.
coproc FAKE { exec "$target/debug/examples/fake-node"; }
fake_pid=$FAKE_PID
cleanup() { exec {FAKE[1]}>&- 2>/dev/null || true; wait "$fake_pid" 2>/dev/null || true; }
trap cleanup EXIT
read -r node_url <&"${FAKE[0]}"
echo "interop: fake node at $node_url"

# Nothing from the environment: no real node, no stored tokens.
state=$(mktemp -d)
trap 'cleanup; rm -rf "$state"' EXIT
unset CALIMCP_APPS CALIMERO_NODE_URL CALIMERO_AUTH_TOKEN CALIMERO_REFRESH_TOKEN CALIMERO_USERNAME CALIMERO_PASSWORD CALIMERO_PASSWORD_FILE
export CALIMCP_STATE_DIR=$state

run() {
  echo "interop: calimcp serve $*"
  node "$sdk/client.mjs" "$bin" "$@"
}

run --offline --apps examples
CALIMCP_INTEROP_NODE=$node_url run --apps examples
if [ -d ../shared/fixtures/abi ]; then
  run --offline --apps examples --apps ../shared/fixtures/abi --quiet
  run --offline --apps examples --apps ../shared/fixtures/abi --refs defs --quiet
elif [ "${CALIMCP_REQUIRE_FIXTURES:-}" = 1 ]; then
  echo "interop: ../shared/fixtures/abi is missing (CALIMCP_REQUIRE_FIXTURES=1)" >&2
  exit 1
else
  echo "interop: skipped the fixture corpus: ../shared/fixtures/abi is missing"
fi
echo "interop: all passed"
