/**
 * Settings of a data home that every process using it must agree on: `<home>/settings.json` (0600, written
 * whole and atomically). The editor writes them from its configuration; the CLI, which can run in any
 * terminal, reads them, so both sides of one home behave alike (say, how long finished exec runs are kept).
 */
import { readFileSync } from "node:fs";
import { writeFileAtomic } from "./atomic-write";
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
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(homeLayout(home).settingsFile, "utf8"));
  } catch {
    return {};
  }
  const v = (raw ?? {}) as Record<string, unknown>;
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
  const current = readHomeSettings(home);
  const next = { ...current, ...patch };
  if (JSON.stringify(next) === JSON.stringify(current)) return false;
  writeFileAtomic(homeLayout(home).settingsFile, JSON.stringify(next, null, 2) + "\n", { mode: 0o600 });
  return true;
}
