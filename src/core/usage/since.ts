/** `--since` and the Usage view's ranges as a point in time. */
import { AcpThreadsError } from "../errors";

/**
 * `--since`: a duration back from now (`30m`, `24h`, `7d`, `2w`), `today`, or a local date / ISO time
 * (`2026-05-01`, `2026-05-01T09:00`). Returns milliseconds since the epoch.
 */
export function parseSince(text: string, now: number = Date.now()): number {
  const t = text.trim();
  const m = /^(\d+(?:\.\d+)?)\s*(m|min|h|d|w)$/i.exec(t);
  if (m) {
    const unit = { m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 }[m[2]!.toLowerCase() as "m"];
    return now - Number(m[1]) * unit;
  }
  if (t === "today") {
    const d = new Date(now);
    return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  }
  const date = /^(\d{4})-(\d\d)-(\d\d)$/.exec(t);
  const ms = date ? new Date(Number(date[1]), Number(date[2]) - 1, Number(date[3])).getTime() : Date.parse(t);
  if (Number.isNaN(ms))
    throw new AcpThreadsError("usage", `--since '${text}' is not a duration (30m, 24h, 7d, 2w), 'today' or a date`);
  return ms;
}
