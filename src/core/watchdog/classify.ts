/**
 * Recognises rate limits and overload in what agents say when a model API refuses them: JSON-RPC errors
 * (codex-acp "exceeded retry limit, last status: 429 Too Many Requests", claude-agent-acp "API Error: 429
 * {…rate_limit_error…}"), error notices and stderr lines. Also reads how long to wait when they say so.
 */

import type { ThrottleKind } from "../model/watchdog";

export interface Throttle {
  kind: ThrottleKind;
  /** The part of the text that matched, for the notice. */
  match: string;
  /** How long the provider asked to wait, when the text says. */
  retryAfterMs?: number;
}

const RATE_LIMIT = [
  /\b429\b[^\n]{0,40}?too many requests/i,
  /too many requests/i,
  /(?:status|http|api error)[:\s]*429\b/i,
  /\brate[ _-]?limit(?:ed|_error| exceeded| reached)?\b/i,
  /\bRESOURCE_EXHAUSTED\b/,
  /\bquota (?:exceeded|exhausted)\b/i,
  /\busage limit (?:reached|exceeded)\b/i,
];
const OVERLOADED = [
  /\boverloaded(?:_error)?\b/i,
  /(?:status|http|api error)[:\s]*(?:529|503)\b/i,
  /\b503 service unavailable\b/i,
];

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, sec: 1000, second: 1000, seconds: 1000, m: 60_000 };
UNIT_MS.min = UNIT_MS.minute = UNIT_MS.minutes = 60_000;

function retryAfter(text: string): number | undefined {
  const m =
    /retry[- ]?after["':\s]+(\d+(?:\.\d+)?)\s*(ms|s|sec|seconds?|m|min|minutes?)?\b/i.exec(text) ??
    /try again in\s*(\d+(?:\.\d+)?)\s*(ms|s|sec|seconds?|m|min|minutes?)\b/i.exec(text);
  if (!m) return undefined;
  const unit = (m[2] ?? "s").toLowerCase();
  return Math.round(Number(m[1]) * (UNIT_MS[unit] ?? 1000));
}

/** The throttle a piece of agent output reports, if any. */
export function classifyThrottle(text: string): Throttle | undefined {
  if (!text) return undefined;
  for (const [kind, patterns] of [
    ["rate_limited", RATE_LIMIT],
    ["overloaded", OVERLOADED],
  ] as const) {
    for (const re of patterns) {
      const m = re.exec(text);
      if (m) {
        const ms = retryAfter(text);
        return { kind, match: m[0], ...(ms !== undefined ? { retryAfterMs: ms } : {}) };
      }
    }
  }
  return undefined;
}
