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
