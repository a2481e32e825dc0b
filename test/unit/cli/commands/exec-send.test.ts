// `acp-threads send` (#35): typing into an exec run the thread host owns goes through the host (before it, input
// worked only in the run's owner process, so a host-owned run could not be typed into from a shell). The host takes
// it only from a client whose folders hold the run (HOSTILE: a client of another folder, and one that named none,
// are refused and their text never reaches the run), and refuses it cleanly once the run ended.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { ExecRegistry } from "../../../../src/core/exec";
import { openExecRegistry } from "../../../../src/core/exec/open-registry";
import { connectHost } from "../../../../src/core/host/client";
import { cli, stopHost } from "../../../fixtures/host/host-cli";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";
import { waitFor } from "../../../fixtures/spawner/wait";
import { runCli } from "../../../fixtures/cli/spawn-cli";

test("send types into a run the host owns, from a client of its folder only, and not once it ended", () =>
  withTmpDir("acp-exec-send-", async (dir) => {
    const home = join(dir, "home");
    const [ws, other] = [join(dir, "ws"), join(dir, "other")];
    for (const d of [ws, other]) mkdirSync(d, { recursive: true });
    let registry: ExecRegistry | undefined;
    try {
      const script = "echo ready; read a; echo got:$a; read b; echo then:$b; sleep 600";
      const started = await runCli(["exec", "--detach", "--pty", "--", "sh", "-c", script], {
        home,
        cwd: ws,
        env: { ACP_THREADS_HOST_IDLE_SECONDS: "30" },
      });
      assert.equal(started.code, 0, started.stderr);
      const id = started.stdout.trim();
      // the run's output and status as another process reads them (the registry's files)
      registry = openExecRegistry(home, { recordThreads: false, sweepIntervalMs: 0 });
      const logs = () => registry!.poll(id).text;
      await waitFor(() => logs().includes("ready"), "it runs");
      for (const offer of [{ fs: false, roots: [other] }, undefined]) {
        const c = await connectHost({ home, client: "elsewhere", ...(offer ? { serves: offer } : {}) });
        assert.ok(c);
        const input = { line: "evil" };
        await assert.rejects(c.request({ t: "exec_input", runId: id, input }), /not all inside this client's folders/);
        c.close();
      }
      const sent = await cli(home, ["send", id, "hello", "there"]);
      assert.equal(sent.code, 0, sent.stderr);
      await waitFor(() => logs().includes("got:hello there"), "the line reached it");
      assert.equal(/evil/.test(logs()), false, "the refused text never reached it");
      assert.equal((await cli(home, ["send", "--raw", id, "raw-text"])).code, 0);
      assert.equal((await cli(home, ["send", "--keys", id, "Enter"])).code, 0);
      await waitFor(() => logs().includes("then:raw-text"), "raw text, then Enter, reached it");
      assert.equal((await cli(home, ["send", "--keys", id, "C-c"])).code, 0);
      await waitFor(() => registry!.info(id)?.status !== "running", "C-c ended it");
      const late = await cli(home, ["send", id, "too late"]);
      assert.equal(late.code, 1);
      assert.match(late.stderr, /is not running/);
    } finally {
      registry?.dispose();
      await stopHost(home);
    }
  }));
