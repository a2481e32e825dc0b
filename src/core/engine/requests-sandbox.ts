/**
 * The engine requests of the OS sandbox's reports (#34, #35 item 7): whether and how this machine sandboxes (doctor,
 * the window's doctor row, the Best of N wizard's offer), and the egress allow-list checked the way a sandboxed
 * session will read it (`--sandbox-hosts`: a bad entry is the usage error before anything is probed or started).
 * Joined into the engine's union in requests.ts; served by serve-sandbox.ts.
 *
 * Trust: these only read. The probe runs the tool the engine finds with its own environment (`localEngine({ env })`):
 * a request names no program, path or PATH to probe with, so a client over the socket cannot have the engine run a
 * program of its choosing. Nothing here starts, changes or switches off a session's sandbox, and the allow-list a
 * session runs with is read again by the sandbox itself when it is prepared (core/sandbox/policy.ts, plan.ts).
 */
import type { HostRule, SandboxReport } from "../model/sandbox";

export type SandboxRequest =
  /** This machine's sandbox: the tool (and what seccomp blocks), or why there is none and what to install. */
  | { op: "sandbox.availability" }
  /** The egress allow-list checked (the first bad entry is a usage error naming it); duplicates dropped. */
  | { op: "sandbox.hosts"; hosts: string[] };

export interface SandboxReplies {
  "sandbox.availability": SandboxReport;
  "sandbox.hosts": { rules: HostRule[] };
}
