/**
 * Messages between the Usage view's host side (src/vscode/usage-view.ts) and its webview (./main.ts). Inbound
 * webview messages are untrusted: the host accepts only what `parseUsageMessage` lets through.
 */
import type { UsageReport } from "../../core/usage/usage-query";
import { fields, str } from "../shared/guards";

export const USAGE_VIEW_TYPE = "acpThreads.usage";
export const USAGE_GROUPS = ["day", "agent", "model", "thread"] as const;
export const USAGE_RANGES = ["today", "7d", "30d", "all"] as const;
export type UsageGroupName = (typeof USAGE_GROUPS)[number];
export type UsageRange = (typeof USAGE_RANGES)[number];

export type UsageHostMessage =
  { type: "report"; by: UsageGroupName; range: UsageRange; report: UsageReport } | { type: "error"; message: string };

export type UsageWebviewMessage =
  | { type: "ready" }
  | { type: "query"; by: UsageGroupName; range: UsageRange }
  | { type: "openThread"; threadId: string };

export function parseUsageMessage(raw: unknown): UsageWebviewMessage | undefined {
  const m = fields(raw);
  switch (m?.type) {
    case "ready":
      return { type: "ready" };
    case "query":
      return (USAGE_GROUPS as readonly unknown[]).includes(m.by) &&
        (USAGE_RANGES as readonly unknown[]).includes(m.range)
        ? { type: "query", by: m.by as UsageGroupName, range: m.range as UsageRange }
        : undefined;
    case "openThread":
      return str(m.threadId, 200) ? { type: "openThread", threadId: m.threadId } : undefined;
    default:
      return undefined;
  }
}
