#!/usr/bin/env bash
# Issue 33: `calimcp doc` — generation time, page size and peak memory for the
# 101-method fixture and a generated 5,000-method ABI (release build).
# usage: benches/doc.sh    — needs hyperfine (apt-get install hyperfine) and GNU time
set -euo pipefail
cd "$(dirname "$0")/.."
command -v hyperfine >/dev/null || { echo "install hyperfine: apt-get install -y hyperfine" >&2; exit 1; }
cargo build --release --quiet --bin calimcp
bin=target/release/calimcp
out=target/bench
mkdir -p "$out"
python3 benches/gen_manifest.py 5000 > "$out/m5000.json"
fixture=../shared/fixtures/abi/mero-mcp-scaffolding-e2e.json

echo "## machine"; nproc; uptime
echo "## generation time"
hyperfine -N --warmup 3 --runs 30 --export-json "$out/doc.json" \
  "$bin doc $fixture -o $out/site101 --quiet --offline" \
  "$bin doc $out/m5000.json -o $out/site5000 --quiet --offline"
echo "## medians"
python3 - "$out/doc.json" <<'PY'
import json, sys
print("| command | median ms | mean ms | min ms |")
print("|---|---:|---:|---:|")
for r in json.load(open(sys.argv[1]))["results"]:
    cmd = r["command"].replace("target/release/", "")
    print(f"| `{cmd[:110]}` | {r['median']*1000:.1f} | {r['mean']*1000:.1f} | {r['min']*1000:.1f} |")
PY
echo "## page size (bytes; gzip -9 as a server would send it)"
for page in "$out"/site101/*.html "$out"/site5000/*.html; do
  printf '%s\t%s\t%s\n' "$page" "$(wc -c < "$page")" "$(gzip -9c "$page" | wc -c)"
done
echo "## peak memory (max RSS, KB)"
for f in "$fixture" "$out/m5000.json"; do
  /usr/bin/time -f "%M KB  doc $f" "$bin" doc "$f" -o "$out/site-mem" --quiet --offline
done
