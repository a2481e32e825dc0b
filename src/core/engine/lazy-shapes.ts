/**
 * The shapes of the areas whose handlers load on first use (serve-lazy.ts): the registry (its installs bring the
 * agent probe and the ACP SDK) and the agent import. The dispatcher checks a request before loading anything.
 */

/** The registry requests' shapes (serve.ts). */
export const registryShapes = {
  "registry.list": {},
  "registry.install": { agentId: "string", reinstall: "boolean?" },
  "registry.update": { agentId: "string?" },
  "registry.remove": { agentId: "string" },
  "agents.installed": {},
} as const;

/** The agent import's shape (serve.ts). */
export const agentImportShapes = {
  "agents.import": {
    spec: "spec",
    cwd: "path?",
    listFrom: "path",
    dryRun: "boolean?",
    nodePath: "string?",
    managedNodes: "boolean?",
  },
} as const;
