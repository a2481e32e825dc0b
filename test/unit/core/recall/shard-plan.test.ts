import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ImportSpec } from "../../../../src/core/recall/importer";
import { firstLine, planShards } from "../../../../src/core/recall/shard-plan";

const uuid = (n: number) => `019a0000-aaaa-7bbb-8ccc-${String(n).padStart(12, "0")}`;

function world(fn: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), "shard-plan-"));
  try {
    fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A rollout of `kb` KB whose session_meta names `meta` (parent links). */
function rollout(dir: string, n: number, kb: number, meta: Record<string, unknown> = {}): ImportSpec {
  const path = join(dir, "codex", `rollout-2026-11-20T10-00-00-${uuid(n)}.jsonl`);
  mkdirSync(dirname(path), { recursive: true });
  const head = JSON.stringify({ type: "session_meta", payload: { id: uuid(n), ...meta } });
  writeFileSync(path, `${head}\n${"x".repeat(kb * 1024)}\n`);
  return { path, source: "codex_rollout" };
}

function claude(dir: string, rel: string, kb: number): ImportSpec {
  const path = join(dir, "claude", rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, "x".repeat(kb * 1024));
  return { path, source: "claude_code_jsonl" };
}

const none = { known: () => false, indexedSession: () => false, minBytes: 1 };
const side = (plan: ReturnType<typeof planShards>, s: ImportSpec) => (plan!.theirs.includes(s) ? "theirs" : "mine");

test("a Codex fork and a sub-agent go with their parent; the split is balanced and keeps the order", () =>
  world((dir) => {
    const parent = rollout(dir, 1, 40);
    const fork = rollout(dir, 2, 10, { forked_from_id: uuid(1) });
    const sub = rollout(dir, 3, 10, { source: { subagent: { thread_spawn: { parent_thread_id: uuid(1) } } } });
    const grandchild = rollout(dir, 4, 5, { parent_thread_id: uuid(3) });
    const others = [5, 6, 7, 8].map((n) => rollout(dir, n, 16));
    const specs = [others[0], grandchild, parent, others[1], fork, others[2], sub, others[3]];
    const plan = planShards(specs, none)!;
    const family = [parent, fork, sub, grandchild].map((s) => side(plan, s));
    assert.ok(
      family.every((x) => x === family[0]),
      family.join(),
    );
    assert.deepEqual(
      [...plan.mine, ...plan.theirs].sort((a, b) => a.path.localeCompare(b.path)),
      [...specs].sort((a, b) => a.path.localeCompare(b.path)),
    );
    for (const part of [plan.mine, plan.theirs])
      assert.deepEqual(
        part,
        specs.filter((s) => part.includes(s)),
        "each side keeps the caller's order",
      );
    const kb = (part: ImportSpec[]) => part.length;
    assert.ok(kb(plan.theirs) > 0 && kb(plan.mine) > 0);
    assert.ok(plan.theirBytes > 50 * 1024 && plan.theirBytes < 80 * 1024, String(plan.theirBytes));
  }));

test("files already indexed, compressed rollouts and families of an indexed session stay with the main import", () =>
  world((dir) => {
    const known = rollout(dir, 1, 30);
    const child = rollout(dir, 2, 30, { forked_from_id: uuid(99) });
    const packedPath = join(dir, "codex", `rollout-x-${uuid(3)}.jsonl.zst`);
    writeFileSync(packedPath, "x".repeat(30 * 1024));
    const packed: ImportSpec = { path: packedPath, source: "codex_rollout" };
    const own: ImportSpec = { path: join(dir, "t.jsonl"), source: "acp_threads" };
    const free = [4, 5, 6].map((n) => rollout(dir, n, 10));
    const plan = planShards([known, child, packed, own, ...free], {
      known: (p) => p === known.path,
      indexedSession: (id) => id === uuid(99),
      minBytes: 1,
    })!;
    for (const s of [known, child, packed, own]) assert.equal(side(plan, s), "mine", s.path);
    assert.ok(plan.theirs.length > 0 && plan.theirs.every((s) => free.includes(s)));
  }));

test("a Claude session's sub-agent files go with it, and a session synced before keeps its new sub-agents", () =>
  world((dir) => {
    const a = claude(dir, "proj/aaaa.jsonl", 40);
    const aSub = claude(dir, "proj/aaaa/subagents/agent-1.jsonl", 5);
    const b = claude(dir, "proj/bbbb.jsonl", 20);
    const bSub = claude(dir, "proj/bbbb/subagents/agent-2.jsonl", 20);
    const c = claude(dir, "proj/cccc.jsonl", 10);
    const cSub = claude(dir, "proj/cccc/subagents/agent-3.jsonl", 30);
    const plan = planShards([a, b, c, aSub, bSub, cSub], { ...none, known: (p) => p === c.path })!;
    assert.equal(side(plan, a), side(plan, aSub));
    assert.equal(side(plan, b), side(plan, bSub));
    assert.equal(side(plan, cSub), "mine", "its parent is indexed: the replays are looked up there");
    assert.notEqual(side(plan, a), side(plan, b), "the two movable sessions are dealt to both sides");
  }));

test("too little to read: no second core", () =>
  world((dir) => {
    const specs = [1, 2, 3].map((n) => rollout(dir, n, 4));
    assert.equal(planShards(specs, { ...none, minBytes: 1024 * 1024 }), undefined);
    assert.equal(planShards([], none), undefined);
  }));

test("firstLine reads a long session_meta line whole and stops at its end", () =>
  world((dir) => {
    const path = join(dir, "long.jsonl");
    const head = JSON.stringify({ payload: { instructions: "y".repeat(200_000), forked_from_id: "p" } });
    writeFileSync(path, `${head}\n${"z".repeat(100_000)}`);
    assert.equal(firstLine(path), head);
    writeFileSync(path, "no newline");
    assert.equal(firstLine(path), "no newline");
  }));
