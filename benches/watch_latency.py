#!/usr/bin/env python3
"""Latency of `calimcp watch --json`: from asking the fake node to push one
event to reading calimcp's printed line, N times (default 1000). It includes
the fake's own work (reading its stdin, building and writing the SSE frame),
so it is an upper bound on what calimcp adds. Run from the repository root
after `cargo build --release --bin calimcp --example fake-node`:

    python3 benches/watch_latency.py [N]
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
state = tempfile.mkdtemp()
fake = subprocess.Popen(["target/release/examples/fake-node"], stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE, text=True, bufsize=1)
url = fake.stdout.readline().strip()
env = dict(os.environ, CALIMCP_STATE_DIR=state)
watch = subprocess.Popen(["target/release/calimcp", "--node", url, "watch", "kv-store", "-c", "prod", "--json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1, env=env)
while "watching" not in watch.stderr.readline():
    pass
samples = []
for _ in range(n + 50):
    t0 = time.perf_counter()
    fake.stdin.write("burst prod 1\n")
    fake.stdin.flush()
    watch.stdout.readline()
    samples.append((time.perf_counter() - t0) * 1000)
samples = sorted(samples[50:])  # the first 50 warm up
watch.kill()
fake.stdin.close()
fake.wait()
print(f"{n} events, push request to printed line: median {statistics.median(samples):.3f} ms, "
      f"p90 {samples[int(n * 0.9)]:.3f} ms, min {samples[0]:.3f} ms")
