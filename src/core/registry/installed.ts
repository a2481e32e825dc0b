/**
 * `<data home>/agents/installed.json`: the agents installed from the registry, one record per id. Every change
 * is a read-modify-write under the file's lock (store/file-lock) and lands atomically (tmp → fsync → rename).
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { AcpThreadsError } from "../errors";
import type { AgentSpec } from "../model/agent";
import { writeFileAtomic } from "../store/atomic-write";
import { acquireLock } from "../store/file-lock";
import { agentsLayout } from "./layout";
import type { InstalledAgent } from "./types";
import { installedAgentSpec } from "./installed-spec";
export { installedAgentSpec };

interface InstalledFile {
  version: 1;
  agents: InstalledAgent[];
}

function read(file: string): InstalledAgent[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    return none(err);
  }
  return agentsIn(file, text);
}

async function readAsync(file: string): Promise<InstalledAgent[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    return none(err);
  }
  return agentsIn(file, text);
}

/** No list when the file does not exist (nothing installed yet); any other failure is the caller's. */
function none(err: unknown): InstalledAgent[] {
  if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
  throw err;
}

function agentsIn(file: string, text: string): InstalledAgent[] {
  try {
    const parsed = JSON.parse(text) as InstalledFile;
    return Array.isArray(parsed.agents) ? parsed.agents : [];
  } catch {
    throw new AcpThreadsError("corrupt", `${file} is not valid JSON; fix or delete it to reinstall the agents`);
  }
}

export function listInstalled(dataHome: string): InstalledAgent[] {
  return read(agentsLayout(dataHome).installedFile);
}

/** `listInstalled` off the caller's thread (the extension host's lists: vscode/registry/registry-service.ts). */
export function listInstalledAsync(dataHome: string): Promise<InstalledAgent[]> {
  return readAsync(agentsLayout(dataHome).installedFile);
}

export function findInstalled(dataHome: string, id: string): InstalledAgent | undefined {
  return listInstalled(dataHome).find((a) => a.id === id);
}

/** Applies `change` to the list under the lock; returns what `change` returned. */
export function updateInstalled<T>(dataHome: string, change: (agents: InstalledAgent[]) => T): T {
  const file = agentsLayout(dataHome).installedFile;
  const release = acquireLock(file, { label: "agent install" });
  try {
    const agents = read(file);
    const result = change(agents);
    agents.sort((a, b) => a.id.localeCompare(b.id));
    writeFileAtomic(file, `${JSON.stringify({ version: 1, agents } satisfies InstalledFile, null, 2)}\n`);
    return result;
  } finally {
    release();
  }
}

/** The spec of the agent installed as `id` in `dataHome`, or undefined (what `resolveAgent` asks), off the thread. */
export async function installedSpecForAsync(dataHome: string, id: string): Promise<AgentSpec | undefined> {
  const found = (await listInstalledAsync(dataHome)).find((a) => a.id === id);
  return found ? installedAgentSpec(found) : undefined;
}
