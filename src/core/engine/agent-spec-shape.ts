/**
 * The shape checks of the agents area's requests (serve.ts): kept apart from its handlers (serve-agents.ts), which
 * bring the agent runtime and the ACP SDK and are loaded on the area's first request (serve-lazy.ts).
 */
const isStrings = (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === "string");
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const isEnv = (v: unknown) => isObject(v) && isStrings(Object.values(v));

/** An agent spec: {id, displayName, command, args, env?}, all strings. */
export function isAgentSpec(v: unknown): boolean {
  return (
    isObject(v) &&
    typeof v.id === "string" &&
    typeof v.displayName === "string" &&
    typeof v.command === "string" &&
    isStrings(v.args) &&
    (v.env === undefined || isEnv(v.env))
  );
}

/** `agents.doctor`'s `custom`: agents by id, each {command, args?, env?} of strings. */
export function isDoctorAgents(v: unknown): boolean {
  return (
    isObject(v) &&
    Object.values(v).every(
      (a) =>
        isObject(a) &&
        typeof a.command === "string" &&
        (a.args === undefined || isStrings(a.args)) &&
        (a.env === undefined || isEnv(a.env)),
    )
  );
}
