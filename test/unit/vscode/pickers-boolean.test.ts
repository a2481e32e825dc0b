// Boolean config options (`type: "boolean"`, advertised with `session.configOptions.boolean`) show as an On/Off
// picker, and the picker's choice goes back to the agent as a boolean.
import assert from "node:assert/strict";
import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import { test } from "node:test";
import { clientInitializeParams } from "../../../src/core/acp/initialize";
import type { RuntimeEvent } from "../../../src/core/model/events";
import { configOptionValue, pickersView } from "../../../src/vscode/pickers-view";

const OPTIONS = [
  { id: "fast", name: "Fast mode", description: "Fewer checks", type: "boolean", currentValue: false },
  {
    id: "model",
    name: "Model",
    type: "select",
    currentValue: "a",
    options: [
      { value: "a", name: "A" },
      { value: "b", name: "B" },
    ],
  },
] as SessionConfigOption[];

test("the client advertises boolean config options", () => {
  assert.deepEqual(clientInitializeParams().clientCapabilities?.session?.configOptions, { boolean: {} });
});

test("a boolean config option is an On/Off picker whose choice is sent as a boolean", () => {
  const events: RuntimeEvent[] = [{ type: "config_options", options: OPTIONS } as RuntimeEvent];
  const view = pickersView({ events });
  assert.deepEqual(view.configOptions?.[0], {
    id: "fast",
    name: "Fast mode",
    description: "Fewer checks",
    currentValue: "false",
    options: [
      { value: "true", name: "On" },
      { value: "false", name: "Off" },
    ],
  });
  assert.equal(configOptionValue({ events }, "fast", "true"), true);
  assert.equal(configOptionValue({ events }, "fast", "false"), false);
  assert.equal(configOptionValue({ events }, "model", "b"), "b");
  assert.equal(configOptionValue({ events }, "gone", "true"), "true");
});
