"""Memory per Streamable HTTP session of `calimcp serve` (issue 24 §3).

    python3 benches/sessions.py target/debug/calimcp 2000

Starts `serve --apps examples --offline --http 127.0.0.1:0` (cap raised to N+10),
opens N sessions with `initialize`, and prints resident memory before and after.
"""
import json, subprocess, sys, time, urllib.request, re, os
bin_, n = sys.argv[1], int(sys.argv[2])
env = dict(os.environ, CALIMCP_MAX_SESSIONS=str(n + 10))
p = subprocess.Popen([bin_, "serve", "--apps", "examples", "--offline", "--http", "127.0.0.1:0"], stderr=subprocess.PIPE, env=env, text=True)
url = None
while url is None:
    m = re.search(r"(http://\S+)", p.stderr.readline())
    url = m and m.group(1)
def rss():
    return int(re.search(r"VmRSS:\s+(\d+)", open(f"/proc/{p.pid}/status").read()).group(1))
body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "b", "version": "0"}}}).encode()
def init():
    r = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
    with urllib.request.urlopen(r) as resp:
        resp.read()
        return resp.status
init(); time.sleep(0.5)
before = rss()
t = time.time()
ok = sum(init() == 200 for _ in range(n))
took = time.time() - t
time.sleep(0.5)
after = rss()
print(f"{ok}/{n} sessions in {took:.1f}s; RSS {before/1024:.1f} MiB -> {after/1024:.1f} MiB; {(after-before)/n:.1f} KiB per session")
p.terminate(); p.wait()
