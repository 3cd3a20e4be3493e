// The conformance package imports `globSync` from "fs", which Node adds in
// version 22; on an older Node (Debian's and the CI machine's is 20) this
// loader hook points the package's "fs" imports at a module that is "fs"
// plus a small `globSync` (only `**/NAME` patterns, which is all it uses).
// Loaded with `node --import ./node20.mjs`; does nothing on Node >= 22.
import * as fs from "node:fs";
import { register } from "node:module";

if (typeof fs.globSync !== "function") {
  const shim = new URL("./fs-with-glob.mjs", import.meta.url).href;
  const hooks = `
    export async function load(url, context, next) {
      const out = await next(url, context);
      if (!url.includes("/@modelcontextprotocol/conformance/") || out.format !== "module") return out;
      const source = String(out.source).replace(/from\\s*"(?:node:)?fs"/g, 'from ${JSON.stringify(shim)}');
      return { ...out, source };
    }`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
}
