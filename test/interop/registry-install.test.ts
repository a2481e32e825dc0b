// A registry agent installed the way users will: an entry `npx: {package: "@agentclientprotocol/codex-acp@2.6.0"}`
// served by a local registry, installed through the core into a temp data home (npm from the npm registry),
// resolved by id like a preset and run for one turn against the scripted model.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { resolveAgent } from "../../src/core/acp/agent-registry";
import { createAgentRuntime } from "../../src/core/acp/agent-runtime";
import { fetchRegistry, installAgent, installedSpecForAsync } from "../../src/core/registry";
import { findTool } from "../../src/core/registry/run-tool";
import { start } from "../fixtures/registry/server";
import { collectTurn, setUp } from "./harness";

const PACKAGE = "@agentclientprotocol/codex-acp@2.6.0";

test(
  `${PACKAGE} from a registry entry: installed into the data home, started by id, one turn`,
  { timeout: 900_000, skip: findTool("npm") ? false : "npm is not on PATH" },
  async () => {
    const t = await setUp("codex-acp");
    const reg = await start({
      agents: [
        {
          id: "codex-acp",
          name: "Codex CLI",
          version: "2.6.0",
          description: "ACP adapter for OpenAI's coding assistant",
          license: "Apache-2.0",
          distribution: { npx: { package: PACKAGE } },
        },
      ],
    });
    try {
      // codex 0.166 refuses approval_policy "untrusted" ("no longer supported")
      const config = join(t.agent.vars.CODEX_HOME!, "config.toml");
      writeFileSync(
        config,
        readFileSync(config, "utf8").replace(/approval_policy = "\w+"/, 'approval_policy = "on-request"'),
      );

      const listing = await fetchRegistry({ url: reg.url, dataHome: t.dataHome });
      // env: npm and the auth probe run in the agent's isolated environment
      const installed = await installAgent(listing.index.agents[0]!, {
        dataHome: t.dataHome,
        registryUrl: reg.url,
        env: t.agent.env,
      });
      assert.equal(installed.kind, "npx");
      // codex-acp 2.6 advertises api-key and chat-gpt, both agent auth (no `type`)
      assert.deepEqual(installed.auth, ["agent"]);
      assert.ok(installed.command.startsWith(join(t.dataHome, "agents", "codex-acp", "2.6.0", "node_modules")));

      const installedSpec = (id: string) => installedSpecForAsync(t.dataHome, id);
      const { spec } = await resolveAgent("codex-acp", { cwd: t.workspace, installed: installedSpec });
      assert.equal(spec.command, installed.command);
      const rt = createAgentRuntime(
        { agent: spec, cwd: t.workspace, permissionPolicy: "approve-all", env: t.agent.vars },
        { baseEnv: t.agent.env },
      );
      try {
        const { sessionId } = await rt.ensureSession();
        const events = await collectTurn(rt, sessionId, "create hello.txt containing hi");
        const last = events.at(-1);
        assert.deepEqual(last?.type === "done" ? last.stopReason : last, "end_turn");
        assert.equal(readFileSync(join(t.workspace, "hello.txt"), "utf8").trim(), "hi");
      } finally {
        await rt.close();
      }
    } finally {
      await reg.close();
      await t.cleanup();
    }
  },
);
