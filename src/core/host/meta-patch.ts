/**
 * The metadata patch a client may ask of a thread the host holds (`patch`, protocol.ts): checked here, on the
 * host's side, before the host writes it through its own handle. Only a title (or null), bounded, on one line:
 * any other field, a longer or a multi-line title is refused (nothing is written).
 */
import { AcpThreadsError } from "../errors";
import { PATCH_TITLE_MAX, type HostMetaPatch } from "./protocol";

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

export function checkedPatch(raw: unknown): HostMetaPatch {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw refused("it is not an object");
  const keys = Object.keys(raw);
  const other = keys.filter((k) => k !== "title");
  if (other.length) throw refused(`only the title may be patched here, not ${other.slice(0, 3).join(", ")}`);
  if (!keys.length) throw refused("it changes nothing");
  const { title } = raw as { title: unknown };
  if (title === null) return { title: null };
  if (typeof title !== "string") throw refused("the title is not a string");
  if (title.length > PATCH_TITLE_MAX) throw refused(`the title is longer than ${PATCH_TITLE_MAX} characters`);
  if (CONTROL.test(title)) throw refused("the title holds control characters (a title is one line)");
  return { title };
}

const refused = (why: string) => new AcpThreadsError("usage", `the thread host refuses the patch: ${why}`);
