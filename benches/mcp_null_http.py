#!/usr/bin/env python3
"""A Streamable HTTP MCP "server" that does no work: the ceiling of an HTTP
client's throughput (issue 29 §7).

    python3 benches/mcp_null_http.py RESULT_JSON

Listens on 127.0.0.1 (a free port; prints `http://127.0.0.1:PORT/mcp` on
stdout) and answers every POST at once from memory: `initialize` with a
session id and the client's protocol version, a notification with 202, any
other request with RESULT_JSON (the `result` object calimcp gives for the
call being measured, so the client parses the same answer), as one
`application/json` body with a Content-Length on a keep-alive connection;
a GET (the client's stream for notifications) gets 405, which clients take
as "no stream". It is not an MCP server (no checks, no tools/list): it only
shows what the client itself costs per call over HTTP. benches/mcp_throughput.mjs
drives the TypeScript SDK against it beside calimcp.
"""

import asyncio
import json
import sys


def response(status, reason, body=b"", headers=()):
    head = [f"HTTP/1.1 {status} {reason}", f"content-length: {len(body)}"]
    if body:
        head.append("content-type: application/json")
    head.extend(headers)
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


async def serve(reader, writer, result):
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            method = lines[0].split(" ", 1)[0]
            length = 0
            for line in lines[1:]:
                name, _, value = line.partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            body = await reader.readexactly(length) if length else b""
            if method != "POST":
                writer.write(response(405, "Method Not Allowed", headers=["allow: POST"]))
            else:
                message = json.loads(body)
                if "id" not in message:
                    writer.write(response(202, "Accepted"))
                elif message.get("method") == "initialize":
                    answer = {
                        "jsonrpc": "2.0",
                        "id": message["id"],
                        "result": {
                            "protocolVersion": message["params"]["protocolVersion"],
                            "capabilities": {"tools": {}},
                            "serverInfo": {"name": "null", "version": "0"},
                        },
                    }
                    writer.write(
                        response(200, "OK", json.dumps(answer).encode(), ["mcp-session-id: null-session"])
                    )
                else:
                    answer = b'{"jsonrpc":"2.0","id":%s,"result":%s}' % (
                        json.dumps(message["id"]).encode(),
                        result,
                    )
                    writer.write(response(200, "OK", answer))
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    finally:
        writer.close()


async def main():
    result = json.dumps(json.loads(sys.argv[1]), separators=(",", ":")).encode()
    server = await asyncio.start_server(lambda r, w: serve(r, w, result), "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    print(f"http://127.0.0.1:{port}/mcp", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
