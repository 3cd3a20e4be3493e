#!/usr/bin/env bash
# Time and peak memory of `calimcp contexts` (release build) against the fake
# node holding N contexts of one app, N/2 of them aliased, for BENCHMARKS.md
# (issue 28.4: ids are indexed once, so the time grows linearly with N).
# usage: [BIN=PATH] [PROFILE=debug] benches/contexts.sh [N...]   (default 1000 10000 20000;
#        BIN: the calimcp to time, default this tree's build of PROFILE, release by default)
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${PROFILE:-release}
flag=$([ "$profile" = release ] && echo --release || true)
cargo build $flag --quiet --bin calimcp --example fake-node
target=${CARGO_TARGET_DIR:-$PWD/target}
bin=${BIN:-$target/$profile/calimcp}
fake=$target/$profile/examples/fake-node
tmp=$(mktemp -d)
trap 'exec 3>&- 2>/dev/null || true; rm -rf "$tmp"' EXIT
export CALIMCP_STATE_DIR=$tmp/state
echo "## machine"; nproc; uptime; echo "## binary: $bin"
echo "contexts aliases rows text_s json_s json_peak_rss_kib"
for n in "${@:-1000 10000 20000}"; do
  for n in $n; do
    mkfifo "$tmp/in"
    "$fake" < "$tmp/in" > "$tmp/out" &
    exec 3>"$tmp/in"
    until [ -s "$tmp/out" ]; do sleep 0.05; done
    url=$(head -1 "$tmp/out")
    echo "contexts $n $((n / 2))" >&3
    until [ "$(wc -l < "$tmp/out")" -ge 2 ]; do sleep 0.05; done
    "$bin" --node "$url" contexts kv-store > /dev/null # warm-up (ABI cache)
    /usr/bin/time -f '%e' -o "$tmp/text" "$bin" --node "$url" contexts kv-store > /dev/null
    /usr/bin/time -f '%e %M' -o "$tmp/json" "$bin" --node "$url" contexts kv-store --json > "$tmp/rows"
    rows=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$tmp/rows")
    echo "$n $((n / 2)) $rows $(cat "$tmp/text") $(cat "$tmp/json")"
    exec 3>&-
    wait
    rm -f "$tmp/in" "$tmp/out"
  done
done
