// The offline demo profile: starts the scripted model server and prepares an isolated codex-acp environment
// pointing at it (test/fixtures/agent-env), then prints one JSON line and serves until SIGTERM/SIGINT:
//   {"modelUrl":"http://127.0.0.1:N","profile":{"label":"Demo: Codex (local scripted model)","command",...}}
// `profile` is the value of the `acpThreads.demoProfile` setting. Used by `npm start`, the host suite and e2e.
//   node dist-test/host/demo-env.main.js --workspace DIR
import { rmSync } from "node:fs";
import { agentsInstalled, makeRunDir, prepareAgentEnv } from "../fixtures/agent-env";
import { startModelServer } from "../fixtures/model-server";

export const DEMO_LABEL = "Demo: Codex (local scripted model)";

async function main(): Promise<void> {
  const i = process.argv.indexOf("--workspace");
  const workspace = i > 0 ? process.argv[i + 1] : process.cwd();
  if (!agentsInstalled()) throw new Error("codex-acp is not installed: run bash test/agents/install.sh");
  // a real model takes a moment before answering a tool result; codex-acp needs it to report a command done
  const server = await startModelServer({ workspace, thinkAfterToolMs: 500 });
  const runDir = makeRunDir("demo-");
  // codex-acp 0.16 (the compatibility set): codex-acp 2.6 names the thread from the scripted model's title
  // ("Scripted session"), which the e2e journey cannot tell apart; 2.6 runs the whole interop suite instead
  const a = prepareAgentEnv("codex-acp-0.16", { modelUrl: server.url, workspace, runDir });
  const profile = { label: DEMO_LABEL, command: a.command, args: a.args, env: a.vars };
  process.stdout.write(JSON.stringify({ modelUrl: server.url, pid: process.pid, profile }) + "\n");
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
