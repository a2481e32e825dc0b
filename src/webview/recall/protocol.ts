/** Messages between the Recall view (src/vscode/recall-view.ts) and its webview (src/webview/recall/main.ts). */
import type { RecentResult } from "../../core/recall/recent";
import type { SearchResult } from "../../core/recall/search";
import { fields, str } from "../shared/guards";

export type RecallScope = "repo" | "all";

export type RecallHostMessage =
  | { type: "results"; result: SearchResult }
  | { type: "recent"; result: RecentResult }
  | { type: "busy"; text: string | null }
  | { type: "error"; message: string };

export type RecallWebviewMessage =
  | { type: "ready" }
  | { type: "search"; query: string; scope: RecallScope; allTerms: boolean }
  | { type: "open"; source: string; path: string; line: number | null }
  | { type: "import" };

export function parseRecallMessage(raw: unknown): RecallWebviewMessage | undefined {
  const m = fields(raw);
  switch (m?.type) {
    case "ready":
    case "import":
      return { type: m.type };
    case "search":
      return str(m.query, 2000) && (m.scope === "repo" || m.scope === "all")
        ? { type: "search", query: m.query, scope: m.scope, allTerms: m.allTerms === true }
        : undefined;
    case "open":
      return str(m.source, 100) &&
        str(m.path, 4096) &&
        m.path.startsWith("/") &&
        (m.line === null || Number.isInteger(m.line))
        ? { type: "open", source: m.source, path: m.path, line: m.line as number | null }
        : undefined;
    default:
      return undefined;
  }
}
