/**
 * Permission policy: what to answer a `session/request_permission` without asking anyone.
 *
 * - approve-all: pick an allow option. deny-all: pick a reject option.
 * - approve-reads (default): read/search/think kinds pass, everything else asks.
 * - ask: always ask. When nobody can be asked, "ask" becomes a denial.
 * Options are chosen by `kind`, never by id (ids differ per agent: `approved`, `allow`, `proceed_once`, ...),
 * and a "no" is the agent's `reject_*` option: `cancelled` means "the turn was cancelled" to agents.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { PermissionPolicy } from "../model/agent";

export { DEFAULT_PERMISSION_POLICY } from "../model/agent";

export { PermissionStore, type RememberedRule, type AuditRecord } from "./permission-store";

/** The extra option the engine offers next to an agent's "Always allow": remember the rule in every workspace. */
export const ALWAYS_EVERYWHERE_OPTION_ID = "acp-threads:allow-always-everywhere";
/** The extra option for a command: remember it widened (`npm run *` for `npm run build`) in this workspace. */
export const ALWAYS_WIDER_OPTION_ID = "acp-threads:allow-always-wider";

const READ_KINDS: ReadonlySet<string> = new Set(["read", "search", "think"]);

export type PolicyVerdict = "allow" | "deny" | "ask";

export function policyVerdict(policy: PermissionPolicy, kind: string | null | undefined): PolicyVerdict {
  switch (policy) {
    case "approve-all":
      return "allow";
    case "deny-all":
      return "deny";
    case "approve-reads":
      return READ_KINDS.has(kind ?? "other") ? "allow" : "ask";
    case "ask":
      return "ask";
  }
}

/** The option to answer "yes" (once unless `always`) or "no" with, by kind; undefined if the agent offers none. */
export function pickOption(
  options: readonly acp.PermissionOption[],
  answer: "allow" | "reject",
  always = false,
): acp.PermissionOption | undefined {
  const order: acp.PermissionOptionKind[] =
    answer === "allow"
      ? always
        ? ["allow_always", "allow_once"]
        : ["allow_once", "allow_always"]
      : always
        ? ["reject_always", "reject_once"]
        : ["reject_once", "reject_always"];
  for (const kind of order) {
    const option = options.find((o) => o.kind === kind);
    if (option) return option;
  }
  return undefined;
}

/** The path a permission is about (keys remembered file decisions); undefined when none is named. */
export function permissionPath(toolCall: acp.ToolCallUpdate): string | undefined {
  const location = toolCall.locations?.find((l) => typeof l.path === "string");
  if (location) return location.path;
  const diff = toolCall.content?.find((c) => c.type === "diff") as { path?: string } | undefined;
  return diff?.path;
}

/** Paths an approved edit covers (locations and diff targets), so the following write is not asked again. */
export function editPaths(toolCall: acp.ToolCallUpdate): string[] {
  const paths = new Set<string>();
  for (const l of toolCall.locations ?? []) if (typeof l.path === "string") paths.add(l.path);
  for (const c of toolCall.content ?? []) if (c.type === "diff" && typeof c.path === "string") paths.add(c.path);
  return [...paths];
}
