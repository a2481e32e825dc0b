/**
 * A permission rule as it is stored in the data home's rules file and listed (`acp-threads permissions list`, the
 * editor's "Revoke permission rules…"): plain data, the reply of the engine's permission requests
 * (core/engine/requests-permissions.ts). How a rule reads and matches: core/acp/rule-text.ts, permission-rules.ts.
 */

/** allow (a remembered "Always allow"), ask or deny. */
export type RuleEffect = "allow" | "ask" | "deny";

/** A rule's scope that holds in every workspace. */
export const EVERYWHERE = "*";

export interface RememberedRule {
  /** Short stable id (`acp-threads permissions revoke ID`). */
  id: string;
  /** allow (a remembered "Always allow"), ask or deny. */
  effect: RuleEffect;
  /** An agent id, or "*" for every agent. */
  agentId: string;
  kind: string;
  /**
   * `execute`: the exact command line (`npm test`), or a prefix ending in ` *` (`npm run *`); file tools: an
   * absolute path or a glob. Never a bare wildcard.
   */
  key: string;
  /** The workspace folder the rule holds in (and below), or "*" for everywhere. */
  scope: string;
  createdAt: string;
}
