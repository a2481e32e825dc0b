// What the window asks the thread host to run gets the runtime options a window's own session has (#35): its other
// workspace folders, the recall tools as an MCP server, the data home in the agent's env, traffic recording as the
// setting says. Against the real host in this process, its real run path (the CLI's) and real agent processes.
// Hostile: a run naming a root outside the folders the asking client said are its own (or a client that said
// none, or a root through a symlink leading out) is refused and no agent starts (before the check the host gave
// the agent any folder a client named: its path guard, additionalDirectories and the sandbox's writable folders).
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { joinCommandLine } from "../../../../src/core/acp/agent-registry";
import { connectHost } from "../../../../src/core/host/client";
import type { DetachedRun } from "../../../../src/core/host/protocol";
import { REDACTED } from "../../../../src/core/redact";
import { homeLayout } from "../../../../src/core/store/paths";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { withCliHost } from "../../../fixtures/host/cli-host";
import { HOSTILE_AGENT } from "../../../fixtures/sandbox-world";
import { waitFor } from "../../../fixtures/spawner/wait";

const run = (cwd: string, more: Partial<DetachedRun> = {}): DetachedRun => ({
  cwd,
  prompts: ["hello"],
  agent: joinCommandLine([HOSTILE_AGENT.command, ...HOSTILE_AGENT.args]),
  permission: "approve-all",
  env: {},
  stallMs: 0,
  retry: "off",
  ...more,
});

/** `dir/ws`, `dir/other` (the editor's folders), `dir/outside`, and a link in ws that leads out of it. */
function folders(dir: string) {
  const [ws, other, outside] = ["ws", "other", "outside"].map((f) => join(dir, f));
  for (const f of [ws, other, outside]) mkdirSync(f, { recursive: true });
  symlinkSync(outside, join(ws, "out"));
  return { ws, other, outside };
}

test("a run naming a root outside the asking client's folders is refused, and no agent starts", () =>
  withCliHost("acp-host-roots-", async ({ dir, home }) => {
    const { ws, other, outside } = folders(dir);
    const editor = await connectHost({ home, client: "an editor", serves: { fs: false, roots: [ws, other] } });
    const bare = await connectHost({ home, client: "a client that said no folders" });
    assert.ok(editor && bare);
    try {
      const refused = /not all inside this client's folders/;
      for (const [what, roots] of [
        ["a folder outside", [outside]],
        ["one of two outside", [other, outside]],
        ["a link in a folder that leads out", [join(ws, "out")]],
        ["the folders' parent", [dir]],
        ["a relative path", ["other"]],
      ] as const)
        await assert.rejects(editor.request({ t: "run", run: run(ws, { roots: [...roots] }) }), refused, what);
      await assert.rejects(bare.request({ t: "run", run: run(ws, { roots: [other] }) }), refused, "no folders said");
      const st = await editor.request({ t: "status" });
      assert.equal(st.t === "status" && st.status.sessions.length, 0, "no run started");
      // the window's own: its other workspace folder
      const ok = await editor.request({ t: "run", run: run(ws, { roots: [other] }) });
      assert.equal(ok.t, "started");
    } finally {
      editor.close();
      bare.close();
    }
  }));

test("the window's runtime options reach the hosted agent: recall tools, the data home, traffic as set", () =>
  withCliHost("acp-host-opts-", async ({ dir, home }) => {
    const { ws } = folders(dir);
    const conn = await connectHost({ home, client: "an editor", serves: { fs: false, roots: [ws] } });
    assert.ok(conn);
    const store = new ThreadStore(home);
    const ended = async (r: { t: string; threadId?: string }) => {
      assert.equal(r.t, "started");
      const id = r.threadId ?? "";
      await waitFor(() => store.read(id).records.some((x) => x.kind === "turn_end"), "the turn ended", 20_000);
      // the run ended (its agent closed, its traffic written)
      for (let gone = false; !gone; await new Promise((r) => setTimeout(r, 50))) {
        const st = await conn.request({ t: "status" });
        gone = st.t === "status" && !st.status.sessions.some((x) => x.threadId === id);
      }
      return id;
    };
    const traffic = (id: string) => join(homeLayout(home).trafficDir, `${id}.ndjson`);
    try {
      const recallMcp = {
        command: process.execPath,
        args: ["/ext/dist/cli.js", "mcp"],
        env: { ELECTRON_RUN_AS_NODE: "1" },
      };
      const env = join(dir, "env.txt");
      const on = await ended(
        await conn.request({
          t: "run",
          run: run(ws, { prompts: [`shell printf %s "$ACP_THREADS_HOME" > ${env}`], recallMcp }),
        }),
      );
      assert.equal(readFileSync(env, "utf8"), home, "the agent's env names the host's data home");
      const opened = readFileSync(traffic(on), "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { m?: { method?: string; params?: { mcpServers?: unknown } } })
        .find((e) => e.m?.method === "session/new");
      assert.deepEqual(
        opened?.m?.params?.mcpServers,
        [
          {
            name: "acp-threads-recall",
            command: process.execPath,
            args: ["/ext/dist/cli.js", "mcp"],
            // values are redacted in the traffic file; the names say the home and the runtime
            env: [
              { name: "ACP_THREADS_HOME", value: REDACTED },
              { name: "ELECTRON_RUN_AS_NODE", value: REDACTED },
            ],
          },
        ],
        "the recall MCP server offered, on the host's home",
      );
      const off = await ended(await conn.request({ t: "run", run: run(ws, { recordTraffic: false }) }));
      assert.equal(existsSync(traffic(off)), false, "recordTraffic off: no traffic file");
    } finally {
      conn.close();
    }
  }));
