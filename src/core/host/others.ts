/**
 * The hosts of other versions (#35, an extension update): each version has its own host folder, socket and lock,
 * so a new version's clients start a new host for new sessions while the old one finishes its sessions and
 * leaves when idle. `otherHosts` finds the ones still running for a data home, for `host status` and the note
 * `run --detach` prints: their version, pid and, when they speak our protocol, how many sessions they still run.
 */
import { readdir } from "node:fs/promises";
import { liveWriterAsync } from "../platform/file-lock";
import { homeLayout } from "../platform/data-home";
import { connectHost } from "./client";
import { checkPrivateDir, hostPlace } from "./door";

/** A host folder's name is a version: nothing else (no path separator, no dot-dot) is looked at. */
export const VERSION_NAME = /^[0-9A-Za-z][0-9A-Za-z.+-]{0,63}$/;

export interface OtherHost {
  version: string;
  pid: number;
  /** Its sessions not yet ended; undefined when it speaks another host protocol (or did not answer). */
  sessions?: number;
}

export async function otherHosts(home: string, version: string, client: string): Promise<OtherHost[]> {
  const names = await readdir(homeLayout(home).hostDir).catch(() => [] as string[]);
  const found: OtherHost[] = [];
  for (const name of names.sort()) {
    if (name === version || !VERSION_NAME.test(name)) continue;
    const place = hostPlace(home, name);
    try {
      checkPrivateDir(place.dir); // never talk through a folder someone else could have planted
    } catch {
      continue;
    }
    const holder = await liveWriterAsync(place.hostLock);
    if (!holder?.pid) continue;
    found.push({ version: name, pid: holder.pid, sessions: await sessionsOf(home, place, client) });
  }
  return found;
}

async function sessionsOf(
  home: string,
  place: ReturnType<typeof hostPlace>,
  client: string,
): Promise<number | undefined> {
  const conn = await connectHost({ home, client, place }).catch(() => undefined);
  if (!conn) return undefined;
  try {
    const r = await conn.request({ t: "status" });
    return r.t === "status" ? r.status.sessions.filter((s) => s.state !== "ended").length : undefined;
  } catch {
    return undefined;
  } finally {
    conn.close();
  }
}

/** "a thread host of version 0.1.0 (pid 12) still runs 2 session(s); it leaves once it has no session and no client" */
export function describeOther(h: OtherHost): string {
  const what = h.sessions === undefined ? "still runs" : `still runs ${h.sessions} session(s)`;
  return `a thread host of version ${h.version} (pid ${h.pid}) ${what}; it leaves once it has no session and no client`;
}
