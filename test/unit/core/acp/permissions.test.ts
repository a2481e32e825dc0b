import assert from "node:assert/strict";
import { methods, type PermissionOption } from "@agentclientprotocol/sdk";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { pickOption, policyVerdict } from "../../../../src/core/acp/permission-policy";
import type { PermissionDecision as PermissionEvent } from "../../../../src/core/model/events";
import type { PermissionAsker } from "../../../../src/core/ports";
import { collect, outputText, startFake, type TurnContext } from "../../../fixtures/fake-agents/in-process";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const OPTIONS: PermissionOption[] = [
  { optionId: "approved", name: "Yes", kind: "allow_once" },
  { optionId: "always", name: "Always", kind: "allow_always" },
  { optionId: "abort", name: "No", kind: "reject_once" },
];

const withTmp = <T>(fn: (dir: string) => Promise<T>) => withTmpDir("acp-perm-", fn);

/** A turn that asks permission for a tool of `kind` on `path` (in the workspace) and reports the outcome as text. */
function asking(kind: string, path = "file.txt") {
  return async ({ client, sessionId, say }: TurnContext) => {
    const res = await client.request(methods.client.session.requestPermission, {
      sessionId,
      toolCall: { toolCallId: `tc-${kind}`, title: `${kind} it`, kind: kind as "edit", locations: [{ path }] },
      options: OPTIONS,
    });
    await say(res.outcome.outcome === "selected" ? res.outcome.optionId : "cancelled");
    return "end_turn" as const;
  };
}

const permissionEvents = (events: Awaited<ReturnType<typeof collect>>) =>
  events.flatMap((e) => (e.type === "permission" ? [e.decision as PermissionEvent] : []));

test("options are picked by kind, and a no is the reject option", () => {
  const shuffled = [OPTIONS[2], OPTIONS[1], OPTIONS[0]];
  assert.equal(pickOption(shuffled, "allow")?.optionId, "approved");
  assert.equal(pickOption(shuffled, "allow", true)?.optionId, "always");
  assert.equal(pickOption(shuffled, "reject")?.optionId, "abort");
  assert.equal(pickOption([OPTIONS[0]], "reject"), undefined);
});

test("approve-reads lets read, search and think pass and asks for the rest", () => {
  for (const kind of ["read", "search", "think"]) assert.equal(policyVerdict("approve-reads", kind), "allow");
  for (const kind of ["edit", "execute", "delete", "fetch", "other", undefined])
    assert.equal(policyVerdict("approve-reads", kind), "ask");
  assert.equal(policyVerdict("deny-all", "read"), "deny");
  assert.equal(policyVerdict("approve-all", "execute"), "allow");
});

test("approve-reads without an asker allows a read and answers an edit with the reject option, not cancelled", () =>
  withTmp(async (cwd) => {
    for (const [kind, expected] of [
      ["read", "approved"],
      ["edit", "abort"],
    ]) {
      const rt = startFake({ prompt: asking(kind) }, { cwd, permissionPolicy: "approve-reads" });
      const { sessionId } = await rt.ensureSession();
      const events = await collect(rt.runTurn(sessionId, "go"));
      await rt.close();
      assert.equal(outputText(events), expected);
      assert.equal(permissionEvents(events)[0].decidedBy, "policy");
    }
  }));

test("deny-all answers with the reject option and approve-all with allow_once", () =>
  withTmp(async (cwd) => {
    for (const [policy, expected] of [
      ["deny-all", "abort"],
      ["approve-all", "approved"],
    ] as const) {
      const rt = startFake({ prompt: asking("execute") }, { cwd, permissionPolicy: policy });
      const { sessionId } = await rt.ensureSession();
      assert.equal(outputText(await collect(rt.runTurn(sessionId, "go"))), expected);
      await rt.close();
    }
  }));

