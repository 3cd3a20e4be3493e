#!/usr/bin/env bash
# Runs each fuzz target for SECS seconds (default 20): manifest, args, mcp_line.
# Needs the nightly toolchain; installs cargo-fuzz from crates.io when missing.
# The build lives outside the clone ($CALIMCP_FUZZ_TARGET, default
# ~/.cache/calimcp/fuzz-target), so later runs only rebuild what changed.
# usage: fuzz/run.sh [SECS]
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-20}
rustup toolchain list | grep -q '^nightly' || { echo "fuzz: no nightly toolchain (rustup toolchain install nightly)" >&2; exit 1; }
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
export CARGO_TARGET_DIR="${CALIMCP_FUZZ_TARGET:-$HOME/.cache/calimcp/fuzz-target}"
for target in manifest args mcp_line; do
  mkdir -p "corpus/$target"
  echo "fuzz: $target for ${secs}s"
  cargo +nightly fuzz run --fuzz-dir . "$target" "corpus/$target" -- \
    -max_total_time="$secs" -max_len=65536 -rss_limit_mb=2048 -print_final_stats=1 2>&1 \
    | grep -E '^(#[0-9]+ +DONE|INFO: Done|==[0-9]+==|SUMMARY|stat::number_of_executed_units)' || true
  # A crash leaves an artifact and a non-zero status above; fail on artifacts.
  if ls "artifacts/$target"/crash-* "artifacts/$target"/oom-* "artifacts/$target"/timeout-* >/dev/null 2>&1; then
    echo "fuzz: $target found a failing input: fuzz/artifacts/$target/" >&2
    exit 1
  fi
done
