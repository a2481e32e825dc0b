/**
 * Who decides what needs permission: the agent's own mode (claude-agent-acp's "Auto", codex-acp's "Auto review",
 * gemini's "yolo") or our permission policy. An agent in an auto-approving mode never sends
 * `session/request_permission` for what it approves itself, so a policy of `ask` would be a promise we cannot keep.
 * At session start we pick the agent's ask-before-acting mode when the policy asks (or denies), and every view can
 * say which mode is active and whether it approves on its own.
 *
 * Modes come two ways: the `mode` session config option (category "mode", preferred: it is what agents keep
 * current) and the legacy `modes` list. Both name the same modes in today's adapters.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { PermissionPolicy } from "../model/agent";

/**
 * What a mode does with permissions:
 * - `asks`: asks before edits and commands (claude "Manual"/default, codex "Read-only", gemini default);
 * - `plan`: plans without acting (asks before acting);
 * - `edits`: applies file edits itself, asks for the rest (claude "Accept edits", codex "Workspace access", gemini autoEdit);
 * - `auto`: decides itself what needs asking (claude "Auto", codex "Auto review");
 * - `all`: approves everything (claude "Bypass permissions", codex "Full access", gemini yolo);
 * - `unknown`: nothing we recognise (an agent's own vocabulary).
 */
export type ModeClass = "asks" | "plan" | "edits" | "auto" | "all" | "unknown";

export interface ModeView {
  id: string;
  name: string;
  description?: string | null;
}

const BY_ID: Record<string, ModeClass> = {
  default: "asks",
  manual: "asks",
  ask: "asks",
  "read-only": "asks",
  readonly: "asks",
  untrusted: "asks",
  "on-request": "asks",
  plan: "plan",
  acceptedits: "edits",
  autoedit: "edits",
  "auto-edit": "edits",
  "workspace-write": "edits",
  auto: "auto",
  agent: "auto",
  "auto-review": "auto",
  bypasspermissions: "all",
  "full-access": "all",
  "agent-full-access": "all",
  yolo: "all",
  dontask: "asks", // Claude Code's "Don't ask" denies what is not pre-approved: nothing is approved behind our back
};

/** Classifies a mode by its id, else by the words of its name and description. */
export function classifyMode(mode: ModeView): ModeClass {
  const byId = BY_ID[mode.id.toLowerCase()];
  if (byId) return byId;
  const text = `${mode.name} ${mode.description ?? ""}`.toLowerCase();
  if (/bypass|full access|unrestricted|yolo|accepts all|never ask/.test(text)) return "all";
  if (/auto[- ]?review|handles permission|decides|only ask for .*unsafe/.test(text)) return "auto";
  if (/accept(s)? (all )?(file )?edits|edit (workspace )?files;/.test(text)) return "edits";
  if (/\bplan\b/.test(text)) return "plan";
  if (/always ask|requires approval|ask before|read-only|manual/.test(text)) return "asks";
  return "unknown";
}

/** True when the agent acts without asking us for some edits or commands in this mode. */
export function approvesItself(cls: ModeClass): boolean {
  return cls === "edits" || cls === "auto" || cls === "all";
}

/** The modes of a session and which is current: the `mode` config option when there is one, else `modes`. */
export interface SessionModes {
  source: "config" | "modes";
  /** The config option's id (source "config"). */
  configId?: string;
  currentId: string;
  available: ModeView[];
}

/** The config option that holds the session's mode (category "mode", or id "mode"), if any. */
export function modeConfigOption(options: acp.SessionConfigOption[] | null | undefined) {
  const selects = (options ?? []).filter((o) => o.type === "select");
  return selects.find((o) => o.category === "mode") ?? selects.find((o) => o.id === "mode");
}

/** Flattens a select option's values (grouped or not) into modes. */
function selectValues(option: acp.SessionConfigOption & { type: "select" }): ModeView[] {
  return option.options.flatMap((x) =>
    "value" in x
      ? [{ id: x.value, name: x.name, description: x.description }]
      : x.options.map((y) => ({ id: y.value, name: y.name, description: y.description })),
  );
}

export function sessionModes(
  modes: acp.SessionModeState | null | undefined,
  configOptions: acp.SessionConfigOption[] | null | undefined,
): SessionModes | null {
  const option = modeConfigOption(configOptions);
  if (option && option.type === "select")
    return { source: "config", configId: option.id, currentId: option.currentValue, available: selectValues(option) };
  if (modes?.availableModes.length)
    return {
      source: "modes",
      currentId: modes.currentModeId,
      available: modes.availableModes.map((m) => ({ id: m.id, name: m.name, description: m.description })),
    };
  return null;
}

/** The active mode with its class, or null when the agent has no modes. */
export function activeMode(m: SessionModes | null): (ModeView & { cls: ModeClass }) | null {
  const mode = m?.available.find((x) => x.id === m.currentId) ?? (m ? { id: m.currentId, name: m.currentId } : null);
  return mode ? { ...mode, cls: classifyMode(mode) } : null;
}

/**
 * The mode to switch to so that the agent asks and our policy decides: for `ask`, `approve-reads` and `deny-all`
 * the agent's ask-before-acting mode when the current one approves on its own; null when nothing needs to change
 * (`approve-all` leaves the agent's choice alone, a mode we do not recognise is left alone too).
 */
export function modeForPolicy(policy: PermissionPolicy, m: SessionModes | null): ModeView | null {
  if (!m || policy === "approve-all") return null;
  const current = activeMode(m);
  if (!current || !approvesItself(current.cls)) return null;
  return m.available.find((x) => classifyMode(x) === "asks") ?? null;
}

/** One sentence for the CLI and logs about a policy-driven mode switch (or its refusal), else null. */
export function policyModeNote(
  agentName: string,
  change: { policy: string; from: { name: string }; to: { name: string }; error?: string } | undefined,
): string | null {
  if (!change) return null;
  return change.error
    ? `${agentName} stays in its mode "${change.from.name}", which approves some actions itself (switching to "${change.to.name}" for the permission policy ${change.policy} failed: ${change.error})`
    : `${agentName} started in mode "${change.from.name}", which approves actions itself; switched to "${change.to.name}" so that the permission policy ${change.policy} decides`;
}