test("an allow_always answer is remembered per agent, kind and path, written 0600, revocable, and audited", () =>
  withTmp(async (dir) => {
    let asked = 0;
    const asker: PermissionAsker = { ask: async () => (asked++, "always") };
    const rt = startFake(
      { prompt: asking("edit", "/ws/a.txt") },
      { cwd: dir, permissionPolicy: "ask", asker, permissionStoreDir: dir },
    );
    const { sessionId } = await rt.ensureSession();
    const first = await collect(rt.runTurn(sessionId, "go"));
    const second = await collect(rt.runTurn(sessionId, "go"));
    assert.equal(asked, 1);
    assert.equal(outputText(second), "always");
    assert.deepEqual(
      permissionEvents(first).map((d) => d.decidedBy),
      ["user"],
    );
    assert.deepEqual(
      permissionEvents(second).map((d) => d.decidedBy),
      ["remembered"],
    );
    assert.deepEqual(
      (await rt.permissions.rules()).map((r) => [r.agentId, r.kind, r.key, r.scope]),
      [["fake", "edit", "/ws/a.txt", dir]],
    );
    assert.equal((await stat(join(dir, "permissions.json"))).mode & 0o777, 0o600);

    assert.equal(await rt.permissions.revoke("other-agent"), 0);
    assert.equal(await rt.permissions.revoke("fake"), 1);
    await collect(rt.runTurn(sessionId, "go"));
    assert.equal(asked, 2, "asks again after revoke");
    assert.equal(await rt.permissions.revokeAll(), 1);
    await rt.close();

    const audit = (await readFile(join(dir, "audit.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      audit.map((a) => a.decidedBy),
      ["user", "remembered", "user"],
    );
    assert.equal(audit[0].optionKind, "allow_always");
    assert.equal(audit[0].path, "/ws/a.txt");
    assert.equal(audit[0].policy, "ask");
  }));

test("a dismissed prompt is a reject, not a cancel", () =>
  withTmp(async (cwd) => {
    const rt = startFake(
      { prompt: asking("edit") },
      { cwd, permissionPolicy: "ask", asker: { ask: async () => null } },
    );
    const { sessionId } = await rt.ensureSession();
    assert.equal(outputText(await collect(rt.runTurn(sessionId, "go"))), "abort");
    await rt.close();
  }));

test("cancel answers a pending permission cancelled, marks open tool calls cancelled, and still accepts late updates", () =>
  withTmp(async (cwd) => {
    let promptSignal: AbortSignal | undefined;
    const asker: PermissionAsker = {
      ask: (p) => {
        promptSignal = p.signal;
        return new Promise(() => {}); // a person who never answers
      },
    };
    const rt = startFake(
      {
        prompt: async (turn) => {
          await turn.update({
            sessionUpdate: "tool_call",
            toolCallId: "run",
            title: "make",
            kind: "execute",
            status: "in_progress",
          });
          await turn.update({
            sessionUpdate: "tool_call",
            toolCallId: "done",
            title: "ls",
            kind: "read",
            status: "completed",
          });
          const answer = turn.client.request(methods.client.session.requestPermission, {
            sessionId: turn.sessionId,
            toolCall: { toolCallId: "run", kind: "execute" },
            options: OPTIONS,
          });
          const res = await answer;
          await turn.cancelled;
          await turn.say(`late:${res.outcome.outcome}`);
          return "cancelled";
        },
      },
      { cwd, permissionPolicy: "ask", asker },
    );
    const { sessionId } = await rt.ensureSession();
    const statuses: string[] = [];
    rt.onStatus((s) => statuses.push(s));
    const turn = collect(rt.runTurn(sessionId, "go"));
    while (!promptSignal) await new Promise((r) => setTimeout(r, 5));
    await rt.cancel(sessionId);
    const events = await turn;
    await rt.close();
    assert.equal(promptSignal.aborted, true);
    assert.ok(statuses.includes("waiting_permission"));
    const cancelledCalls = events.flatMap((e) =>
      e.type === "tool_call" && e.toolCall.status === "cancelled" ? [e.toolCall.toolCallId] : [],
    );
    assert.deepEqual(cancelledCalls, ["run"]);
    assert.equal(permissionEvents(events)[0].decidedBy, "cancelled");
    assert.equal(outputText(events), "late:cancelled");
    assert.deepEqual(events[events.length - 1], { type: "done", stopReason: "cancelled" });
  }));
