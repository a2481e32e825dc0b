/**
 * The engine request of the agent import (core/engine/requests-agent-import.ts): the agent is started per folder
 * with the engine's environment and `deny-all` permissions (no terminal), its sessions replayed into the data home.
 */
import { createAgentRuntime } from "../acp/agent-runtime";
import { importAgentSessions } from "../import/agent-import";
import { agentRefOf } from "../model/agent";
import { nodeOf } from "./serve-agents";
import type { Handlers } from "./serve-types";

export const agentImportOps: Handlers<"agents.import"> = {
  "agents.import": ({ store, env }, req, report, signal) =>
    importAgentSessions({
      threadsDir: store.threadsDir,
      agent: agentRefOf(req.spec),
      startAgent: (at) =>
        createAgentRuntime(
          { agent: req.spec, cwd: at, permissionPolicy: "deny-all" },
          { baseEnv: env, node: nodeOf(store, req), noPty: true },
        ),
      ...(req.cwd !== undefined ? { cwd: req.cwd } : {}),
      listFrom: req.listFrom,
      dryRun: !!req.dryRun,
      ...(signal ? { signal } : {}),
      onProgress: ({ done, total, current }) => {
        if (!current) return;
        report({ t: "progress", done, total });
        report({ t: "step", message: current.title?.trim() || current.sessionId });
      },
    }),
};
