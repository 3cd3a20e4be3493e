// "fs" with `globSync` for Node < 22 (see node20.mjs): `**/NAME` and `NAME`
// patterns only, relative to `cwd`.
import * as fs from "node:fs";
import * as path from "node:path";

export * from "node:fs";
export default fs.default ?? fs;

export function globSync(pattern, options = {}) {
  const cwd = options.cwd ?? process.cwd();
  const name = pattern.replace(/^\*\*\//, "");
  const deep = pattern.startsWith("**/");
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(path.join(cwd, dir), { withFileTypes: true })) {
      const rel = dir ? path.join(dir, entry.name) : entry.name;
      if (entry.isDirectory() && deep) walk(rel);
      else if (entry.name === name) found.push(rel);
    }
  };
  walk("");
  return found;
}
