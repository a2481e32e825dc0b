// A node --test reporter for where a stage's time goes: after the run, the slowest files and the slowest tests.
// `npm test` adds it beside the spec reporter for the unit and interop stages:
//   node --test --test-reporter=spec --test-reporter-destination=stdout \
//     --test-reporter=./scripts/test-slowest.mjs --test-reporter-destination=stdout FILES
// A file's figure is the sum of its top-level tests' and suites' durations (its hooks inside them; not its process's
// start nor its imports); a test's is node's own duration. ACP_TEST_SLOWEST=N sets how many rows
// (default 20); ACP_TEST_DURATIONS=FILE also writes every test's row (file, ms, name; tab-separated) to FILE.
import { appendFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";

const ROWS = Number(process.env.ACP_TEST_SLOWEST) || 20;

export default async function* slowest(source) {
  const files = new Map(); // file -> ms
  const tests = []; // { file, ms, name }
  const all = process.env.ACP_TEST_DURATIONS;
  if (all) writeFileSync(all, "");
  for await (const event of source) {
    const { type, data } = event;
    if (type !== "test:pass" && type !== "test:fail") continue;
    const file = data.file ? relative(process.cwd(), data.file) : "(no file)";
    const ms = data.details?.duration_ms ?? 0;
    if (data.nesting === 0) files.set(file, (files.get(file) ?? 0) + ms);
    if (data.details?.type === "suite") continue;
    const name = data.nesting > 0 ? `${"  ".repeat(data.nesting)}${data.name}` : data.name;
    tests.push({ file, ms, name: data.name });
    if (all) appendFileSync(all, `${file}\t${Math.round(ms)}\t${name}\n`);
  }
  const fileRows = [...files].map(([file, ms]) => ({ file, ms })).sort((a, b) => b.ms - a.ms);
  const testRows = tests.sort((a, b) => b.ms - a.ms);
  const s = (ms) => `${(ms / 1000).toFixed(1)} s`.padStart(8);
  let out = `\nslowest files (their tests' time)\n`;
  for (const r of fileRows.slice(0, ROWS)) out += `${s(r.ms)}  ${r.file}\n`;
  out += `slowest tests\n`;
  for (const r of testRows.slice(0, ROWS)) out += `${s(r.ms)}  ${r.file}: ${r.name}\n`;
  yield out;
}
