/**
 * The metadata patch a client may ask of a thread the host holds (`patch`, protocol.ts): checked here, on the
 * host's side, before the host writes it through its own handle. A title (or null), bounded, on one line; and the
 * links a fork or a handoff adds to its source (`forks`, `handedOffTo`: the same fields the window's writers patch),
 * each a bounded list of thread ids. Any other field is refused, and so is the whole patch when one part is: nothing
 * is written. A link must name a stored thread whose own origin is a fork / handoff of this thread (checkLinks):
 * a client cannot plant links to threads that do not descend from it.
 */
import { AcpThreadsError } from "../errors";
import type { ThreadMetadata } from "../model/metadata";
import type { MetadataPatch } from "../model/records";
import { isThreadId } from "../model/thread-id";
import { PATCH_LINKS_MAX, PATCH_TITLE_MAX, type HostMetaPatch } from "./protocol";

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The link fields and the origin each linked thread must have. */
const LINKS = { forks: "fork", handedOffTo: "handoff" } as const;
type LinkField = keyof typeof LINKS;
const FIELDS: ReadonlySet<string> = new Set(["title", ...Object.keys(LINKS)]);

export function checkedPatch(raw: unknown): HostMetaPatch {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw refused("it is not an object");
  const keys = Object.keys(raw);
  const other = keys.filter((k) => !FIELDS.has(k));
  if (other.length)
    throw refused(`only the title, forks and handedOffTo may be patched here, not ${other.slice(0, 3).join(", ")}`);
  if (!keys.length) throw refused("it changes nothing");
  const patch: HostMetaPatch = {};
  const value = raw as Record<string, unknown>;
  for (const key of keys)
    if (key === "title") patch.title = checkedTitle(value.title);
    else patch[key as LinkField] = checkedIds(key as LinkField, value[key]);
  return patch;
}

function checkedTitle(title: unknown): string | null {
  if (title === null) return null;
  if (typeof title !== "string") throw refused("the title is not a string");
  if (title.length > PATCH_TITLE_MAX) throw refused(`the title is longer than ${PATCH_TITLE_MAX} characters`);
  if (CONTROL.test(title)) throw refused("the title holds control characters (a title is one line)");
  return title;
}

function checkedIds(field: LinkField, ids: unknown): string[] {
  if (!Array.isArray(ids)) throw refused(`${field} is not a list`);
  if (!ids.length) throw refused(`${field} names no thread`);
  if (ids.length > PATCH_LINKS_MAX) throw refused(`${field} names more than ${PATCH_LINKS_MAX} threads`);
  const bad = ids.find((id) => typeof id !== "string" || !isThreadId(id));
  if (bad !== undefined) throw refused(`${field}: ${JSON.stringify(bad).slice(0, 60)} is not a thread id`);
  return [...new Set(ids as string[])];
}

/**
 * Refuses the whole patch unless each thread it links names `threadId` (the held thread) as its fork source /
 * handoff origin in its stored metadata (`read`: undefined when there is no such thread).
 */
export async function checkLinks(
  threadId: string,
  patch: HostMetaPatch,
  read: (threadId: string) => Promise<Pick<ThreadMetadata, "origin"> | undefined>,
): Promise<void> {
  for (const field of Object.keys(LINKS) as LinkField[])
    for (const id of patch[field] ?? []) {
      const origin = (await read(id).catch(() => undefined))?.origin;
      if (origin?.kind !== LINKS[field] || origin.source !== threadId)
        throw refused(`thread ${id} is not a ${LINKS[field]} of thread ${threadId}`);
    }
}

/**
 * The checked links as the metadata patch that writes them onto `current` (the held thread's metadata as it is
 * now): appended to its lists, those it lists already left out; undefined when nothing is new.
 */
export function appendedLinks(current: ThreadMetadata, patch: HostMetaPatch): MetadataPatch | undefined {
  const out: MetadataPatch = {};
  for (const field of Object.keys(LINKS) as LinkField[]) {
    const fresh = (patch[field] ?? []).filter((id) => !current[field].includes(id));
    if (fresh.length) out[field] = [...current[field], ...fresh];
  }
  return Object.keys(out).length ? out : undefined;
}

const refused = (why: string) => new AcpThreadsError("usage", `the thread host refuses the patch: ${why}`);
