// A minimal host for the orphan tests: starts one agent through the engine, opens a session, prints
// {"ready":true,"agentPid":N} and idles until killed. The agent command comes as a JSON argument.
import { createAgentRuntime } from "../../src/core/acp/agent-runtime";

async function main(): Promise<void> {
  const { command, args, cwd } = JSON.parse(process.argv[2] ?? "{}") as {
    command: string;
    args: string[];
    cwd: string;
  };
  const rt = createAgentRuntime({
    agent: { id: "idle", displayName: "idle", command, args },
    cwd,
    permissionPolicy: "approve-all",
  });
  await rt.ensureSession();
  process.stdout.write(JSON.stringify({ ready: true, agentPid: rt.pid }) + "\n");
  setInterval(() => {}, 60_000);
}

main().catch((err: unknown) => {
  process.stderr.write(`idle-host: ${String((err as Error)?.message ?? err)}\n`);
  process.exit(1);
});
