/**
 * How usage figures are written for people (CLI table, status bar, Usage view): compact token counts and
 * costs in the agent's own currency. Shared so every surface says the same thing.
 */
import { AcpThreadsError } from "../errors";
import type { UsageCost } from "./usage-query";

/** 950 → "950", 12_345 → "12.3k", 2_500_000 → "2.5M". */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0).replace(/\.0$/, "")}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, "")}M`;
}

/** "$0.19", "€1.20", "12.5 credits"; small amounts keep enough digits to be non-zero. */
export function formatCost(c: UsageCost): string {
  const digits = c.amount !== 0 && Math.abs(c.amount) < 0.01 ? 4 : 2;
  const value = c.amount.toFixed(digits);
  const symbol = ({ USD: "$", EUR: "€", GBP: "£" } as Record<string, string>)[c.currency.toUpperCase()];
  return symbol ? `${symbol}${value}` : `${value} ${c.currency}`;
}

export function formatCosts(costs: readonly UsageCost[]): string {
  return costs.length ? costs.map(formatCost).join(" + ") : "";
}

/** Context fill as "7.3k/200k (4%)". */
export function formatContext(used: number | null, size: number | null): string {
  if (used === null) return "";
  if (!size) return formatTokens(used);
  return `${formatTokens(used)}/${formatTokens(size)} (${Math.round((used / size) * 100)}%)`;
}

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
