// docs/architecture.md embeds the layer diagram scripts/architecture-diagram.mjs draws from
// scripts/check-imports.mjs's tables: the doc must be current, and the drawing must follow the tables.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import test from "node:test";
import { pathToFileURL } from "node:url";
import { repoRoot } from "../../fixtures/agent-env/index";

const SCRIPT = join(repoRoot(), "scripts/architecture-diagram.mjs");

interface DiagramModule {
  diagram(stages?: Record<string, number>, leaves?: string[], api?: string[]): string;
  withDiagram(doc: string, text: string): string;
  BEGIN: string;
  END: string;
}
// a real ESM import of the script (esbuild would otherwise turn import() into require())
const load = new Function("u", "return import(u)") as (u: string) => Promise<DiagramModule>;

test("docs/architecture.md shows the layers check-imports.mjs enforces today", () => {
  const r = spawnSync(process.execPath, [SCRIPT, "--check"], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
});

test("the diagram puts stages of one rank in one box, in rank order, and lists the leaves", async () => {
  const { diagram, withDiagram, BEGIN, END } = await load(pathToFileURL(SCRIPT).href);
  const text = diagram(
    { acp: 1, store: 3, db: 3, "session.ts": 9 },
    ["model", "util"],
    ["src/core/model/", "src/core/x.ts"],
  );
  assert.match(
    text,
    /r1\["1 · core\/acp"\]\n {4}r3\["3 · core\/store · core\/db"\]\n {4}r9\["9 · session\.ts \+ session\/"\]/,
  );
  // the front ends import the engine API; the last stage reaches them only by the ratchet's dotted arrows
  assert.match(text, /agent --> r1\n {2}r1 --> r3\n {2}r3 --> r9\n {2}r9 --> api\n {2}api --> cli\n {2}api --> vscode/);
  assert.match(text, /api\[\["engine API: core\/model\/\*\* · core\/x\.ts \+ pure helpers"\]\]/);
  assert.match(text, /r9 -\. "internals still imported: scripts\/engine-boundary\.json, only shrinks" \.-> cli/);
  assert.doesNotMatch(text, /r9 --> (cli|vscode)/);
  assert.match(text, /shared leaves, imported by any stage: core\/model · core\/util · src\/core\/\*\.ts/);
  const doc = `# x\n\n${BEGIN}\nold\n${END}\ntail\n`;
  assert.equal(withDiagram(doc, "new"), `# x\n\n${BEGIN}\n\nnew\n\n${END}\ntail\n`);
  assert.throws(() => withDiagram("# no markers\n", "new"), /has no/);
});
