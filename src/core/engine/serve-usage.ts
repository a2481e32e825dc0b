/**
 * The engine request of token and cost figures (core/engine/requests.ts): a report summed from the usage index
 * (core/usage), opened without blocking the caller while another process holds the database (the extension host).
 */
import { listThreadsIndexed } from "../index/threads-index";
import { openUsageIndexAsync } from "../usage/usage-index";
import { queryUsage, type UsageReport } from "../usage/usage-query";
import type { Handlers } from "./serve-types";

export const usageOps: Handlers<"usage.report"> = {
  "usage.report": async ({ store }, req) => {
    const { index } = await openUsageIndexAsync(store);
    let report: UsageReport;
    try {
      report = queryUsage(index, {
        by: req.by,
        ...(req.since !== undefined ? { since: req.since } : {}),
        ...(req.threadId !== undefined ? { threadId: req.threadId } : {}),
        ...(req.agent !== undefined ? { agent: req.agent } : {}),
      });
    } finally {
      index.close();
    }
    if (req.by === "thread") {
      // archived threads keep their titles here (#36)
      const titles = new Map(
        (await listThreadsIndexed(store, { archived: "include" })).map((m) => [m.threadId, m.title]),
      );
      for (const r of report.rows) r.label = titles.get(r.key) ?? r.key;
    }
    return report;
  },
};
