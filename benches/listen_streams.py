"""Memory and descriptors per idle `subscriptions/listen` stream of
`calimcp serve --http` (issue 47).

    python3 benches/listen_streams.py target/debug/calimcp 500

Starts `serve --apps examples --offline --http 127.0.0.1:0` (cap raised to
N+20), opens 10 streams to warm it up, then N more (each a 2026-07-28
`subscriptions/listen` POST on a connection of its own, read until its
acknowledgement, then left idle), and prints the server's resident memory and
open descriptors before and after, and once they are all closed.
"""
import json, os, re, socket, subprocess, sys, time

bin_, n = sys.argv[1], int(sys.argv[2])
env = dict(os.environ, CALIMCP_MAX_SESSIONS=str(n + 20))
p = subprocess.Popen([bin_, "serve", "--apps", "examples", "--offline", "--http", "127.0.0.1:0"],
                     stderr=subprocess.PIPE, env=env, text=True)
url = None
while url is None:
    m = re.search(r"http://([\d.]+):(\d+)/mcp", p.stderr.readline())
    url = m and (m.group(1), int(m.group(2)))
host, port = url


def rss():
    return int(re.search(r"VmRSS:\s+(\d+)", open(f"/proc/{p.pid}/status").read()).group(1))


def fds():
    return len(os.listdir(f"/proc/{p.pid}/fd"))


def listen(i):
    body = json.dumps({"jsonrpc": "2.0", "id": f"l{i}", "method": "subscriptions/listen", "params": {
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                  "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "0"},
                  "io.modelcontextprotocol/clientCapabilities": {}},
        "notifications": {"toolsListChanged": True}}}).encode()
    s = socket.create_connection((host, port))
    s.sendall(b"POST /mcp HTTP/1.1\r\nHost: %s:%d\r\nContent-Type: application/json\r\n"
              b"Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
              b"Mcp-Method: subscriptions/listen\r\nContent-Length: %d\r\n\r\n" % (host.encode(), port, len(body)) + body)
    got = b""
    while b"acknowledged" not in got:
        chunk = s.recv(65536)
        if not chunk:
            raise SystemExit(f"stream {i} closed: {got[:300]!r}")
        got += chunk
    if not got.startswith(b"HTTP/1.1 200"):
        raise SystemExit(f"stream {i}: {got[:300]!r}")
    return s


warm = [listen(i) for i in range(10)]
time.sleep(0.5)
before, fd_before = rss(), fds()
t = time.time()
streams = [listen(i) for i in range(10, 10 + n)]
took = time.time() - t
time.sleep(0.5)
after, fd_after = rss(), fds()
for s in streams + warm:
    s.close()
time.sleep(1)
closed, fd_closed = rss(), fds()
print(f"{n} idle listen streams in {took:.1f}s; RSS {before/1024:.1f} MiB -> {after/1024:.1f} MiB "
      f"({(after-before)/n:.1f} KiB per stream), {closed/1024:.1f} MiB once closed; "
      f"descriptors {fd_before} -> {fd_after} ({(fd_after-fd_before)/n:.2f} per stream), {fd_closed} once closed")
p.terminate()
p.wait()
