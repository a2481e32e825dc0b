// #35 item 7, the sandbox's reports as engine requests (requests-sandbox.ts): `sandbox.availability` probes with the
// engine's own environment, and a request cannot name the program it probes with (a client over the host's socket
// would then have the engine run a program of its choosing); `sandbox.hosts` checks an allow-list the way the
// sandbox reads it, and refuses every entry that would widen it past named hosts. Over the socket, both answer as
// in process.
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { localEngine } from "../../../../src/core/engine/local";
import type { EngineRequest } from "../../../../src/core/engine/requests";
import { AcpThreadsError } from "../../../../src/core/errors";
import { connectHost } from "../../../../src/core/host/client";
import { describeSandbox } from "../../../../src/core/sandbox/labels";
import { describeAvailability, sandboxAvailability } from "../../../../src/core/sandbox/tool";
import { withTmp } from "../store/helpers";
import { withCliHost } from "../../../fixtures/host/cli-host";
import { outcome } from "./helpers";

/** A folder with a `bwrap` (and a `sandbox-exec`) that only leaves a mark that it ran, and exits 0. */
function markingTool(dir: string): { bin: string; mark: string } {
  const bin = join(dir, "bin");
  mkdirSync(bin, { recursive: true });
  const mark = join(dir, "ran");
  for (const name of ["bwrap", "sandbox-exec"]) {
    writeFileSync(join(bin, name), `#!/bin/sh\necho ran >> '${mark}'\nexit 0\n`);
    chmodSync(join(bin, name), 0o755);
  }
  return { bin, mark };
}

test("sandbox.availability is the probe with the engine's environment, and doctor's line is the same", () =>
  withTmp(async (dir) => {
    const home = join(dir, "home");
    const none = { PATH: join(dir, "nothing") };
    const missing = await localEngine({ home, env: none }).call({ op: "sandbox.availability" });
    assert.deepEqual(missing, await sandboxAvailability({ env: none }), "the probe's own answer");
    if (process.platform === "linux") assert.match(describeSandbox(missing), /bubblewrap \(bwrap\) is not installed/);
    // a tool that runs: the report names it and (bubblewrap) what seccomp blocks, as doctor said before
    const { bin, mark } = markingTool(dir);
    const env = { PATH: bin };
    const found = await localEngine({ home, env }).call({ op: "sandbox.availability" });
    if (process.platform !== "linux") return;
    assert.ok(existsSync(mark), "the engine probed the bwrap on its own PATH");
    assert.equal(found.available && found.tool.path, join(bin, "bwrap"));
    const hosts = ["api.example.com"];
    assert.equal(describeSandbox(found, hosts), describeAvailability(await sandboxAvailability({ env }), hosts));
    assert.match(describeSandbox(found, hosts), /^bubblewrap \(.*\): .*seccomp.*; egress: 1 host via proxy/);
  }));

test("hostile: a sandbox.availability request cannot name the program, the path or the PATH the engine probes with", () =>
  withTmp(async (dir) => {
    const { bin, mark } = markingTool(dir);
    const engine = localEngine({ home: join(dir, "home"), env: { PATH: join(dir, "nothing") } });
    const hostile = {
      op: "sandbox.availability",
      toolPath: join(bin, "bwrap"),
      env: { PATH: bin },
      probe: { toolPath: join(bin, "bwrap"), env: { PATH: bin } },
    };
    const reply = await engine.call(hostile as { op: "sandbox.availability" });
    assert.equal(existsSync(mark), false, "the client's program never ran");
    if (process.platform === "linux") assert.equal(reply.available, false, "no tool on the engine's own PATH");
  }));

test("hostile: sandbox.hosts refuses every entry that would widen the allow-list past named hosts", () =>
  withTmp(async (dir) => {
    const engine = localEngine({ home: join(dir, "home") });
    const widening = [
      "*",
      "*.com",
      "*:443",
      "*.*.example.com",
      "exa*mple.com",
      "0.0.0.0/0",
      "example.com:0",
      "example.com:65536",
      "",
      "http://example.com",
      "2130706433",
    ];
    for (const entry of widening) {
      await assert.rejects(
        engine.call({ op: "sandbox.hosts", hosts: ["ok.example.com", entry] }),
        (err: unknown) =>
          err instanceof AcpThreadsError &&
          err.code === "usage" &&
          err.message.startsWith(`sandbox allowed host '${entry}' is not valid`),
        `refused: ${JSON.stringify(entry)}`,
      );
    }
    for (const hosts of ["*", [42], [["*"]]]) {
      await assert.rejects(engine.call({ op: "sandbox.hosts", hosts } as never), {
        code: "usage",
        message: "engine request sandbox.hosts: 'hosts' must be a list of strings",
      });
    }
    // an empty list is the sandbox's "egress: all" (no proxy), as --sandbox with no --sandbox-hosts always was
    assert.deepEqual(await engine.call({ op: "sandbox.hosts", hosts: [] }), { rules: [] });
    assert.deepEqual(
      await engine.call({ op: "sandbox.hosts", hosts: ["A.example.com.", "a.example.com", "[::1]:80"] }),
      {
        rules: [
          { host: "a.example.com", suffix: false },
          { host: "::1", suffix: false, port: 80 },
        ],
      },
    );
  }));

test("the sandbox's requests over the host's socket answer as in process", () =>
  withCliHost("acp-host-sandbox-", async ({ home }) => {
    const conn = await connectHost({ home, client: "sandbox test" });
    assert.ok(conn);
    try {
      const local = localEngine({ home });
      const same: EngineRequest[] = [
        { op: "sandbox.availability" },
        { op: "sandbox.hosts", hosts: ["api.example.com", "*.example.org:8443"] },
        { op: "sandbox.hosts", hosts: ["*"] },
      ];
      for (const req of same)
        assert.deepEqual(await outcome(conn.asEngine, req), await outcome(local, req), JSON.stringify(req));
    } finally {
      conn.close();
    }
  }));
