import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { setFlagsFromString } from "node:v8";
import { oneShotWasmFlags } from "../../../../src/core/recall/v8-flags";

// (func (export "f") (param i32) (result i32) (local i32): count up to the parameter in a loop, return the count)
const LOOP = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 6, 1, 96, 1, 127, 1, 127, 3, 2, 1, 0, 7, 5, 1, 1, 102, 0, 0, 10, 25, 1, 23, 1, 1, 127,
  3, 64, 32, 1, 65, 1, 106, 33, 1, 32, 1, 32, 0, 73, 13, 0, 11, 32, 1, 11,
]);

/**
 * In a child (this file run again): a hot WASM function with a tiny tier-up budget, called until TurboFan has
 * compiled it or `calls` calls have been made; prints whether it was. With `oneShot`, the one-shot flags are set
 * first, as a CLI query sets them, after V8 has started.
 */
function hotFunctionTiersUp(): void {
  setFlagsFromString("--wasm-tiering-budget=100");
  if (process.env.RECALL_FLAGS_ONE_SHOT === "1") oneShotWasmFlags({});
  setFlagsFromString("--allow-natives-syntax");
  const turbofan = new Function("f", "return %IsTurboFanFunction(f)") as (f: unknown) => boolean;
  const f = (new WebAssembly.Instance(new WebAssembly.Module(LOOP)).exports as { f: (n: number) => number }).f;
  const calls = Number(process.env.RECALL_FLAGS_CALLS);
  let tiered = false;
  for (let i = 0; i < calls && !tiered; i++) {
    f(10_000);
    if (i % 100 === 0) tiered = turbofan(f);
  }
  process.stdout.write(JSON.stringify({ tiered }));
}

function child(oneShot: boolean, calls: number): boolean {
  const r = spawnSync(process.execPath, [__filename], {
    env: {
      ...process.env,
      RECALL_FLAGS_CHILD: "1",
      RECALL_FLAGS_ONE_SHOT: oneShot ? "1" : "0",
      RECALL_FLAGS_CALLS: String(calls),
    },
    encoding: "utf8",
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, "", "no 'unrecognized flag' from this V8");
  return (JSON.parse(r.stdout) as { tiered: boolean }).tiered;
}

if (process.env.RECALL_FLAGS_CHILD === "1") hotFunctionTiersUp();
else
  test("a one-shot recall read keeps SQLite's WASM on the baseline tier once V8 has started (Node 22/24 too)", () => {
    // the control: with V8's defaults the same function is recompiled by TurboFan (else the check proves nothing)
    assert.equal(child(false, 2_000_000), true, "with V8's defaults a hot function tiers up");
    // Node 24 (V8 13) ignored --liftoff-only's implications when set at run time: the function tiered up anyway
    assert.equal(child(true, 40_000), false, "with the one-shot flags it stays on Liftoff");
  });
