/**
 * The long day's second reading: three agents streaming at a model's pace (LONG_DAY_PACED_RATE updates a second
 * each, default 100 — a streamed answer is some 20–60 chunks a second) for LONG_DAY_PACED_SECONDS, with the same
 * mix of tool calls, terminals and reads as the day, each with its panel open. The day itself floods: its agents
 * send as fast as the host takes them, so it measures throughput and the longest task; this measures what a user
 * working next to three agents feels. Figures only.
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { monitorEventLoopDelay } from "node:perf_hooks";
import * as vscode from "vscode";
import { api, waitFor, workspaceRoot } from "../../test/host/suite/helpers";

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
export const PACED_RATE = num("LONG_DAY_PACED_RATE", 100);
export const PACED_SECONDS = num("LONG_DAY_PACED_SECONDS", 20);

/** Starts a session of the long-day agent with its panel open; the caller prompts it and stops it. */
export async function daySession(threadIds: string[]) {
  const { hub } = await api();
  const threadId = await vscode.commands.executeCommand<string>("acpThreads.spawn", {
    agentId: "day",
    task: "",
    mode: "session",
    cwd: workspaceRoot(),
  });
  threadIds.push(threadId);
  const s = hub.live.get(threadId)!;
  await waitFor("the session", () => s.status === "idle" && s.thread, 60_000);
  await vscode.commands.executeCommand("acpThreads.openThread", threadId);
  return { threadId, session: s, stop: () => hub.live.stop(threadId) };
}

/**
 * `mix`: the day's totals (updates, tools, terminals, reads), scaled to the paced turn. Returns the event-loop
 * delay p99 and max (ms) while the three paced turns ran.
 */
export async function pacedPhase(
  dir: string,
  mix: [number, number, number, number],
  threadIds: string[],
  profileFile?: string,
): Promise<{ p99: number; max: number; updates: number; seconds: number }> {
  const updates = Math.max(1, Math.round(PACED_RATE * PACED_SECONDS));
  const per = (n: number) => Math.round((n / mix[0]) * updates);
  const args = [updates, per(mix[1]), per(mix[2]), per(mix[3])];
  const sessions = await Promise.all([0, 1, 2].map(() => daySession(threadIds)));
  const profiler = profileFile ? new Session() : undefined;
  if (profiler) {
    profiler.connect();
    await profiler.post("Profiler.enable");
    await profiler.post("Profiler.setSamplingInterval", { interval: 500 });
    await profiler.post("Profiler.start");
  }
  const h = monitorEventLoopDelay({ resolution: 5 });
  const started = Date.now();
  h.enable();
  await Promise.all(sessions.map((s) => s.session.prompt(`work ${args.join(" ")} ${dir} ${PACED_RATE}`)));
  h.disable();
  if (profiler) {
    writeFileSync(profileFile!, JSON.stringify((await profiler.post("Profiler.stop")).profile));
    profiler.disconnect();
  }
  const seconds = (Date.now() - started) / 1000;
  for (const s of sessions) await s.stop();
  return { p99: h.percentile(99) / 1e6, max: h.max / 1e6, updates: updates * 3, seconds };
}
