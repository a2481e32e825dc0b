/**
 * A thread started in the window's own in-process thread host (window-host.ts) with the run spec host-run.ts sends,
 * as the window-host suite and window-disk's own-host flow start one.
 */
import assert from "node:assert/strict";
import { configuredAgents } from "../../../src/vscode/agents";
import type { PermissionPolicy } from "../../../src/core/model/agent";
import { detachedRun } from "../../../src/vscode/host/host-run-spec";
import { type api, workspaceRoot } from "./helpers";

export type Hub = Awaited<ReturnType<typeof api>>["hub"];

/**
 * Starts a new thread of the fake agent with the spec host-run.ts sends, in the window's own host (else, `socket`,
 * in the user's socket host, started if none runs, as a window in `host` mode does): its id.
 */
export async function startIn(
  hub: Hub,
  prompt: string,
  permission: PermissionPolicy = "approve-reads",
  socket = false,
) {
  const agent = (await configuredAgents(hub.config, hub.registry)).find((a) => a.spec.id === "fake")?.spec;
  assert.ok(agent, "the fake agent configured");
  const run = await detachedRun(
    hub.config,
    { agent, cwd: workspaceRoot(), parts: [{ type: "text", text: prompt }], permission, stallMs: 0 },
    process.env,
    () => undefined,
  );
  const link = socket ? hub.hosted.link : hub.hosted.own;
  assert.ok(link, "the window has its own host's link");
  const conn = await link.connection(true);
  assert.ok(conn, "the window's host answers");
  const reply = await conn.request({ t: "run", run });
  assert.equal(reply.t, "started");
  return (reply as { threadId: string }).threadId;
}
