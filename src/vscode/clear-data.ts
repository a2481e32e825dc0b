/**
 * "ACP Threads: Clear data…": the data home's size per category (threads, trash, traffic, ledger, recall index,
 * registry agents, runtimes, …) with a multi-select of what to clear, a confirmation, then the core's clearData
 * (a thread a live session holds is kept). The first choice is the garbage collection `acp-threads gc` does.
 * Also the periodic traffic cap (`acpThreads.traffic.maxTotalMB`): traffic of gone threads and the oldest over the
 * cap are removed at start and every half hour, asynchronously.
 */
import * as vscode from "vscode";
import type { Engine, EngineReplies } from "../core/engine/requests";
import { formatBytes } from "../core/retention/bytes";

type CategorySize = EngineReplies["retention.measure"][number];

const MB = 1024 * 1024;
const GC_EVERY_MS = 30 * 60_000;

export interface ClearChoice extends vscode.QuickPickItem {
  category: CategorySize["category"] | "gc";
  bytes: number;
}

/** The preview: one choice per category that holds something, sizes included; the gc pass first. */
export async function clearDataChoices(engine: Engine, trafficMaxMB: number): Promise<ClearChoice[]> {
  const [sizes, plan] = await Promise.all([
    engine.call({ op: "retention.measure" }),
    engine.call({ op: "retention.gc", trafficMaxBytes: trafficMaxMB * MB, dryRun: true }),
  ]);
  const gc: ClearChoice[] = plan.items.length
    ? [
        {
          category: "gc",
          bytes: plan.planned,
          label: "$(sparkle) Only what outlives its thread",
          description: formatBytes(plan.planned),
          detail: `${plan.items.length} items: traffic and ledger files of deleted threads, the trash older than 30 days, traffic over the cap`,
        },
      ]
    : [];
  return [...gc, ...sizes.filter((s) => s.files > 0).map(choiceOf)];
}

function choiceOf(s: CategorySize): ClearChoice {
  return {
    category: s.category,
    bytes: s.bytes,
    label: s.label,
    description: `${formatBytes(s.bytes)} · ${s.files} file${s.files === 1 ? "" : "s"}`,
  };
}

export async function clearDataCommand(engine: Engine, trafficMaxMB: number, refresh: () => void): Promise<void> {
  const choices = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: "Measuring ACP Threads data…" },
    () => clearDataChoices(engine, trafficMaxMB),
  );
  if (!choices.length) return void vscode.window.showInformationMessage("ACP Threads keeps no data yet.");
  const picked = await vscode.window.showQuickPick(choices, {
    title: "Clear ACP Threads data",
    placeHolder: "What to clear (sizes as of now)",
    canPickMany: true,
  });
  if (!picked?.length) return;
  const total = picked.reduce((n, c) => n + c.bytes, 0);
  const names = picked.map((c) => (c.category === "gc" ? "what outlives its thread" : c.category)).join(", ");
  const ok = await vscode.window.showWarningMessage(
    `Clear ${names} (${formatBytes(total)})? This cannot be undone. Threads a running session holds are kept.`,
    { modal: true },
    "Clear",
  );
  if (ok !== "Clear") return;
  const categories = picked.flatMap((c) => (c.category === "gc" ? [] : [c.category]));
  let freed = 0;
  const failed: string[] = [];
  let keptLive: string[] = [];
  if (picked.some((c) => c.category === "gc")) {
    const done = await engine.call({ op: "retention.gc", trafficMaxBytes: trafficMaxMB * MB });
    freed += done.bytes;
    failed.push(...done.failed.map((f) => f.path));
  }
  if (categories.length) {
    const done = await engine.call({ op: "retention.clear", categories });
    freed += done.bytes;
    failed.push(...done.failed.map((f) => f.path));
    keptLive = done.keptLive;
  }
  refresh();
  void vscode.window.showInformationMessage(clearedMessage(freed, total, keptLive.length, failed.length));
}

/**
 * What "Clear data" says it freed; less than the confirmation's size says why (#37: 332 KB asked, 52.7 KB
 * cleared, no reason given): threads a running session holds stay with their files, some items were in use.
 */
export function clearedMessage(freed: number, shown: number, keptLive: number, failed: number): string {
  const reasons = [
    keptLive ? `${keptLive} thread${keptLive === 1 ? "" : "s"} a running session holds stayed, with their files` : "",
    failed ? `${failed} item${failed === 1 ? "" : "s"} could not be removed (in use?)` : "",
  ].filter(Boolean);
  if (freed >= shown)
    return `Cleared ${formatBytes(freed)} of ACP Threads data.${reasons.map((r) => ` ${r}.`).join("")}`;
  const why = reasons.length ? reasons.join("; ") : "the rest was gone already, or is shared with what stays";
  return `Cleared ${formatBytes(freed)} of the ${formatBytes(shown)} shown: ${why}.`;
}

/** The traffic cap and the audit log's rotation, now and every half hour (async; errors only logged). */
export function scheduleTrafficCap(
  engine: Engine,
  maxMB: () => number,
  warn: (msg: string, err: unknown) => void,
): vscode.Disposable {
  const run = (): void => {
    // only traffic and the audit log: the trash is never purged by this pass
    engine
      .call({ op: "retention.gc", only: ["traffic", "audit"], trafficMaxBytes: maxMB() * MB })
      .catch((err: unknown) => warn("the traffic cap could not be applied", err));
  };
  const first = setTimeout(run, 10_000);
  const every = setInterval(run, GC_EVERY_MS);
  return new vscode.Disposable(() => {
    clearTimeout(first);
    clearInterval(every);
  });
}
