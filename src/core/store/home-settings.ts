/**
 * Settings of a data home that every process using it must agree on: `<home>/settings.json` (0600, written
 * whole and atomically). The editor writes them from its configuration; the CLI, which can run in any
 * terminal, reads them, so both sides of one home behave alike (say, how long finished exec runs are kept).
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { writeFileAtomic, writeFileAtomicAsync } from "./atomic-write";
import { homeLayout } from "./paths";

export interface HomeSettings {
  /** How long finished exec runs are kept, in minutes. */
  execTtlMinutes?: number;
  /** The ACP Registry to read (`acpThreads.registryUrl`); the CLI's --registry and ACP_THREADS_REGISTRY_URL win. */
  registryUrl?: string;
  /** Cap on the total size of protocol traffic files, in MB (`acpThreads.traffic.maxTotalMB`; 0 = no cap). */
  trafficMaxTotalMB?: number;
}

const positive = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v > 0;

/** The home's settings; a missing or unreadable file (or a bad value) reads as "not set". */
export function readHomeSettings(home: string): HomeSettings {
  try {
    return parsed(readFileSync(homeLayout(home).settingsFile, "utf8"));
  } catch {
    return {};
  }
}

/** `readHomeSettings` with the read on the thread pool (the extension host's thread never waits on the disk). */
export async function readHomeSettingsAsync(home: string): Promise<HomeSettings> {
  try {
    return parsed(await readFile(homeLayout(home).settingsFile, "utf8"));
  } catch {
    return {};
  }
}

function parsed(text: string): HomeSettings {
  const v = (JSON.parse(text) ?? {}) as Record<string, unknown>;
  return {
    ...(positive(v.execTtlMinutes) ? { execTtlMinutes: v.execTtlMinutes } : {}),
    ...(typeof v.registryUrl === "string" && v.registryUrl ? { registryUrl: v.registryUrl } : {}),
    ...(typeof v.trafficMaxTotalMB === "number" && v.trafficMaxTotalMB >= 0
      ? { trafficMaxTotalMB: v.trafficMaxTotalMB }
      : {}),
  };
}

/** Merges `patch` into the home's settings; writes only when something changed. Returns whether it wrote. */
export function writeHomeSettings(home: string, patch: HomeSettings): boolean {
  const text = mergedText(readHomeSettings(home), patch);
  if (text !== undefined) writeFileAtomic(homeLayout(home).settingsFile, text, { mode: 0o600 });
  return text !== undefined;
}

/** `writeHomeSettings` with every file call on the thread pool, for the extension host. */
export async function writeHomeSettingsAsync(home: string, patch: HomeSettings): Promise<boolean> {
  const text = mergedText(await readHomeSettingsAsync(home), patch);
  if (text !== undefined) await writeFileAtomicAsync(homeLayout(home).settingsFile, text, { mode: 0o600 });
  return text !== undefined;
}

/** The file's text with `patch` merged in, or undefined when nothing changes. */
function mergedText(current: HomeSettings, patch: HomeSettings): string | undefined {
  const next = { ...current, ...patch };
  return JSON.stringify(next) === JSON.stringify(current) ? undefined : JSON.stringify(next, null, 2) + "\n";
}
