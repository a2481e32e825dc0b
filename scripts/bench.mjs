// `npm run bench`: every benchmark, each in its own process so RSS figures do not mix. Each prints its own
// figures next to a baseline measured in the same run (raw NDJSON parse, acpx, ...). Recall has its own,
// longer bench: `npm run bench:recall`. Pass names to run a subset: `npm run bench -- acp threads`.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
const all = [
  "acp",
  "threads",
  "exec",
  "agents",
  "registry",
  "ledger",
  "manifest",
  "thread-render",
  "text",
  "buffers",
  "composer",
  "long-day",
  "worktrees",
  "spawn",
  "durable",
  "redact",
  "permissions",
  "sandbox",
  "agent-import",
  "host",
  "host-serve",
  "host-terms",
  "host-watch",
  "recall-panel",
  "review",
];
// run only when named: `npm run bench -- recall` (the long recall bench, npm run bench:recall)
const onRequest = ["recall"];
const picked = process.argv.slice(2).filter((a) => all.includes(a) || onRequest.includes(a));
const names = picked.length ? picked : all;

const build = spawnSync("node", ["scripts/build.mjs"], { stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);

let failed = 0;
for (const name of names) {
  const file = `dist-test/bench/${name}.main.js`;
  if (!existsSync(file)) continue;
  console.log(`\n== bench: ${name}`);
  const r = spawnSync("node", ["--expose-gc", file], { stdio: "inherit" });
  if (r.status !== 0) {
    failed += 1;
    console.log(`bench ${name} failed (exit ${r.status ?? r.signal})`);
  }
}
process.exit(failed ? 1 : 0);
