// The offline demo profile: starts the scripted model server and prepares isolated environments of today's
// adapters pointing at it (test/fixtures/agent-env): codex-acp 2.6 for the demo profile, claude-agent-acp 0.101 as
// a second agent; then prints one JSON line and serves until SIGTERM/SIGINT:
//   {"modelUrl":"http://127.0.0.1:N","profile":{"label":"Demo: Codex (local scripted model)","command",...},
//    "claude":{"command",...,"displayName":"Demo: Claude (local scripted model)"}}
// `profile` is the value of the `acpThreads.demoProfile` setting, `claude` an `acpThreads.agents` entry (the e2e
// journey runs on both). Used by `npm start`, the host suite and e2e.
//   node dist-test/host/demo-env.main.js --workspace DIR
import { rmSync } from "node:fs";
import { agentsInstalled, makeRunDir, prepareAgentEnv } from "../fixtures/agent-env";
import { startModelServer } from "../fixtures/model-server";

export const DEMO_LABEL = "Demo: Codex (local scripted model)";
export const CLAUDE_DEMO_LABEL = "Demo: Claude (local scripted model)";

async function main(): Promise<void> {
  const i = process.argv.indexOf("--workspace");
  const workspace = i > 0 ? process.argv[i + 1] : process.cwd();
  if (!agentsInstalled()) throw new Error("codex-acp is not installed: run bash test/agents/install.sh");
  // a real model takes a moment before answering a tool result; codex-acp needs it to report a command done
  const server = await startModelServer({ workspace, thinkAfterToolMs: 500 });
  const runDir = makeRunDir("demo-");
  // today's codex-acp (2.6): it names the thread from the model's title, which the scripted model derives from
  // the user's first message (test/fixtures/model-server/schema-object.ts), so threads keep telling apart
  const a = prepareAgentEnv("codex-acp", { modelUrl: server.url, workspace, runDir });
  const profile = { label: DEMO_LABEL, command: a.command, args: a.args, env: a.vars };
  const c = prepareAgentEnv("claude-agent-acp", { modelUrl: server.url, workspace, runDir });
  const claude = { displayName: CLAUDE_DEMO_LABEL, command: c.command, args: c.args, env: c.vars };
  process.stdout.write(JSON.stringify({ modelUrl: server.url, pid: process.pid, profile, claude }) + "\n");
  const stop = () =>
    void server.close().finally(() => {
      rmSync(runDir, { recursive: true, force: true });
      process.exit(0);
    });
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`demo-env: ${(err as Error)?.message ?? err}\n`);
  process.exit(1);
});
