#!/usr/bin/env bash
# Times `calimcp watch --json` (release build) for BENCHMARKS.md: events decoded,
# checked against the ABI and printed per second, from the fake node's SSE
# stream on loopback to a pipe, and the peak memory (RSS) for N and 10×N events.
# usage: benches/watch.sh [N]   (default 100000)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin calimcp --example fake-node
bin=$PWD/target/release/calimcp
n=${1:-100000}
tmp=$(mktemp -d)
cleanup() { exec 3>&- 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
export CALIMCP_STATE_DIR=$tmp/state

echo "## machine"; nproc; uptime
run() {
  local count=$1
  mkfifo "$tmp/in"
  target/release/examples/fake-node < "$tmp/in" > "$tmp/url" &
  exec 3>"$tmp/in"
  until [ -s "$tmp/url" ]; do sleep 0.05; done
  local url
  url=$(head -1 "$tmp/url")
  /usr/bin/time -f '%M' -o "$tmp/rss" "$bin" --node "$url" watch kv-store -c prod --json --count "$count" \
    > >(wc -l > "$tmp/lines") 2> "$tmp/err" &
  local pid=$!
  until grep -q '^watching' "$tmp/err"; do
    kill -0 "$pid" 2>/dev/null || { cat "$tmp/err" >&2; exit 1; }
    sleep 0.01
  done
  local start end
  start=$(date +%s.%N)
  echo "burst prod $count" >&3
  wait "$pid"
  end=$(date +%s.%N)
  exec 3>&-
  wait
  rm -f "$tmp/in" "$tmp/url" "$tmp/err"
  python3 - "$count" "$start" "$end" "$(cat "$tmp/rss")" "$(cat "$tmp/lines")" <<'PY'
import sys
n, start, end, rss, lines = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
secs = end - start
print(f"{n} events: {secs:.2f} s from the first push to exit, {n/secs:,.0f} events/s, peak RSS {rss/1024:.1f} MiB, {lines} lines printed")
PY
}
echo "## calimcp watch kv-store --json --count N > pipe"
run "$n"
run "$((n * 10))"
