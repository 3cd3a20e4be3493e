// The official MCP TypeScript SDK as a client of `calimcp serve` over stdio.
//
//   node client.mjs CALIMCP [SERVE ARGS…]
//
// Lists the tools (the SDK parses every tool and compiles every outputSchema
// with Ajv), checks the fixed tools and that names, schemas and annotations
// are there, calls describe_app, sends invalid arguments (an isError result)
// and an unknown tool (a JSON-RPC error), lists and reads the resources
// (app ABIs and contexts) and completes a template variable. With CALIMCP_INTEROP_NODE=URL it
// also passes --node URL and runs kv-store calls end to end, so the SDK checks
// structuredContent against the advertised outputSchema. Exits non-zero on
// the first failure.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";

const [bin, ...serveArgs] = process.argv.slice(2);
if (!bin) {
  console.error("usage: node client.mjs CALIMCP [SERVE ARGS…]");
  process.exit(2);
}
const node = process.env.CALIMCP_INTEROP_NODE;
const args = ["serve", ...serveArgs, ...(node ? ["--node", node] : [])];

const transport = new StdioClientTransport({ command: bin, args, stderr: "inherit" });
const client = new Client({ name: "calimcp-interop", version: "1.0.0" });
let checks = 0;
const check = (what, fn) => {
  fn();
  checks += 1;
  console.log(`ok - ${what}`);
};

