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

/** The OS sandbox tool this machine has: bubblewrap on Linux, Seatbelt (`sandbox-exec`) on macOS. */
export type SandboxTool = { kind: "bwrap"; path: string } | { kind: "seatbelt"; path: string };

/**
 * What the engine says of this machine's sandbox (`sandbox.availability`): its tool and, with bubblewrap, what the
 * seccomp filter blocks here (or why there is none); or why nothing can be sandboxed here (what to install).
 */
export type SandboxReport =
  { available: true; tool: SandboxTool; seccomp?: string } | { available: false; problem: string };

/**
 * One entry of the egress allow-list as the engine reads it (core/sandbox/hosts.ts): lower case, no brackets, no
 * trailing dot; for a suffix pattern (`*.example.com`) the part after `*.`.
 */
export interface HostRule {
  host: string;
  suffix: boolean;
  /** Undefined: any port. */
  port?: number;
}
