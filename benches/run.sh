#!/usr/bin/env bash
# Times whole commands (release build) for BENCHMARKS.md.
# usage: benches/run.sh            — needs hyperfine (apt-get install hyperfine) and GNU time
set -euo pipefail
cd "$(dirname "$0")/.."
command -v hyperfine >/dev/null || { echo "install hyperfine: apt-get install -y hyperfine" >&2; exit 1; }
cargo build --release --quiet
bin=target/release/calimcp
out=target/bench
mkdir -p "$out"
python3 benches/gen_manifest.py 500 > "$out/m500.json"
python3 benches/gen_manifest.py 5000 > "$out/m5000.json"
fixture=../shared/fixtures/abi/mero-mcp-scaffolding-e2e.json

echo "## machine"; nproc; uptime
# A hello-world Rust binary: what starting any Rust process costs on this box.
printf 'fn main() { println!("hello"); }\n' > "$out/hello.rs"
rustc -O -o "$out/hello" "$out/hello.rs"

echo "## cold tools --json, scaffolding-e2e (101 methods); hello and --version = process start on this box"
[ -f "$fixture" ] && hyperfine -N --warmup 20 --runs 300 --export-json "$out/tools-101.json" \
  "$out/hello" "$bin --version" "$bin tools --json $fixture"
echo "## all schemas, generated 500 / 5,000 methods"
hyperfine -N --warmup 3 --runs 30 --export-json "$out/schema-gen.json" \
  "$bin schema $out/m500.json --quiet" "$bin schema $out/m5000.json --quiet" \
  "$bin tools --json $out/m5000.json --quiet"
echo "## medians"
python3 - "$out"/tools-101.json "$out/schema-gen.json" <<'PY'
import json, os, sys
print("| command | median ms | mean ms | min ms |")
print("|---|---:|---:|---:|")
for f in sys.argv[1:]:
    if not os.path.exists(f):
        continue
    for r in json.load(open(f))["results"]:
        cmd = r["command"].replace("target/release/", "")
        print(f"| `{cmd[:110]}` | {r['median']*1000:.1f} | {r['mean']*1000:.1f} | {r['min']*1000:.1f} |")
PY
echo "## peak memory (max RSS)"
for cmd in "schema $out/m5000.json --quiet" "tools --json $out/m5000.json --quiet"; do
  /usr/bin/time -f "%M KB  calimcp $cmd" $bin $cmd >/dev/null
done
echo "## mapping stages (library)"
cargo bench --quiet --bench mapping -- "$out/m5000.json" "$out/m500.json" ${fixture:+$( [ -f "$fixture" ] && echo "$fixture")}