try {
  await client.connect(transport);
  const server = client.getServerVersion();
  check("server info names calimcp", () => assert.equal(server?.name, "calimcp"));
  check("instructions mention describe_app and select_app", () => {
    const text = client.getInstructions() ?? "";
    assert.match(text, /describe_app[\s\S]*select_app/);
  });

  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  check(`tools/list parsed: ${tools.length} tools, output schemas compiled`, () => {
    assert.ok(names.includes("describe_app") && names.includes("select_app"));
    assert.ok(tools.length > 2, "generated tools are listed");
    assert.deepEqual([...names].sort(), names, "sorted by name");
    for (const t of tools) {
      assert.match(t.name, /^[A-Za-z0-9_-]{1,64}$/, t.name);
      assert.ok(t.description?.length > 0, `${t.name} has a description`);
      assert.equal(t.inputSchema.type, "object", `${t.name} inputSchema`);
      if (t.outputSchema) assert.equal(t.outputSchema.type, "object", `${t.name} outputSchema`);
      assert.equal(typeof t.annotations?.readOnlyHint, "boolean", `${t.name} readOnlyHint`);
    }
  });

  check("wait_for_events is listed read-only with an outputSchema", () => {
    const w = tools.find((t) => t.name === "wait_for_events");
    assert.ok(w, "listed");
    assert.equal(w.annotations.readOnlyHint, true);
    // The fields of an answer, or a failure's `error` (errors as data).
    assert.deepEqual(w.outputSchema.anyOf, [{ required: ["context", "events", "timedOut"] }, { required: ["error"] }]);
  });
  if (!node) {
    const wait = await client.callTool({ name: "wait_for_events", arguments: { app: "kv-store", timeout: 0.1 } });
    check("wait_for_events without a node is an isError result", () => {
      assert.equal(wait.isError, true);
      assert.ok(wait.content[0].text.length > 0);
    });
  }

  const apps = await client.callTool({ name: "describe_app", arguments: {} });
  check("describe_app lists the apps", () => {
    assert.notEqual(apps.isError, true);
    const listing = JSON.parse(apps.content[0].text);
    assert.ok(listing.apps.length > 0);
  });

  const kv = await client.callTool({ name: "describe_app", arguments: { app: "kv-store" } });
  check("describe_app kv-store gives signatures and tool names", () => {
    const d = JSON.parse(kv.content[0].text);
    const get = d.methods.find((m) => m.name === "get");
    assert.equal(get.tool, "kv_store_get");
    assert.match(get.signature, /^\[view\] get\(key: string\)/);
  });

  const bad = await client.callTool({ name: "kv_store_set", arguments: { key: 1 } });
  check("invalid arguments come back as isError naming the argument", () => {
    assert.equal(bad.isError, true);
    assert.match(bad.content[0].text, /key: expected a string/);
    assert.match(bad.content[0].text, /value: missing required argument/);
  });

  // A tool with an outputSchema, failing: the SDK checks structuredContent
  // against the schema even with isError, so the schema admits the error.
  const badGet = await client.callTool({ name: "kv_store_get", arguments: { key: 1 } });
  check("a failed call carries its error as structuredContent, SDK-validated", () => {
    assert.equal(badGet.isError, true);
    const e = badGet.structuredContent?.error;
    assert.equal(e?.code, "invalid_arguments", JSON.stringify(badGet.structuredContent));
    assert.equal(e.retryable, false);
    assert.equal(typeof e.message, "string");
    assert.equal(e.problems[0].path, "key");
    assert.match(badGet.content[0].text, /key: expected a string/);
  });

  await assert.rejects(
    client.callTool({ name: "no_such_tool", arguments: {} }),
    (e) => e instanceof McpError && e.code === -32602,
  );
  check("an unknown tool is a JSON-RPC error (-32602)", () => {});

  // Resources and completions: the served apps' ABIs and contexts.
  const abiTemplate = "calimero://app/{app}/abi{?service}";
  check("capabilities: resources with listChanged, completions", () => {
    const caps = client.getServerCapabilities();
    assert.equal(caps.resources?.listChanged, true);
    assert.ok(caps.completions, "completions");
  });
  const { resourceTemplates } = await client.listResourceTemplates();
  check("resources/templates/list parsed: the abi, contexts, context and guide templates", () => {
    assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate), [
      abiTemplate,
      "calimero://app/{app}/contexts{?service}",
      "calimero://app/{app}/contexts/{context}",
      "calimero://app/{app}/guide{?version}",
    ]);
  });
  const { resources } = await client.listResources();
  check(`resources/list parsed: ${resources.length} resources`, () => {
    const uris = resources.map((r) => r.uri);
    assert.ok(uris.includes("calimero://app/kv_store/abi"), uris.join(" "));
    // Contexts only where the node has the app: every listed resource reads.
    assert.equal(uris.includes("calimero://app/kv_store/contexts"), !!node, uris.join(" "));
    assert.equal(new Set(uris).size, uris.length, "every URI names one resource");
  });
  const read = await client.readResource({ uri: "calimero://app/kv_store/abi" });
  check("resources/read of kv_store's ABI: wasm-abi/1 JSON with its methods", () => {
    assert.equal(read.contents[0].mimeType, "application/json");
    const abi = JSON.parse(read.contents[0].text);
    assert.equal(abi.schema_version, "wasm-abi/1");
    assert.ok(abi.methods.some((m) => m.name === "get"));
  });
  await assert.rejects(
    client.readResource({ uri: "calimero://app/kv_store/nope" }),
    (e) => e instanceof McpError && e.code === -32002 && /calimero:\/\/app\/\{app\}\/abi/.test(e.message),
  );
  check("an unknown resource is a JSON-RPC error (-32002) naming the templates", () => {});
  const completed = await client.complete({
    ref: { type: "ref/resource", uri: abiTemplate },
    argument: { name: "app", value: "kv" },
  });
  check("completion/complete of {app} by prefix", () => {
    assert.ok(completed.completion.values.includes("kv_store"), completed.completion.values.join(" "));
    assert.ok(completed.completion.values.every((v) => v.toLowerCase().startsWith("kv")));
  });
  if (node) {
    const contexts = await client.readResource({ uri: "calimero://app/kv_store/contexts" });
    check("resources/read of kv_store's contexts from the node", () => {
      const c = JSON.parse(contexts.contents[0].text);
      assert.ok(Array.isArray(c.contexts));
      for (const row of c.contexts) assert.ok(row.id && Array.isArray(row.aliases));
    });
    const ctx = await client.complete({
      ref: { type: "ref/resource", uri: "calimero://app/{app}/contexts/{context}" },
      argument: { name: "context", value: "" },
      context: { arguments: { app: "kv_store" } },
    });
    check("completion/complete of {context} for the chosen app", () => {
      assert.ok(Array.isArray(ctx.completion.values));
    });
  }

  if (node) {
    const sel = await client.callTool({ name: "select_app", arguments: { app: "kv-store" } });
    check("select_app pins the app's only context", () => {
      assert.notEqual(sel.isError, true, sel.content?.[0]?.text);
      assert.ok(JSON.parse(sel.content[0].text).context);
    });
    const set = await client.callTool({ name: "kv_store_set", arguments: { key: "a", value: "1" } });
    check("kv_store_set runs on the node", () => assert.notEqual(set.isError, true, set.content?.[0]?.text));
    // Wait first, then cause the event until the wait returns (the wait
    // subscribes before it reads, so some call lands after it).
    let done = false;
    const waiting = client
      .callTool({ name: "wait_for_events", arguments: { app: "kv-store", events: ["Inserted"], max: 1, timeout: 30 } })
      .finally(() => { done = true; });
    for (let i = 0; !done && i < 200; i++) {
      await client.callTool({ name: "kv_store_set", arguments: { key: "a", value: "1" } });
    }
    const waited = await waiting;
    check("wait_for_events: an Inserted event, structuredContent SDK-validated", () => {
      assert.notEqual(waited.isError, true, waited.content?.[0]?.text);
      assert.equal(waited.structuredContent.timedOut, false);
      assert.equal(waited.structuredContent.events[0].event, "Inserted");
      assert.equal(waited.structuredContent.events[0].payload, "a");
      assert.equal(waited.structuredContent.events[0].valid, true);
    });
    const get = await client.callTool({ name: "kv_store_get", arguments: { key: "a" } });
    check("kv_store_get: structuredContent matches the outputSchema (SDK-validated)", () => {
      assert.notEqual(get.isError, true, get.content?.[0]?.text);
      assert.deepEqual(get.structuredContent, { result: "1" });
      assert.equal(get.content[0].text, '"1"');
    });
    const len = await client.callTool({ name: "kv_store_len", arguments: {} });
    check("kv_store_len: integer result", () => assert.deepEqual(len.structuredContent, { result: 1 }));
    const entries = await client.callTool({ name: "kv_store_entries", arguments: {} });
    check("kv_store_entries: map result", () => assert.deepEqual(entries.structuredContent, { result: { a: "1" } }));
    const echo = await client.callTool({ name: "typed_echo_complex", arguments: { tags: ["x"], pair: ["p", -5], status: { Approved: "ok" } } });
    check("typed_echo_complex: a record result, SDK-validated", () => {
      assert.notEqual(echo.isError, true, echo.content?.[0]?.text);
      assert.deepEqual(echo.structuredContent.result.pair, ["p", -5]);
    });
    // 64-bit integers beyond ±(2^53−1): JavaScript would round the JSON
    // number, so structuredContent carries them as decimal strings (the
    // outputSchema says so, and the SDK validates against it); the text
    // content keeps the node's exact digits; safe integers stay numbers.
    const exactTool = tools.find((t) => t.name === "typed_exact_numbers");
    check("typed_exact_numbers: the outputSchema admits a decimal string beyond 2^53", () => {
      const big = exactTool.outputSchema.properties.result.anyOf[0].properties.big;
      assert.deepEqual(big.anyOf.map((s) => s.type), ["integer", "string"]);
      assert.equal(big.anyOf[0].maximum, Number.MAX_SAFE_INTEGER);
    });
    const exact = await client.callTool({
      name: "typed_exact_numbers",
      arguments: { big: "18446744073709551615", neg: "-9223372036854775808", small: Number.MAX_SAFE_INTEGER },
    });
    check("typed_exact_numbers: u64::MAX and i64::MIN arrive exact, SDK-validated", () => {
      assert.notEqual(exact.isError, true, exact.content?.[0]?.text);
      assert.deepEqual(exact.structuredContent, {
        result: { big: "18446744073709551615", neg: "-9223372036854775808", small: Number.MAX_SAFE_INTEGER },
      });
      assert.match(exact.content[0].text, /"big":18446744073709551615/);
      assert.match(exact.content[0].text, /"neg":-9223372036854775808/);
    });
    const boom = await client.callTool({ name: "faults_boom", arguments: {} });
    check("an application error is an isError result with the decoded message", () => {
      assert.equal(boom.isError, true);
      assert.match(boom.content[0].text, /the key is missing/);
    });
  }
  console.log(`interop: ${checks} checks passed (@modelcontextprotocol/sdk against calimcp serve ${args.slice(1).join(" ")})`);
} catch (e) {
  console.error(`interop: FAILED after ${checks} checks: ${e?.stack ?? e}`);
  process.exitCode = 1;
} finally {
  await client.close().catch(() => {});
}
