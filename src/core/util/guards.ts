/**
 * The small guards every reader of JSON nobody promised the shape of uses (agent updates and responses, Codex and
 * Claude Code transcripts, bug bundles, CLI flag values): one copy instead of one per module.
 */
export type Obj = Record<string, unknown>;

/** A plain JSON object (not null, not an array). */
export const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** The value when it is a string. */
export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** The value when it is a finite number. */
export const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** The variables of `env` that are set, as strings (what goes over the wire or to a child: memory only). */
export const definedEnv = (env: NodeJS.ProcessEnv): Record<string, string> =>
  Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));

/** The longest delay a Node timer keeps: one past it fires after 1 ms (a TimeoutOverflowWarning). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** `ms` as a timer's delay: one past a timer's range (about 24.8 days) waits that long at most, not 1 ms. */
export const timerMs = (ms: number): number => Math.min(ms, MAX_TIMER_MS);

/** A timer's delay a client may ask for: a whole number of milliseconds from 1 to MAX_TIMER_MS. */
export const isTimerMs = (v: unknown): v is number =>
  Number.isInteger(v) && (v as number) > 0 && (v as number) <= MAX_TIMER_MS;

/** A timeout of `seconds` (a flag's value) as a timer's delay: whole milliseconds, at least 1. */
export const secondsToTimerMs = (seconds: number): number => Math.max(1, Math.round(seconds * 1000));
