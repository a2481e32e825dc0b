/** Puts a freshly opened session into the agent mode our permission policy needs (see policy-mode.ts). */
import type { Logger } from "../log";
import type { PermissionPolicy } from "../model/agent";
import { rpcErrorText } from "./agent-failure";
import { activeMode, modeForPolicy, sessionModes } from "./policy-mode";
import type { OpenedSession } from "./session-open";
import type * as acp from "@agentclientprotocol/sdk";

export interface ModeSetters {
  setMode(modeId: string): Promise<void>;
  setConfigOption(configId: string, value: string): Promise<acp.SessionConfigOption[]>;
  logger: Logger;
}

/**
 * When the policy asks (or denies) and the agent's current mode approves on its own, switches to the agent's
 * ask-before-acting mode and records the change in `policyMode`. A refused switch is logged and reported in
 * `policyMode.error`: the session stays usable, and the views say that the agent's mode decides.
 */
export async function followPolicy(
  opened: OpenedSession,
  policy: PermissionPolicy,
  set: ModeSetters,
): Promise<OpenedSession> {
  const modes = sessionModes(opened.modes, opened.configOptions);
  const target = modeForPolicy(policy, modes);
  const from = activeMode(modes);
  if (!modes || !target || !from) return opened;
  const change = { policy, from: { id: from.id, name: from.name }, to: { id: target.id, name: target.name } };
  try {
    let next: OpenedSession = opened;
    if (modes.source === "config" && modes.configId) {
      const configOptions = await set.setConfigOption(modes.configId, target.id);
      next = { ...next, configOptions };
    } else await set.setMode(target.id);
    if (next.modes) next = { ...next, modes: { ...next.modes, currentModeId: target.id } };
    return { ...next, policyMode: change };
  } catch (err) {
    set.logger.warn(`could not switch the agent to mode ${target.id} for policy ${policy}`, err);
    return { ...opened, policyMode: { ...change, error: rpcErrorText(err) } };
  }
}
