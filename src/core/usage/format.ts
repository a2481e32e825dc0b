/**
 * How usage figures are written for people (CLI table, status bar, Usage view): compact token counts and
 * costs in the agent's own currency. Shared so every surface says the same thing; pure (the Usage webview
 * bundles it too).
 */
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
