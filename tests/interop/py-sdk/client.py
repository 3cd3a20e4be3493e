"""The official MCP Python SDK as a client of `calimcp serve`, in its default
mode (`Client(...)` with mode="auto": it negotiates protocol 2026-07-28
through `server/discover`), over stdio and over Streamable HTTP.

    python client.py CALIMCP [SERVE ARGS...]

Checks that the negotiated revision is 2026-07-28, lists the tools, calls
describe_app, sees a failed call's error as structured content, reads an
app's ABI resource and every listed resource (an app's guide, the MCP
App's `ui://`), gets a completion of a template variable, and sees an unknown
resource refused. Exits non-zero on the first
failure.
"""

import asyncio
import json
import re
import subprocess
import sys

from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp_types import ResourceTemplateReference

NEWEST = "2026-07-28"


async def exercise(client: Client, how: str) -> None:
    def ok(what: str) -> None:
        print(f"ok - {how}: {what}")

    assert client.protocol_version == NEWEST, client.protocol_version
    ok(f"default mode negotiated {NEWEST}")
    tools = (await client.list_tools()).tools
    names = [t.name for t in tools]
    assert "describe_app" in names and "kv_store_get" in names, names
    ok(f"tools/list: {len(tools)} tools")
    described = await client.call_tool("describe_app", {})
    assert not described.is_error, described
    assert "kv-store" in described.content[0].text
    ok("describe_app")
    failed = await client.call_tool("kv_store_get", {"key": 1})
    assert failed.is_error, failed
    error = (failed.structured_content or {}).get("error") or {}
    assert error.get("code") == "invalid_arguments" and error.get("retryable") is False, failed
    ok("a failed call carries its error as structured content")
    read = await client.read_resource("calimero://app/kv_store/abi")
    abi = json.loads(read.contents[0].text)
    assert abi["schema_version"] == "wasm-abi/1", abi
    ok("resources/read of an app's ABI")
    # Every listed resource, each kind (under 2026-07-28 a result without
    # resultType is refused by the SDK); over HTTP the MCP App's ui:// too.
    listed = [str(r.uri) for r in (await client.list_resources()).resources]
    for uri in listed:
        assert (await client.read_resource(uri)).contents, uri
    kinds = sorted({u.split("://")[0] + "://" + u.split("://")[1].split("/")[0] for u in listed})
    assert how != "HTTP" or "ui://calimcp/reference" in listed, listed
    guides = [u for u in listed if "/guide" in u]
    assert guides, listed
    guide = (await client.read_resource(guides[0])).contents[0]
    assert guide.mime_type == "text/markdown" and "## Procedures" in guide.text, guide
    ok(f"resources/read of every listed resource ({len(listed)}: {', '.join(kinds)})")
    done = await client.complete(
        ResourceTemplateReference(type="ref/resource", uri="calimero://app/{app}/abi{?service}"),
        {"name": "app", "value": "kv"},
    )
    values = done.completion.values
    assert "kv_store" in values and all(v.startswith("kv") for v in values), done
    ok("completion/complete of {app}")
    try:
        await client.read_resource("calimero://app/no-such-app/abi")
    except Exception as e:  # the SDK raises MCPError for a JSON-RPC error
        assert "no-such-app" in str(e), e
        ok("an unknown resource is refused")
    else:
        raise AssertionError("an unknown resource was read")


async def main() -> None:
    bin_, *serve = sys.argv[1:]
    args = ["serve", *serve]
    async with Client(StdioServerParameters(command=bin_, args=args)) as client:
        await exercise(client, "stdio")
    server = subprocess.Popen(
        [bin_, *args, "--http", "127.0.0.1:0"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        url = None
        for line in server.stderr:
            found = re.search(r"http://\S+", line)
            if found:
                url = found.group(0)
                break
        assert url, "serve --http printed no URL"
        async with Client(url) as client:
            await exercise(client, "HTTP")
    finally:
        server.terminate()
        server.wait(timeout=10)


asyncio.run(main())
