/**
 * One small JSON state file per run (`<execDir>/<id>.json`), written whole (tmp → fsync → rename, 0600) by the
 * run's owner and read by any process. The owner is the only writer, except that a `kill` from another process
 * may close out a run whose owner is gone.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from "node:fs";
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { AcpThreadsError } from "../errors";
import { renameReplacing } from "../platform/fs";
import { isAlive, processStartTicks } from "./proc";
import { removeRunLogs, removeRunLogsAsync } from "./run-log";
import type { RunInfo, RunState } from "./types";

const STATE_SUFFIX = ".json";

export function statePath(execDir: string, id: string): string {
  return join(execDir, `${id}${STATE_SUFFIX}`);
}

export function writeRunState(execDir: string, state: RunState): void {
  mkdirSync(execDir, { recursive: true, mode: 0o700 });
  const target = statePath(execDir, state.id);
  const tmp = `${target}.${process.pid}.tmp`;
  const fd = openSync(tmp, "w", 0o600);
  try {
    const data = Buffer.from(JSON.stringify(state) + "\n");
    let done = 0;
    while (done < data.length) done += writeSync(fd, data, done);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameReplacing(tmp, target);
}

/** Reads a state file; `undefined` when missing or unreadable (a torn or foreign file is skipped, not fatal). */
export function readRunState(execDir: string, id: string): RunState | undefined {
  let raw: string;
  try {
    raw = readFileSync(statePath(execDir, id), "utf8");
  } catch {
    return undefined;
  }
  return parseRunState(raw, id);
}

/** `readRunState` without a synchronous file call (the extension host's sweep). */
export async function readRunStateAsync(execDir: string, id: string): Promise<RunState | undefined> {
  const raw = await readFile(statePath(execDir, id), "utf8").catch(() => undefined);
  return raw === undefined ? undefined : parseRunState(raw, id);
}

function parseRunState(raw: string, id: string): RunState | undefined {
  try {
    const parsed = JSON.parse(raw) as RunState;
    return parsed && parsed.version === 1 && parsed.id === id ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export function listRunIds(execDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(execDir);
  } catch {
    return [];
  }
  return runIdsOf(names);
}

/** `listRunIds` without a synchronous file call. */
export async function listRunIdsAsync(execDir: string): Promise<string[]> {
  return runIdsOf(await readdir(execDir).catch(() => []));
}

const runIdsOf = (names: string[]) =>
  names.filter((n) => n.endsWith(STATE_SUFFIX)).map((n) => n.slice(0, -STATE_SUFFIX.length));

export function removeRun(execDir: string, id: string): void {
  rmSync(statePath(execDir, id), { force: true });
  removeRunLogs(execDir, id);
}

/** `removeRun` without a synchronous file call. */
export async function removeRunAsync(execDir: string, id: string): Promise<void> {
  await rm(statePath(execDir, id), { force: true });
  await removeRunLogsAsync(execDir, id);
}

/** True while the recorded process is the same live process (a recycled pid does not count). */
export function runProcessAlive(state: Pick<RunState, "pid" | "pidStartTicks">): boolean {
  if (!state.pid || !isAlive(state.pid)) return false;
  if (state.pidStartTicks === undefined) return true;
  const ticks = processStartTicks(state.pid);
  return ticks === undefined || ticks === state.pidStartTicks;
}

/** The state as readers see it: a running run whose process is gone is `lost`. */
export function toRunInfo(state: RunState, live: boolean): RunInfo {
  const lost = !live && state.status === "running" && !runProcessAlive(state);
  return { ...state, status: lost ? "lost" : state.status, live };
}

/** Finds a run by id or unique id prefix among `ids`. Throws a usage-friendly error otherwise. */
export function matchRunId(ids: string[], wanted: string): string {
  if (ids.includes(wanted)) return wanted;
  const matches = ids.filter((id) => id.startsWith(wanted));
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    throw new AcpThreadsError("usage", `run id '${wanted}' is ambiguous: ${matches.slice(0, 5).join(", ")}`);
  }
  throw new AcpThreadsError("not_found", `no exec run '${wanted}' (see 'acp-threads ps')`);
}
