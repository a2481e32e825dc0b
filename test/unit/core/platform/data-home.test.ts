// The one layout of the data home: every entry it names is measured by "Clear data…" / `acp-threads gc` (a
// category's path or below one), hidden from sandboxed agents but for the installed agents and runtimes, and no other
// module spells a data-home folder itself.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { test } from "node:test";
import { DATA_HOME_ENTRIES, DATA_HOME_SANDBOX_READABLE, homeLayout } from "../../../../src/core/platform/data-home";
import { categoryPaths } from "../../../../src/core/retention/measure";

const HOME = join(sep, "data-home");
/** Small files (the Best of N record is bounded) and the running host's own folder (a socket, locks, its log): nothing to measure or collect. */
const NOT_MEASURED = new Set<string>([
  DATA_HOME_ENTRIES.settings,
  DATA_HOME_ENTRIES.permissions,
  DATA_HOME_ENTRIES.host,
  DATA_HOME_ENTRIES.bestOf,
]);

test("every entry of the data home is measured by a category, or named as not measured", () => {
  const measured = Object.values(categoryPaths(HOME))
    .flat()
    .map((p) => relative(HOME, p).split(sep)[0]);
  for (const entry of Object.values(DATA_HOME_ENTRIES))
    assert.ok(measured.includes(entry) || NOT_MEASURED.has(entry), `${entry} is measured by no category`);
});

test("a sandboxed agent reads the installed agents and runtimes of the data home, nothing that holds threads", () => {
  assert.deepEqual([...DATA_HOME_SANDBOX_READABLE].sort(), [DATA_HOME_ENTRIES.agents, DATA_HOME_ENTRIES.runtimes]);
  assert.equal(homeLayout(HOME).steerDir, join(HOME, "steer"));
});

test("no module under src/core names a data-home folder but the layout", () => {
  const root = join(__dirname, "..", "..", "..", "..", "src", "core");
  const spelled = Object.values(DATA_HOME_ENTRIES).map((e) => `"${e}"`);
  const offenders: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith(".ts") && !p.endsWith(join("platform", "data-home.ts"))) {
        const text = readFileSync(p, "utf8");
        for (const m of text.matchAll(/join\(\s*(?:home|dataHome|opts\.home|store\.home|this\.home)\s*,\s*("[^"]+")/g))
          if (spelled.includes(m[1]!)) offenders.push(`${relative(root, p)}: ${m[0]}`);
      }
    }
  };
  walk(root);
  assert.deepEqual(offenders, []);
});
