// The name an ad-hoc agent command goes by (thread metadata, `usage --by agent`): its file name, except for the
// generic entry scripts npm adapters ship (`pi-acp/dist/index.js`, `@agentclientprotocol/codex-acp/dist/index.js`),
// which are named after their package instead.
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

const GENERIC = /^(?:index|cli|main|bin|run|start)\.(?:c|m)?js$/;

export function commandName(command: string): string {
  const base = basename(command);
  if (!GENERIC.test(base)) return base;
  let dir = dirname(command);
  for (let i = 0; i < 4 && dir !== dirname(dir); i++, dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (!existsSync(file)) continue;
    try {
      const name = (JSON.parse(readFileSync(file, "utf8")) as { name?: unknown }).name;
      return typeof name === "string" && name ? name.replace(/^@[^/]+\//, "") : base;
    } catch {
      return base; // an unreadable package.json: keep the file name
    }
  }
  return base;
}
