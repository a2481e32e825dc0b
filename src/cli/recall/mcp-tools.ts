/** The MCP tools `recall` and `recall_recent`: schemas and handlers over the recall engine. */
import { resolve } from "node:path";
import type { Engine } from "../../core/engine/requests";
import { renderRecentMarkdown, renderSearchMarkdown } from "../../core/recall/render";

export const TOOLS = [
  {
    name: "recall",
    description:
      "Search past coding-agent sessions (Codex, Claude Code, ACP Threads) like rg: 2-6 short needles, a|b for alternatives, " +
      '"quoted phrase". Scoped to the repo of cwd unless global=true. Returns ranked sessions with evidence windows.',
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", description: "needles, e.g. 'migration rollback' or 'sqlite|fts5' or '登录 缓存'" },
        cwd: { type: "string", description: "directory whose repo is the scope (default: the server's cwd)" },
        global: { type: "boolean", description: "search every repo" },
        all_terms: { type: "boolean", description: "every needle must appear in the session (no OR fallback)" },
        limit: { type: "number", description: "sessions to return (3)" },
        budget_chars: {
          type: "number",
          description: "characters of the whole answer, headers and paths included (12000)",
        },
        format: { type: "string", enum: ["markdown", "json"], description: "markdown (default) or json" },
      },
      required: ["query"],
    },
  },
  {
    name: "recall_recent",
    description: "List recent past sessions in the repo (or globally) with their first user message.",
    inputSchema: {
      type: "object",
      properties: {
        cwd: { type: "string" },
        global: { type: "boolean" },
        limit: { type: "number" },
        format: { type: "string", enum: ["markdown", "json"] },
      },
    },
  },
];

type Args = Record<string, unknown>;
const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : undefined);

export async function callTool(
  engine: Engine,
  name: string,
  args: Args,
  serverCwd: string,
): Promise<{ text: string; structured: unknown }> {
  const global = args.global === true;
  const cwd = resolve(serverCwd, typeof args.cwd === "string" ? args.cwd : ".");
  const json = args.format === "json";
  if (name === "recall") {
    if (typeof args.query !== "string" || !args.query.trim()) throw new Error("'query' must be a non-empty string");
    const r = await engine.call({
      op: "recall.search",
      query: args.query,
      cwd,
      global,
      allTerms: args.all_terms === true,
      limit: n(args.limit),
      budgetChars: n(args.budget_chars),
    });
    return { text: json ? JSON.stringify(r) : renderSearchMarkdown(r), structured: r };
  }
  if (name === "recall_recent") {
    const r = await engine.call({ op: "recall.recent", cwd, global, limit: n(args.limit) });
    return { text: json ? JSON.stringify(r) : renderRecentMarkdown(r), structured: r };
  }
  throw new Error(`unknown tool '${name}'`);
}
