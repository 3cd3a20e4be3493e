// tools/call throughput of `calimcp serve` over stdio and over Streamable
// HTTP, side by side in one run, driven by the official MCP TypeScript SDK
// (the client the MCP Inspector's load test uses), against one node.
//
//   node benches/mcp_throughput.mjs CALIMCP NODE_URL [CALLS] [IN_FLIGHT] [ROUNDS]
//
// Each round runs CALLS (default 200) `kv_store_get` calls with IN_FLIGHT
// (default 10) at a time over stdio, then the same over HTTP (one session of
// a `serve --http 127.0.0.1:0`); ROUNDS (default 3) rounds, after one
// warm-up call each. Prints calls/s per round and the medians, and HTTP as a
// share of stdio; each round also measures the same client over HTTP against
// benches/mcp_null_http.py (a server that does nothing), the most this client
// can do over HTTP whatever the server. Run by benches/mcp_throughput.sh, which
// builds what it needs.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";

const sdk = new URL("../tests/interop/ts-sdk/node_modules/@modelcontextprotocol/sdk/dist/esm/", import.meta.url);
const { Client } = await import(new URL("client/index.js", sdk));
const { StdioClientTransport } = await import(new URL("client/stdio.js", sdk));
const { StreamableHTTPClientTransport } = await import(new URL("client/streamableHttp.js", sdk));

const [bin, nodeUrl, callsArg, inFlightArg, roundsArg] = process.argv.slice(2);
if (!bin || !nodeUrl) {
  console.error("usage: node benches/mcp_throughput.mjs CALIMCP NODE_URL [CALLS] [IN_FLIGHT] [ROUNDS]");
  process.exit(2);
}
const calls = Number(callsArg ?? 200);
const inFlight = Number(inFlightArg ?? 10);
const rounds = Number(roundsArg ?? 3);
const serveArgs = ["serve", "--apps", new URL("../examples", import.meta.url).pathname, "--node", nodeUrl, "--quiet"];

// CPU seconds (user + system) a process has used so far (Linux /proc).
function cpu(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

// Calls per second, and CPU milliseconds per call of the server and of this client.
async function load(client, pid) {
  const call = () => client.callTool({ name: "kv_store_get", arguments: { key: "bench" } });
  const warm = await call();
  if (warm.isError) throw new Error(`warm-up call failed: ${JSON.stringify(warm)}`);
  let next = 0;
  let failed = 0;
  const [server0, client0] = [cpu(pid), process.cpuUsage()];
  const t0 = process.hrtime.bigint();
  const worker = async () => {
    while (next < calls) {
      next += 1;
      const r = await call();
      if (r.isError) failed += 1;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  const used = process.cpuUsage(client0);
  if (failed) throw new Error(`${failed} of ${calls} calls failed`);
  return {
    rate: calls / secs,
    server: (1000 * (cpu(pid) - server0)) / calls,
    client: (used.user + used.system) / 1000 / calls,
  };
}

async function overStdio() {
  const client = new Client({ name: "bench", version: "1.0.0" });
  const transport = new StdioClientTransport({ command: bin, args: serveArgs, stderr: "ignore" });
  await client.connect(transport);
  try {
    return await load(client, transport.pid);
  } finally {
    await client.close();
  }
}

// The load over HTTP at `url`, served by the child process `server`
// (stopped afterwards).
async function loadOverHttp(server, url) {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    return await load(client, server.pid);
  } finally {
    await client.close();
    server.kill("SIGTERM");
  }
}

async function overHttp() {
  const server = spawn(bin, [...serveArgs.filter((a) => a !== "--quiet"), "--http", "127.0.0.1:0"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  const url = await new Promise((resolve, reject) => {
    const lines = createInterface({ input: server.stderr });
    lines.on("line", (line) => {
      const at = line.indexOf("http://");
      if (at >= 0) resolve(line.slice(at).trim());
    });
    server.on("exit", () => reject(new Error("serve --http exited")));
  });
  return loadOverHttp(server, url);
}

// The same client over HTTP against benches/mcp_null_http.py, a server that
// answers each call at once from memory with the result calimcp gave: the
// most this client can do over HTTP on this machine, whatever the server.
async function overNullHttp(result) {
  const server = spawn("python3", [new URL("mcp_null_http.py", import.meta.url).pathname, JSON.stringify(result)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise((resolve, reject) => {
    createInterface({ input: server.stdout }).once("line", resolve);
    server.on("exit", () => reject(new Error("mcp_null_http.py exited")));
  });
  return loadOverHttp(server, url);
}

// The result calimcp gives for the measured call (for the null server to repeat).
async function oneResult() {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: bin, args: serveArgs, stderr: "ignore" }));
  try {
    return await client.callTool({ name: "kv_store_get", arguments: { key: "bench" } });
  } finally {
    await client.close();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const show = (r) =>
  `${r.rate.toFixed(0)} calls/s (CPU per call: server ${r.server.toFixed(2)} ms, client ${r.client.toFixed(2)} ms)`;
const stdio = [];
const http = [];
const nul = [];
const result = await oneResult();
for (let round = 1; round <= rounds; round += 1) {
  stdio.push(await overStdio());
  http.push(await overHttp());
  nul.push(await overNullHttp(result));
  console.log(
    `round ${round}: stdio ${show(stdio.at(-1))}; HTTP ${show(http.at(-1))}; HTTP to a null server ${show(nul.at(-1))}`,
  );
}
const [s, h, n] = [stdio, http, nul].map((rs) => median(rs.map((r) => r.rate)));
const pct = (a, b) => `${((100 * a) / b).toFixed(0)} %`;
console.log(
  `tools/call, ${calls} calls at ${inFlight} in flight, median of ${rounds}: stdio ${s.toFixed(0)} calls/s, HTTP ${h.toFixed(0)} calls/s (${pct(h, s)} of stdio); this client over HTTP to a server that does nothing: ${n.toFixed(0)} calls/s (${pct(n, s)} of stdio; calimcp over HTTP reaches ${pct(h, n)} of it)`,
);
