import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { avoidWorkerExitDeadlock, needsWorkerExitFlag, WORKER_EXIT_V8_FLAG } from "../../../src/cli/worker-exit";

test("Node before 24 turns V8's concurrent recompilation off for the workers it starts; 24+ is left alone", () => {
  const set: string[] = [];
  assert.equal(
    avoidWorkerExitDeadlock("20.20.2", (f) => set.push(f)),
    true,
  );
  assert.equal(
    avoidWorkerExitDeadlock("22.12.0", (f) => set.push(f)),
    true,
  );
  assert.equal(
    avoidWorkerExitDeadlock("24.0.0", (f) => set.push(f)),
    false,
  );
  assert.equal(
    avoidWorkerExitDeadlock("25.1.0", (f) => set.push(f)),
    false,
  );
  assert.deepEqual(set, [WORKER_EXIT_V8_FLAG, WORKER_EXIT_V8_FLAG]);
  assert.equal(needsWorkerExitFlag("not a version"), false);
});

test("the flag is one this runtime's V8 takes (an unknown flag would be ignored silently)", () => {
  const r = spawnSync(process.execPath, [WORKER_EXIT_V8_FLAG, "-e", "process.stdout.write('ok')"], {
    encoding: "utf8",
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, "ok");
  assert.doesNotMatch(r.stderr, /unknown|bad option/i);
});
