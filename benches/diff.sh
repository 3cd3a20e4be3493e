#!/usr/bin/env bash
# Times `calimcp diff` on two generated 5,000-method manifests with 500 changes
# (BENCHMARKS.md, issue 10). Needs hyperfine (apt-get install hyperfine) and GNU time.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/calimcp
out=target/bench
mkdir -p "$out/old" "$out/new"
python3 benches/gen_manifest.py 5000 > "$out/m5000.json"
python3 benches/gen_diff.py "$out/m5000.json" "$out/old/abi.json" "$out/new/abi.json"
echo "## machine"; nproc; uptime
cmd="$bin diff $out/old/abi.json $out/new/abi.json --quiet --fail-on none"
hyperfine -N --warmup 3 --runs 30 --export-json "$out/diff.json" "$cmd" "$cmd --json" \
  "$bin describe $out/old/abi.json --quiet" 
echo "## peak memory (max RSS): diff, then describe of each side (one load each)"
/usr/bin/time -f "%M KB  diff" $cmd >/dev/null
/usr/bin/time -f "%M KB  describe old" $bin describe $out/old/abi.json --quiet >/dev/null
/usr/bin/time -f "%M KB  describe new" $bin describe $out/new/abi.json --quiet >/dev/null
echo "## library stages"
cargo bench --quiet --bench diff -- "$out/old/abi.json" "$out/new/abi.json"
cargo bench --quiet --bench diff -- stress
echo "## recursion at scale (issue 30): library, then the whole command and its peak memory"
cargo bench --quiet --bench diff -- scale "$out/scale"
for pair in chain-docs chain-type ring-docs; do
  c="$bin diff $out/scale/$pair.old.json $out/scale/$pair.new.json --quiet --fail-on none --package bench"
  hyperfine -N --warmup 1 --runs 10 "$c" "$c --json"
  /usr/bin/time -f "%M KB  $pair" $c >/dev/null
  /usr/bin/time -f "%M KB  $pair --json" $c --json >/dev/null
  /usr/bin/time -f "%M KB  describe $pair.old (one load)" $bin describe $out/scale/$pair.old.json --quiet >/dev/null
done
