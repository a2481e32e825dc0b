// `run --detach` with the run flags (#35), real processes and the stdio fake agent: --file/--image are resolved,
// checked and read by the asking client and cross the socket (the first prompt carries the same blocks as `run`),
// --protocol-log FILE is written by the host when the run ends, --elicitation defaults answers the agent's form,
// --sandbox runs the agent sandboxed; --review is refused with a clear usage error, never ignored (best of N with
// --detach: run-best-of-detach.test.ts).
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { hostPlace } from "../../../../src/core/host/door";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { FAKE_AGENT, runCli } from "../../../fixtures/cli/spawn-cli";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { CONTEXT_FLAGS, contextBlocks, contextWorkspace } from "../../../fixtures/cli/context-world";
import { hostEnv, stopHost } from "../../../fixtures/host/host-cli";
import { noBwrap } from "../../../fixtures/sandbox-world";
import { waitFor } from "../../../fixtures/spawner/wait";

function world(dir: string) {
  const home = join(dir, "home");
  contextWorkspace(dir);
  const cli = (args: string[]) => runCli(args, { home, cwd: dir, env: hostEnv() });
  const detach = async (args: string[]) => {
    const r = await cli(["run", "--detach", "--format", "json", "--agent", FAKE_AGENT, ...args]);
    assert.equal(r.code, 0, r.stderr);
    return (JSON.parse(r.stdout) as { threadId: string }).threadId;
  };
  /** The agent's messages once the run's last turn ended. */
  const said = async (id: string, turns = 1) => {
    const records = () => new ThreadStore(home).read(id).records;
    await waitFor(() => records().filter((r) => r.kind === "turn_end").length >= turns, "the turns ended");
    return records()
      .flatMap((r) => (r.kind === "agent_message" ? [r.text] : []))
      .join("");
  };
  return { home, cli, detach, said };
}

test("run --detach --file --image: the client reads them, the first prompt carries them", () =>
  withTmpDir("acp-host-flags-", async (dir) => {
    const w = world(dir);
    try {
      const caps = ["--env", "FAKE_AGENT_PROMPT_CAPS=image,embeddedContext"];
      const id = await w.detach([...caps, ...CONTEXT_FLAGS, "context"]);
      assert.equal((await w.said(id)).trim(), contextBlocks(dir));
      const missing = await w.cli(["run", "--detach", "--agent", FAKE_AGENT, "--file", "nope.ts", "context"]);
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /--file nope\.ts: no such file or folder/);
    } finally {
      await stopHost(w.home);
    }
  }));

test("run --detach --protocol-log FILE: the host writes the run's traffic there; --elicitation defaults", () =>
  withTmpDir("acp-host-flags-", async (dir) => {
    const w = world(dir);
    try {
      const id = await w.detach(["--protocol-log", "traffic.log", "--elicitation", "defaults", "elicit"]);
      assert.match(await w.said(id), /elicitation: accept \{"name":"Ada","count":3\}/);
      await waitFor(() => existsSync(join(dir, "traffic.log")), "the protocol log");
      assert.match(readFileSync(join(dir, "traffic.log"), "utf8"), /session\/prompt/);
    } finally {
      await stopHost(w.home);
    }
  }));

test("run --detach --sandbox: the host runs the agent in the sandbox", { skip: noBwrap }, () =>
  withTmpDir("acp-host-flags-", async (dir) => {
    const w = world(dir);
    try {
      const id = await w.detach(["--sandbox", "hello"]);
      assert.match(await w.said(id), /echo: hello/);
      assert.match(readFileSync(hostPlace(w.home).log, "utf8"), /sandboxed \(bubblewrap\)/);
    } finally {
      await stopHost(w.home);
    }
  }),
);

test("run --detach --review is a usage error that says so, and nothing starts", () =>
  withTmpDir("acp-host-flags-", async (dir) => {
    const w = world(dir);
    writeFileSync(join(dir, "notes.txt"), "src/a.ts:1: why\n");
    const r = await w.cli(["run", "--detach", "--agent", FAKE_AGENT, "--review", "notes.txt", "go"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--review does not go with --detach yet/);
    assert.equal(existsSync(hostPlace(w.home).dir), false, "no host was started");
  }));
