/**
 * The engine requests of the data home's retention (core/engine/requests.ts): its size per category, the garbage
 * collection (planned here and applied at once: a caller never hands over the paths to remove) and "Clear data".
 */
import { clearData } from "../retention/clear";
import { applyGc, planGc } from "../retention/gc";
import { measureHome } from "../retention/measure";
import type { Handlers } from "./serve-types";

export const retentionOps: Handlers<"retention.measure" | "retention.gc" | "retention.clear"> = {
  "retention.measure": ({ store }) => measureHome(store.home),
  "retention.gc": async ({ store }, req) => {
    const plan = await planGc(store.home, {
      ...(req.trashDays !== undefined ? { trashDays: req.trashDays } : {}),
      ...(req.trafficMaxBytes !== undefined ? { trafficMaxBytes: req.trafficMaxBytes } : {}),
      ...(req.only ? { only: req.only } : {}),
    });
    const done = req.dryRun ? { bytes: 0, failed: [] } : await applyGc(plan);
    return { items: plan.items, planned: plan.bytes, bytes: done.bytes, failed: done.failed };
  },
  "retention.clear": async ({ store }, req) => {
    const r = await clearData(store.home, req.categories);
    return { bytes: r.bytes, keptLive: r.keptLive, failed: r.failed };
  },
};
