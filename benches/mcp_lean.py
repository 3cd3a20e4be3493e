#!/usr/bin/env python3
"""tools/call throughput of `calimcp serve` over stdio and Streamable HTTP with
a lean client: the same few lines of JSON-RPC for both transports, so what is
measured is the server's own cost per transport (issue 29 §7; the official
TypeScript SDK's figures come from benches/mcp_throughput.mjs, whose client
costs far more per HTTP call than per stdio call).

    python3 benches/mcp_lean.py CALIMCP NODE_URL [CALLS] [IN_FLIGHT] [ROUNDS]

Run by benches/mcp_throughput.sh after the SDK's run. Each round makes CALLS
(default 2000) `kv_store_get` calls with IN_FLIGHT (default 10) at a time over
stdio (one pipe, answers matched by id), then the same over HTTP (one session,
IN_FLIGHT keep-alive connections, one POST at a time on each), against a fresh
server each; prints calls/s and the CPU per call of the server (/proc) and of
this client, per round and as medians.
"""

import asyncio
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "examples")
TICK = os.sysconf("SC_CLK_TCK")


def cpu_of(pid):
    """CPU seconds (user + system) process `pid` has used so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def own_cpu():
    t = os.times()
    return t.user + t.system


def call_message(i):
    return {
        "jsonrpc": "2.0",
        "id": i,
        "method": "tools/call",
        "params": {"name": "kv_store_get", "arguments": {"key": "bench"}},
    }


INIT = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "lean-bench", "version": "1"},
    },
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def check(answer):
    if "result" not in answer or answer["result"].get("isError"):
        raise SystemExit(f"a call failed: {answer}")


async def load(call, pid, calls, in_flight):
    """Runs `calls` calls through `call(i)`, `in_flight` at a time."""
    check(await call(1))  # warm-up: the server reads the node once
    next_id = iter(range(2, calls + 2))
    s0, c0, t0 = cpu_of(pid), own_cpu(), time.perf_counter()

    async def worker():
        for i in next_id:
            check(await call(i))

    await asyncio.gather(*(worker() for _ in range(in_flight)))
    secs = time.perf_counter() - t0
    return {
        "rate": calls / secs,
        "server": 1000 * (cpu_of(pid) - s0) / calls,
        "client": 1000 * (own_cpu() - c0) / calls,
    }


async def over_stdio(bin, args, calls, in_flight):
    proc = await asyncio.create_subprocess_exec(
        bin, *args, "--quiet",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL, limit=1 << 24,
    )
    pending = {}

    async def read():
        while line := await proc.stdout.readline():
            msg = json.loads(line)
            fut = pending.pop(msg.get("id"), None)
            if fut is not None:
                fut.set_result(msg)

    reader = asyncio.create_task(read())

    async def call_raw(msg):
        fut = asyncio.get_running_loop().create_future()
        pending[msg["id"]] = fut
        proc.stdin.write(json.dumps(msg).encode() + b"\n")
        return await fut

    await call_raw(INIT)
    proc.stdin.write(json.dumps(INITIALIZED).encode() + b"\n")
    try:
        return await load(lambda i: call_raw(call_message(i)), proc.pid, calls, in_flight)
    finally:
        proc.stdin.close()
        await proc.wait()
        reader.cancel()


class Conn:
    """One keep-alive HTTP/1.1 connection, one request at a time."""

    def __init__(self, host, port, path):
        self.host, self.port, self.path = host, port, path
        self.r = self.w = None

    async def post(self, body, headers):
        if self.w is None:
            self.r, self.w = await asyncio.open_connection(self.host, self.port)
        head = (
            f"POST {self.path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
            + "".join(f"{k}: {v}\r\n" for k, v in headers.items())
            + f"Content-Length: {len(body)}\r\n\r\n"
        )
        self.w.write(head.encode() + body)
        status_line = await self.r.readline()
        status = int(status_line.split()[1])
        got = {}
        while (line := await self.r.readline()) not in (b"\r\n", b""):
            k, _, v = line.decode().partition(":")
            got[k.strip().lower()] = v.strip()
        if "content-length" in got:
            data = await self.r.readexactly(int(got["content-length"]))
        elif got.get("transfer-encoding") == "chunked":
            data = b""
            while size := int((await self.r.readline()).strip(), 16):
                data += await self.r.readexactly(size)
                await self.r.readline()
            await self.r.readline()
        else:
            data = b""
        if got.get("connection", "").lower() == "close":
            self.w.close()
            self.w = None
        return status, got, data


def first_answer(headers, data):
    """The JSON-RPC answer in a JSON or an SSE body."""
    if headers.get("content-type", "").startswith("text/event-stream"):
        for event in data.decode().split("\n\n"):
            lines = [l[5:].lstrip() for l in event.splitlines() if l.startswith("data:")]
            if lines and lines[0]:
                msg = json.loads("\n".join(lines))
                if "method" not in msg:
                    return msg
        raise SystemExit(f"no answer in the stream: {data!r}")
    return json.loads(data)


async def over_http(bin, args, calls, in_flight):
    proc = await asyncio.create_subprocess_exec(
        bin, *args, "--http", "127.0.0.1:0",
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    while True:
        line = (await proc.stderr.readline()).decode()
        if not line:
            raise SystemExit("serve --http exited before listening")
        if "http://" in line:
            url = line[line.index("http://"):].strip()
            break
    drain = asyncio.create_task(proc.stderr.read())
    hostport, path = url[len("http://"):].split("/", 1)
    host, port = hostport.rsplit(":", 1)
    first = Conn(host, int(port), "/" + path)
    status, headers, data = await first.post(json.dumps(INIT).encode(), {})
    sid = headers["mcp-session-id"]
    session = {"Mcp-Session-Id": sid, "MCP-Protocol-Version": INIT["params"]["protocolVersion"]}
    await first.post(json.dumps(INITIALIZED).encode(), session)
    conns = [first] + [Conn(host, int(port), "/" + path) for _ in range(in_flight - 1)]
    free = asyncio.Queue()
    for c in conns:
        free.put_nowait(c)

    async def call(i):
        c = await free.get()
        try:
            status, headers, data = await c.post(json.dumps(call_message(i)).encode(), session)
        finally:
            free.put_nowait(c)
        if status != 200:
            raise SystemExit(f"HTTP {status}: {data!r}")
        return first_answer(headers, data)

    try:
        return await load(call, proc.pid, calls, in_flight)
    finally:
        proc.terminate()
        await proc.wait()
        drain.cancel()


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: python3 benches/mcp_lean.py CALIMCP NODE_URL [CALLS] [IN_FLIGHT] [ROUNDS]")
    bin, node = sys.argv[1], sys.argv[2]
    calls, in_flight, rounds = (int(a) for a in (sys.argv[3:] + ["2000", "10", "3"][len(sys.argv) - 3:])[:3])
    args = ["serve", "--apps", EXAMPLES, "--node", node]
    show = lambda r: (
        f"{r['rate']:.0f} calls/s (CPU per call: server {r['server']:.3f} ms, client {r['client']:.3f} ms)"
    )
    stdio, http = [], []
    for n in range(1, rounds + 1):
        stdio.append(asyncio.run(over_stdio(bin, args, calls, in_flight)))
        http.append(asyncio.run(over_http(bin, args, calls, in_flight)))
        print(f"lean round {n}: stdio {show(stdio[-1])}; HTTP {show(http[-1])}", flush=True)
    med = lambda rs, k: statistics.median(r[k] for r in rs)
    s, h = med(stdio, "rate"), med(http, "rate")
    print(
        f"lean client, tools/call, {calls} calls at {in_flight} in flight, median of {rounds}: "
        f"stdio {s:.0f} calls/s (server {med(stdio, 'server'):.3f} ms CPU per call), "
        f"HTTP {h:.0f} calls/s (server {med(http, 'server'):.3f} ms CPU per call): {100 * h / s:.0f} % of stdio"
    )


if __name__ == "__main__":
    main()
