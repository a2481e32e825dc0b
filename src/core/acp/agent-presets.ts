/** The agent presets (`--agent codex`, the editor's built-in agents): plain data and a lookup, no I/O. */

export interface AgentPreset {
  id: string;
  displayName: string;
  command: string;
  args: string[];
  /** npm package that provides the command (for "what to install"). */
  install: string;
  /**
   * Args that print a version, or null to read the npm package's version instead: exact for the npm adapters
   * (codex-acp 2.x and claude-agent-acp 0.101 know `--version`, their older releases and pi-acp 0.0.34 do not).
   */
  versionArgs: string[] | null;
  /** The ACP Registry's ids for this agent (their entries must install the same package, or be marked superseded). */
  registryIds?: string[];
}

export const AGENT_PRESETS: readonly AgentPreset[] = [
  {
    id: "codex",
    displayName: "Codex",
    command: "codex-acp",
    args: [],
    install: "npm i -g @agentclientprotocol/codex-acp",
    versionArgs: null,
    registryIds: ["codex-acp"],
  },
  {
    id: "claude",
    displayName: "Claude Code",
    command: "claude-agent-acp",
    args: [],
    install: "npm i -g @agentclientprotocol/claude-agent-acp",
    versionArgs: null,
    registryIds: ["claude-acp", "claude-code-acp"],
  },
  {
    id: "gemini",
    displayName: "Gemini CLI",
    command: "gemini",
    args: ["--acp"],
    install: "npm i -g @google/gemini-cli",
    versionArgs: ["--version"],
    registryIds: ["gemini"],
  },
  {
    id: "opencode",
    displayName: "OpenCode",
    command: "opencode",
    args: ["acp"],
    install: "npm i -g opencode-ai",
    versionArgs: ["--version"],
    registryIds: ["opencode"],
  },
  { id: "pi", displayName: "Pi", command: "pi-acp", args: [], install: "npm i -g pi-acp", versionArgs: null },
];

export function findPreset(id: string): AgentPreset | undefined {
  return AGENT_PRESETS.find((p) => p.id === id);
}
