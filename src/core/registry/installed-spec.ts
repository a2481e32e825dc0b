/** An installed registry agent as a spec to start (core/registry/installed.ts reads them): no I/O. */
import type { AgentSpec } from "../model/agent";
import type { InstalledAgent } from "./types";

/** How to start an installed agent, like a preset: the command is already absolute. */
export function installedAgentSpec(installed: InstalledAgent): AgentSpec {
  return {
    id: installed.id,
    displayName: installed.name,
    command: installed.command,
    args: [...installed.args],
    ...(installed.env ? { env: { ...installed.env } } : {}),
  };
}
