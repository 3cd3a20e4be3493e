#!/usr/bin/env python3
"""Two peered real nodes (../shared/realnode/multinode.sh, testapps/events):
the time from a call on node 1 to the decoded line of `calimcp watch --json`
on node 2, N times (default 60; the first 10 warm up and are dropped). Each
sample starts when the JSON-RPC `execute` of `insert` is sent to node 1 (a
plain HTTP POST: the node's work, not calimcp's start) and ends when calimcp on
node 2 has printed the event's line; the next call waits for that line. Run
from the repository root after `cargo build --release --bin calimcp` (or CALIMCP_BIN=path) and
`testapps/build.sh events`:

    python3 benches/realnode_peers.py rc4|rc25 [N] [BASE_PORT]
"""
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

version = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 60
base = int(sys.argv[3]) if len(sys.argv) > 3 else (26200 if version == "rc25" else 26300)
warm = 10
home = tempfile.mkdtemp()
script = "../shared/realnode/multinode.sh"
wasm = os.path.abspath("target/testapps/events.wasm")
t0 = time.perf_counter()
env_out = subprocess.run([script, "--version", version, "--nodes", "2", "--port", str(base), "--home", home,
                          "--app", wasm, "com.example.events"], check=True, capture_output=True, text=True).stdout
setup_s = time.perf_counter() - t0
env = dict(re.findall(r"^(\w+)=(.*)$", env_out, re.M))
node1, node2, app, ctx = env["NODE1"], env["NODE2"], env["APP"], env["CONTEXT"]
try:
    def execute(url, method, args):
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "execute", "params": {
            "contextId": ctx, "method": method, "argsJson": args,
            "executorPublicKey": "11111111111111111111111111111111"}}).encode()
        req = urllib.request.Request(url + "/jsonrpc", body, {"Content-Type": "application/json"})
        return json.load(urllib.request.urlopen(req, timeout=60))

    # Until node 2 has the context's state (snapshot sync after the join).
    t1 = time.perf_counter()
    while "Uninitialized" in json.dumps(execute(node2, "quiet", {})):
        time.sleep(0.1)
    sync_s = time.perf_counter() - t1
    state = tempfile.mkdtemp()
    watch = subprocess.Popen([os.environ.get("CALIMCP_BIN", "target/release/calimcp"), "--node", node2, "watch", app, "-c", ctx, "--json",
                              "--timeout", "3600"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1,
                             env=dict(os.environ, CALIMCP_STATE_DIR=state))
    while "watching" not in watch.stderr.readline():
        pass
    samples = []
    for i in range(n + warm):
        start = time.perf_counter()
        r = execute(node1, "insert", {"key": f"k{i}", "n": i})
        assert "error" not in r, r
        line = json.loads(watch.stdout.readline())
        samples.append((time.perf_counter() - start) * 1000)
        assert line["payload"]["n"] == i, line
    watch.kill()
    samples = sorted(samples[warm:])
    print(f"{version}: 2 nodes up, peered, app on node 1, node 2 a member in {setup_s:.1f} s; node 2 had the "
          f"state {sync_s:.1f} s later")
    print(f"{version}: {n} events, call sent to node 1 -> decoded line on node 2: median "
          f"{statistics.median(samples):.1f} ms, p90 {samples[int(n * 0.9)]:.1f} ms, min {samples[0]:.1f} ms, "
          f"max {samples[-1]:.1f} ms")
finally:
    subprocess.run([script, "--stop", "--home", home], check=False)
