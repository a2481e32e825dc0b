/**
 * Merge bench: an agent write to a 10,000-line open file with 3 scattered agent edits while the user made 3
 * edits of their own elsewhere. Prints the merge time (goal ≤ 20 ms) and the number of edited regions applied to
 * the buffer (goal = 3: one per agent edit), next to the LCS merge used before (bench/baselines/lcs-merge.ts)
 * measured in the same run. Also the 3,000-line case of issue #15 (edits at lines 10 and 2,900).
 */
import { mergeAgentWrite as lcsMerge, diffLines as lcsDiff, splitLines } from "./baselines/lcs-merge";
import { mergeAgentWrite } from "../src/core/text/agent-write";
import { diffLines } from "../src/core/text/line-diff";

const fileOf = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    i % 9 === 0 ? "}\n" : i % 7 === 0 ? "\n" : `  const v${i} = compute(${i}); // line ${i + 1}\n`,
  );
const edit = (lines: string[], at: Record<number, string>) => lines.map((l, i) => at[i + 1] ?? l);

function time<T>(fn: () => T, runs = 15): { ms: number; result: T } {
  let result = fn(); // warm-up
  const samples: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    result = fn();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return { ms: samples[Math.floor(samples.length / 2)]!, result };
}

const base = fileOf(10_000);
const next = edit(base, { 120: "  agent(1);\n", 5_000: "  agent(2);\n", 9_870: "  agent(3);\n" });
const current = edit(base, { 40: "  user(1);\n", 3_333: "  user(2);\n", 7_777: "  user(3);\n" });
const [b, n, c] = [base.join(""), next.join(""), current.join("")];

const now = time(() => mergeAgentWrite(b, n, c));
const old = time(() => lcsMerge(b, n, c), 5);
const regions = now.result.kind === "clean" ? now.result.edits.length : -1;
const oldOutcome = old.result.ok
  ? `${old.result.edits.length} region(s)`
  : `refused as a conflict at line ${old.result.conflictLine}`;
console.log(
  `10,000 lines, 3 agent + 3 user edits: merge ${now.ms.toFixed(2)} ms (goal ≤ 20), ${regions} edited regions (goal 3)`,
);
console.log(`  baseline LCS merge (before): ${old.ms.toFixed(2)} ms, ${oldOutcome}`);
const alone = time(() => mergeAgentWrite(b, n, b));
const aloneOld = time(() => lcsMerge(b, n, b), 5);
const oldRegion = aloneOld.result.ok
  ? aloneOld.result.edits.map((e) => splitLines(e.text).length).reduce((x, y) => x + y, 0)
  : 0;
console.log(
  `  no user edit: ${alone.ms.toFixed(2)} ms, ${alone.result.kind === "clean" ? alone.result.edits.length : "?"} regions; baseline ${aloneOld.ms.toFixed(2)} ms, ${aloneOld.result.ok ? aloneOld.result.edits.length : "?"} region(s) rewriting ${oldRegion} lines`,
);

const small = fileOf(3_000);
const smallNext = edit(small, { 10: "agent ten\n", 2_900: "agent 2900\n" });
const h = time(() => diffLines(small, smallNext));
const hOld = time(() => lcsDiff(small, smallNext), 5);
console.log(
  `3,000 lines, edits at 10 and 2,900: ${h.result.length} hunks of ${h.result.map((x) => x.end - x.start).join(" + ")} line(s) in ${h.ms.toFixed(2)} ms; baseline ${hOld.result.length} hunk of ${hOld.result.map((x) => x.end - x.start).join(" + ")} lines in ${hOld.ms.toFixed(2)} ms`,
);
if (regions !== 3 || h.result.length !== 2) process.exitCode = 1;
