/** `threads import --from-agent`'s flags, apart from its runner (import-agent.ts, loaded only when it
 * runs: `threads list` does not load the ACP SDK). Its table is in commands/threads.ts.
 */
export const IMPORT_AGENT_FLAGS = {
  "from-agent": {
    type: "string",
    arg: "AGENT",
    help: "import the sessions AGENT lists (session/list) that are not threads yet, replayed by session/load",
  },
  cwd: { type: "string", arg: "DIR", help: "with --from-agent: the sessions of DIR (default: the folder you are in)" },
  all: { type: "boolean", help: "with --from-agent: the sessions of every folder" },
  "dry-run": { type: "boolean", help: "with --from-agent: say what would be imported, write nothing" },
} as const;
