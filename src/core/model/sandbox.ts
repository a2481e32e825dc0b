/**
 * What the user chose for an agent's OS sandbox (#34): CLI flags, editor settings, a custom agent's
 * `sandbox.writable`. Plain data: the front ends build it, the host's protocol carries it, and
 * sandbox/policy.ts joins it with the session's roots into a policy.
 */
export interface SandboxSettings {
  denyRead?: readonly string[];
  allowedHosts?: readonly string[];
  /** Extra writable paths (a custom agent entry's `sandbox.writable`). */
  writable?: readonly string[];
}
