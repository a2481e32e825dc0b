/**
 * The panel header's pickers and the "who decides what needs permission" line, built from a live session: its
 * last config options and mode (events win over the session/new answer, so the picker never disagrees with the
 * agent after a change), one mode picker (the `mode` config option when the agent has one, else the legacy
 * `modes` list), and each option's description.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { activeMode, approvesItself, modeConfigOption, sessionModes } from "../core/acp/policy-mode";
import type { SessionInfo } from "../core/acp/runtime";
import type { RuntimeEvent } from "../core/model/events";
import type { PickerView } from "../webview/thread/protocol";

/** A window session (its session answer and events) or a hosted run (its state as the host pushed it, no events). */
export interface PickerSource {
  info?: Pick<SessionInfo, "modes" | "configOptions" | "policyMode">;
  events: readonly RuntimeEvent[];
}

function latest<T extends RuntimeEvent["type"]>(events: readonly RuntimeEvent[], type: T) {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.type === type) return e as Extract<RuntimeEvent, { type: T }>;
  }
  return undefined;
}

function selectOptions(o: acp.SessionConfigOption & { type: "select" }) {
  return o.options.flatMap((x) =>
    "value" in x
      ? [{ value: x.value, name: x.name, description: x.description ?? undefined }]
      : x.options.map((y) => ({ value: y.value, name: y.name, description: y.description ?? undefined })),
  );
}

/** A boolean config option shows as an On/Off picker; these are its choice values. */
const BOOLEAN_CHOICES = [
  { value: "true", name: "On" },
  { value: "false", name: "Off" },
];

const currentOptions = (live: PickerSource) =>
  latest(live.events, "config_options")?.options ?? live.info?.configOptions ?? [];

/** The value to send for a picker choice: a boolean option's "true"/"false" become booleans. */
export function configOptionValue(live: PickerSource, configId: string, value: string): string | boolean {
  const option = currentOptions(live).find((o) => o.id === configId);
  return option?.type === "boolean" && (value === "true" || value === "false") ? value === "true" : value;
}

export function pickersView(live: PickerSource): PickerView {
  const options = currentOptions(live);
  const modeEvent = latest(live.events, "mode");
  const infoModes = live.info?.modes;
  const modes = infoModes && modeEvent ? { ...infoModes, currentModeId: modeEvent.modeId } : infoModes;
  const hasModeOption = !!modeConfigOption(options);
  const view: PickerView = {
    modes:
      modes && !hasModeOption
        ? {
            currentModeId: modes.currentModeId,
            available: modes.availableModes.map((m) => ({
              id: m.id,
              name: m.name,
              description: m.description ?? undefined,
            })),
          }
        : null,
    configOptions: options.flatMap((o) =>
      o.type === "select"
        ? [
            {
              id: o.id,
              name: o.name,
              description: o.description ?? undefined,
              currentValue: o.currentValue,
              options: selectOptions(o),
            },
          ]
        : o.type === "boolean"
          ? [
              {
                id: o.id,
                name: o.name,
                description: o.description ?? undefined,
                currentValue: String(o.currentValue),
                options: BOOLEAN_CHOICES,
              },
            ]
          : [],
    ),
  };
  const active = activeMode(sessionModes(modes, options));
  if (active) {
    const switched = live.info?.policyMode;
    view.permissions = {
      mode: active.name,
      description: active.description ?? undefined,
      agentDecides: approvesItself(active.cls),
      switchedFrom: switched && !switched.error && switched.to.id === active.id ? switched.from.name : undefined,
    };
  }
  return view;
}
