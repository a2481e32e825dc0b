/**
 * A thread the window starts in the thread host (#35) is asked for with the runtime options of the window's own
 * sessions (src/vscode/host/host-run-spec.ts, no vscode module), from the same settings: the recall tools offered
 * only when acpThreads.recall.offerToAgents is on, traffic not recorded when acpThreads.recordTraffic is off, the
 * Node of acpThreads.nodePath for an agent the default Node does not fit.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { detachedRun, type HostRunConfig, type HostRunRequest } from "../../../src/vscode/host/host-run-spec";
import { hostRunConfig } from "../../fixtures/host/run-config";

const config = hostRunConfig;

const recallMcp = { command: "/electron", args: ["/ext/dist/cli.js", "mcp"], env: { ELECTRON_RUN_AS_NODE: "1" } };
const request: HostRunRequest = {
  agent: { id: "a", displayName: "A", command: "agent", args: [] },
  cwd: "/ws",
  parts: [{ type: "text", text: "hi" }],
  permission: "approve-reads",
  stallMs: 0,
  recallMcp,
};

test("the hosted run gets the window's recall tools and traffic recording from the same settings", async () => {
  const run = (c: Partial<HostRunConfig>) => detachedRun(config(c), request, {}, () => {});
  assert.deepEqual((await run({ recallOfferToAgents: true })).recallMcp, recallMcp);
  assert.equal((await run({ recallOfferToAgents: false })).recallMcp, undefined, "not offered: setting off");
  assert.equal((await run({ recordTraffic: true })).recordTraffic, undefined, "recorded: the host's default");
  assert.equal((await run({ recordTraffic: false })).recordTraffic, false);
});

test("a Best of N candidate goes with its worktree, unattended: automation origin, no other folders", async () => {
  const ref = { path: "/.ws.worktrees/ab12cd34", repo: "/ws", base: "0".repeat(40), createdAt: "2026-01-01T00:00:00Z" };
  const candidate: HostRunRequest = {
    ...request,
    cwd: ref.path,
    roots: ["/other"],
    preparedWorktree: { ref, cwd: ref.path },
    unattended: true,
  };
  const run = await detachedRun(config({}), candidate, {}, () => {});
  assert.deepEqual(run.preparedWorktree, { ref, cwd: ref.path });
  assert.equal(run.startedFrom, "automation", "started with nobody at the prompt (#36)");
  assert.equal(run.roots, undefined, "a worktree session reaches its worktree only");
  assert.equal(run.worktree, undefined, "not a new worktree the host makes");
  assert.equal((await detachedRun(config({}), request, {}, () => {})).startedFrom, "editor", "a panel's thread");
});

test("\"Run once\" asks the host for one prompt's run (once, not kept open); a session's run stays open", async () => {
  const once = await detachedRun(config({}), { ...request, once: true }, {}, () => {});
  assert.equal(once.once, true);
  assert.equal(once.keepOpen, undefined, "it ends after its prompt");
  const session = await detachedRun(config({}), request, {}, () => {});
  assert.equal(session.keepOpen, true);
  assert.equal(session.once, undefined);
});

test("acpThreads.nodePath goes with the run, as a window session's runtime gets it; unset: none", async () => {
  const run = (c: Partial<HostRunConfig>) => detachedRun(config(c), request, {}, () => {});
  assert.equal((await run({ nodePath: "/opt/node22/bin/node" })).nodePath, "/opt/node22/bin/node");
  assert.equal((await run({ nodePath: undefined })).nodePath, undefined);
  assert.equal((await run({ nodePath: "  " })).nodePath, undefined, "blank: not set");
});
