import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { enableCompileCache } from "../../../src/cli/compile-cache";
import { homeLayout } from "../../../src/core/store/paths";

/** A stand-in for Node 22's module.enableCompileCache (this suite runs on Node 20 too): records the folders. */
function recorder() {
  const dirs: string[] = [];
  return { dirs, enable: (dir: string) => (dirs.push(dir), { status: 1 }) };
}

function withHome(fn: (home: string, cacheDir: string) => void): void {
  const home = mkdtempSync(join(tmpdir(), "compile-cache-"));
  try {
    fn(home, homeLayout(home).compileCacheDir);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

test("the compile cache lives in the data home's index folder, made private (0700)", () => {
  withHome((home, cacheDir) => {
    const r = recorder();
    assert.equal(enableCompileCache({ ACP_THREADS_HOME: home }, r.enable), cacheDir);
    assert.deepEqual(r.dirs, [cacheDir]);
    if (process.platform !== "win32") assert.equal(statSync(cacheDir).mode & 0o777, 0o700);
  });
});

test("NODE_COMPILE_CACHE and NODE_DISABLE_COMPILE_CACHE keep their meaning, and a Node without the API does nothing", () => {
  withHome((home) => {
    const r = recorder();
    assert.equal(
      enableCompileCache({ ACP_THREADS_HOME: home, NODE_COMPILE_CACHE: join(home, "x") }, r.enable),
      undefined,
    );
    assert.equal(enableCompileCache({ ACP_THREADS_HOME: home, NODE_DISABLE_COMPILE_CACHE: "1" }, r.enable), undefined);
    assert.deepEqual(r.dirs, []);
    if (!("enableCompileCache" in require("node:module")))
      assert.equal(enableCompileCache({ ACP_THREADS_HOME: home }), undefined, "Node 20: no cache");
  });
});

test(
  "a cache folder others can write, or a link planted in its place, is not used (V8 would run what it reads)",
  { skip: process.platform === "win32" },
  () => {
    withHome((home, cacheDir) => {
      mkdirSync(cacheDir, { recursive: true });
      chmodSync(cacheDir, 0o777);
      const r = recorder();
      assert.equal(enableCompileCache({ ACP_THREADS_HOME: home }, r.enable), undefined, "world-writable");
      chmodSync(cacheDir, 0o770);
      assert.equal(enableCompileCache({ ACP_THREADS_HOME: home }, r.enable), undefined, "group-writable");
      rmSync(cacheDir, { recursive: true });
      const elsewhere = mkdtempSync(join(tmpdir(), "planted-cache-"));
      try {
        chmodSync(elsewhere, 0o700);
        symlinkSync(elsewhere, cacheDir);
        assert.equal(enableCompileCache({ ACP_THREADS_HOME: home }, r.enable), undefined, "a link");
      } finally {
        rmSync(elsewhere, { recursive: true, force: true });
      }
      assert.deepEqual(r.dirs, [], "never enabled on any of them");
    });
  },
);
