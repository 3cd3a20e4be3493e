#!/usr/bin/env bash
# Peak memory (RSS) of `calimcp watch --json` for one large event, for
# BENCHMARKS.md (issue 24.2): a baseline with one small event, then one event
# whose payload is B bytes (about 4×B on the wire, as the node writes bytes).
# KIND=raw: the event's data is B bytes that are neither JSON nor UTF-8
# (issue 28.6; printed as `raw`, base64) instead of a JSON string.
# usage: [KIND=raw] benches/watch_memory.sh [BIN] [PROFILE]   (default target/release/calimcp, release)
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${2:-release}
flag=$([ "$profile" = release ] && echo --release || true)
[ -n "${1:-}" ] && cargo build $flag --quiet --example fake-node || cargo build $flag --quiet --bin calimcp --example fake-node
target=${CARGO_TARGET_DIR:-$PWD/target}
bin=${1:-$target/$profile/calimcp}
fake=$target/$profile/examples/fake-node
tmp=$(mktemp -d)
cleanup() { exec 3>&- 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
export CALIMCP_STATE_DIR=$tmp/state
echo "## machine"; nproc; uptime; echo "## binary: $bin"
run() {
  local bytes=$1
  mkfifo "$tmp/in"
  "$fake" < "$tmp/in" > "$tmp/url" &
  exec 3>"$tmp/in"
  until [ -s "$tmp/url" ]; do sleep 0.05; done
  local url
  url=$(head -1 "$tmp/url")
  /usr/bin/time -f '%M' -o "$tmp/rss" "$bin" --node "$url" watch kv-store -c k7FaK87WHGVXzkaoHb7CdVPgkKDQhZ29VLDeBVbDfYn --json --count 1 \
    > "$tmp/out" 2> "$tmp/err" &
  local pid=$!
  until grep -qs "^watching" "$tmp/err"; do
    kill -0 "$pid" 2>/dev/null || { cat "$tmp/err" >&2; exit 1; }
    sleep 0.01
  done
  echo "${KIND:-big} prod $bytes" >&3
  wait "$pid" || true
  exec 3>&-
  wait
  rm -f "$tmp/in" "$tmp/url" "$tmp/err"
  echo "$bytes $(cat "$tmp/rss") $(wc -c < "$tmp/out")"
}
base=$(run 16)
echo "payload_bytes peak_rss_kib printed_bytes extra_rss_per_payload_byte"
echo "$base -"
for b in 1000000 3000000 4000000; do
  r=$(run "$b")
  python3 - "$base" "$r" <<'PY'
import sys
b0 = sys.argv[1].split(); r = sys.argv[2].split()
extra = (int(r[1]) - int(b0[1])) * 1024
print(f"{r[0]} {r[1]} {r[2]} {extra / int(r[0]):.1f}x")
PY
done
