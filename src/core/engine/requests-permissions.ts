/**
 * The engine requests of the permission rules (#33, #35 item 7): the data home's one rules file
 * (`permissions.json`) that every window and `acp-threads permissions` share, listed, added to and revoked from,
 * and the decision the permission gate would make now (`acp-threads permissions check`). Joined into the engine's
 * union in requests.ts; served by serve-permissions.ts.
 *
 * Trust: a rule is added as its parts (effect, kind, pattern), parsed and checked by the engine with the same code
 * the editor checks the typed text with (core/acp/rule-text.ts), so the rule saved is the rule the user saw; its
 * scope is `*` (everywhere) or an absolute workspace folder. A revoke names rule ids the engine lists, all or none.
 * A workspace's own rules (`.acp-threads/permissions.json`, tighten only) are read, never written here.
 */
import type { PermissionPolicy } from "../model/agent";
import type { RememberedRule, RuleEffect } from "../model/permission-rule";

export type PermissionsRequest =
  /** Every rule of the data home, as the rules file says now (an unreadable file is an error, never "no rules"). */
  | { op: "permissions.list" }
  /**
   * Adds a rule: `effect` on `kind` `pattern` (checked as `allow execute "npm test"` is: no bare wildcard), for
   * agent `agentId` (`*`: every agent), in `scope` (`*`: everywhere, or an absolute workspace folder). An equal rule
   * already there is returned instead.
   */
  | { op: "permissions.add"; effect: RuleEffect; kind: string; pattern: string; agentId: string; scope: string }
  /** Forgets the rules with these ids: all or none (an id the rules file does not list is a `not_found` error). */
  | { op: "permissions.revoke"; ids: string[] }
  /** Forgets every rule. */
  | { op: "permissions.clear" }
  /**
   * The decision the gate would make now for `kind` on `target` (a command line for `execute`, else a path:
   * relative to `cwd`), asked by `agentId` (`*`: any) in a session of `policy` whose workspace is `cwd`.
   */
  | { op: "permissions.check"; kind: string; target: string; agentId: string; policy: PermissionPolicy; cwd: string };

export interface PermissionsReplies {
  /** `file`: the rules file (absent: the rules are in memory). */
  "permissions.list": { rules: RememberedRule[]; file?: string };
  "permissions.add": RememberedRule;
  /** The rules removed. */
  "permissions.revoke": RememberedRule[];
  "permissions.clear": RememberedRule[];
  /** `rule`: the readable rule that decided (null: the policy did); `outside`: the paths outside the workspace. */
  "permissions.check": {
    decision: "allow" | "deny" | "ask";
    rule: string | null;
    reason: string;
    outside: string[];
  };
}
