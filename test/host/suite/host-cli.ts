// The built CLI as a user runs it in a terminal of this window (same data home), and the fake agent it runs: for
// the suites about the thread host (host-client.test.ts, thread-events.test.ts).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import type { SessionNode } from "../../../src/vscode/sessions-tree";
import { api, repoRoot, workspaceRoot } from "./helpers";

export const FAKE = `${process.execPath} ${join(repoRoot(), "dist-test/fixtures/fake-agents/stdio-agent.main.js")}`;

export function cli(home: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(repoRoot(), "dist/cli.js"), ...args],
      {
        cwd: workspaceRoot(),
        env: { ...process.env, ACP_THREADS_HOME: home, ELECTRON_RUN_AS_NODE: "1", ACP_THREADS_HOST_IDLE_SECONDS: "2" },
      },
      (err, stdout, stderr) =>
        resolve({
          code: err ? ((err as { code?: number }).code ?? 1) : 0,
          stdout: String(stdout),
          stderr: String(stderr),
        }),
    );
  });
}

/** `acp-threads run --detach` of the fake agent with `args` (flags, then prompts): the thread's id. */
export async function detach(home: string, args: string[]): Promise<string> {
  const run = await cli(home, ["run", "--detach", "--format", "json", "--agent", FAKE, ...args]);
  assert.equal(run.code, 0, run.stderr);
  return (JSON.parse(run.stdout) as { threadId: string }).threadId;
}

/** The Sessions view's row of a thread the thread host runs (undefined: not listed). */
export async function hostedNode(threadId: string): Promise<Extract<SessionNode, { type: "hosted" }> | undefined> {
  const { hub } = await api();
  const groups = await hub.tree.getChildren();
  return groups
    .flatMap((g) => (g.type === "group" ? g.children : [g]))
    .find((n): n is Extract<SessionNode, { type: "hosted" }> => n.type === "hosted" && n.threadId === threadId);
}
