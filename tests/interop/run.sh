#!/usr/bin/env bash
# Interop with clients nobody here wrote, each pinned and installed from its
# registry by this script:
# - the official MCP TypeScript SDK (ts-sdk/package.json, package-lock.json)
#   drives `calimcp serve` over stdio — lists the tools, calls them, lists and
#   reads the resources and completes a template variable, and (against the
#   fake node) checks structuredContent with its own output-schema validation;
# - the official MCP Python SDK (py-sdk/requirements.txt, in a venv under
#   target/) in its default mode, which negotiates protocol 2026-07-28 through
#   server/discover, over stdio and HTTP, against the fake node: lists and
#   calls tools (a failure's error as structured content), reads every
#   listed resource (the MCP App's ui:// too), gets a completion;
# - the official conformance suite (conformance/package.json) against
#   `serve --http`: the scenarios that apply to calimcp (docs/conformance.md
#   says which do not, and why).
# Exits non-zero on any failure. Needs node and npm (Node >= 20) and python3
# with venv.
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
(cd tests/interop/conformance && npm ci --no-audit --no-fund --loglevel=error)
venv=$target/interop-venv
if ! "$venv/bin/python" -c 'import importlib.metadata as m; assert m.version("mcp") == "2.3.0"' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r tests/interop/py-sdk/requirements.txt
fi

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
echo "interop: the Python SDK (mcp $("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))'), default mode)"
# The examples, kv-store's manifest carrying a guide: every resource kind listed.
cp -r examples "$state/guided"
python3 - "$state/guided/kv-store/manifest.json" <<'PY'
import json, sys
path = sys.argv[1]
m = json.load(open(path))
m["metadata"]["guide"] = "# KV Store\n\n## Procedures\n\n### Store a value\n\nCall kv_store_set.\n"
json.dump(m, open(path, "w"))
PY
"$venv/bin/python" tests/interop/py-sdk/client.py "$bin" --node "$node_url" --apps "$state/guided"

# The conformance suite's server scenarios that apply to calimcp; the others
# need the suite's own fixture tools, prompts, resources or capabilities
# calimcp does not have (docs/conformance.md).
scenarios=(server-initialize ping tools-list resources-list server-sse-multiple-streams dns-rebinding-protection)
"$bin" serve --offline --apps examples --http 127.0.0.1:0 2>"$state/conformance.err" &
serve_pid=$!
trap 'kill "$serve_pid" 2>/dev/null || true; cleanup; rm -rf "$state"' EXIT
url=
for _ in $(seq 100); do
  url=$(grep -o 'http://[^ ]*' "$state/conformance.err" | head -1 || true)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { echo "interop: serve --http printed no URL" >&2; cat "$state/conformance.err" >&2; exit 1; }
conformance=(node --import ./tests/interop/conformance/node20.mjs tests/interop/conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js)
for scenario in "${scenarios[@]}"; do
  echo "interop: conformance $scenario"
  "${conformance[@]}" server --url "$url" --scenario "$scenario" >"$state/scenario.out" 2>&1 || {
    cat "$state/scenario.out" >&2
    echo "interop: conformance scenario $scenario failed" >&2
    exit 1
  }
  grep -E '^Passed:' "$state/scenario.out" || true
done
kill "$serve_pid"
echo "interop: all passed"
