// Best of N in the thread host (#35, parity row 37), in the real extension host: with acpThreads.host.runSessions
// `host` the window makes the candidates' worktrees (real git worktrees beside a repository of the workspace) and
// the host runs their agents (the host's status lists both runs, their threads tagged as the host's, started as
// `automation`, no session of this window); the compare view follows them to their turn's end and their check;
// Apply brings the winner's file home as in the window path, and Discard of the others ends the host's run first
// (its run holds the thread's file). Before, Best of N ran its candidates in the window whatever the setting said,
// so a window reload ended every one.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { PromptPart } from "../../../src/core/model/context";
import type { CandidateSummary } from "../../../src/core/worktree/candidates";
import type { CompareView } from "../../../src/vscode/worktrees/compare-view";
import { api, waitFor, workspaceRoot } from "./helpers";
import { cli } from "./host-cli";
import { applyFirstDiscardOther, bestOfTwo, seededRepo } from "./worktree-helpers";

describe("Best of N in the thread host (#35)", () => {
  const seed = seededRepo("acp-host-bestof-hosted-", { "a.txt": "a\n" }, { under: workspaceRoot });
  const cfg = () => vscode.workspace.getConfiguration("acpThreads");

  afterEach(async () => {
    await cfg().update("host.runSessions", "window", vscode.ConfigurationTarget.Global);
    const { hub } = await api();
    await cli(hub.home, ["host", "stop", "--force"]);
  });

  it("runs the candidates in the host, the compare view follows them, and one is applied as in the window", async () => {
    const { repo } = seed;
    const { hub } = await api();
    await cfg().update("host.runSessions", "host", vscode.ConfigurationTarget.Global);
    const { view, summaries } = await bestOfTwo(repo);
    const ids = summaries.map((s) => s.threadId!);
    for (const s of summaries) {
      const m = hub.threads.read(s.threadId!).metadata;
      assert.ok(m.tags.includes("runs:host"), "the host ran it");
      assert.equal(m.startedFrom, "automation", "a candidate starts unattended (#36)");
      assert.deepEqual(m.worktree, s.worktree, "its thread records the window's worktree");
      assert.equal(hub.live.get(s.threadId!), undefined, "no session of this window runs it");
    }
    const st = await cli(hub.home, ["host", "status", "--format", "json"]);
    const held = (JSON.parse(st.stdout) as { sessions: { threadId: string }[] }).sessions.map((s) => s.threadId);
    assert.deepEqual(
      ids.filter((id) => held.includes(id)),
      ids,
      `the host holds both runs (kept open, as a window session): ${st.stdout}`,
    );

    // as in the window path; the discard ends the host's run on the other first (it holds the thread's file)
    await applyFirstDiscardOther(repo, { view, summaries });
    await waitFor(
      "the host's run on the discarded one to end",
      () => !hub.hosted.link.session(summaries[1]!.threadId!),
    );
    view.dispose();
  });

  it("Apply on a hosted candidate as soon as its turn ended is not refused as working", async () => {
    const { repo } = seed;
    const { hub } = await api();
    await cfg().update("host.runSessions", "host", vscode.ConfigurationTarget.Global);
    let view: CompareView | undefined;
    let applied: Promise<string> | undefined;
    // the Apply comes as the window hears of the turn's end (the link reads the host's status a moment after)
    const sub = hub.hosted.link.onPush((m) => {
      if (applied || m.t !== "event" || m.event.kind !== "turn_ended") return;
      const { threadId } = m.event;
      if (!view?.state.rows.some((r) => r.threadId === threadId)) return;
      // the compare view's Apply (errors reach the caller, as the view's card shows them)
      applied = view.act({ type: "apply", threadId }, { yes: true }).then(
        () => "applied",
        (err: Error) => err.message,
      );
    });
    try {
      const out = await vscode.commands.executeCommand<{ view: CompareView; summaries: CandidateSummary[] }>(
        "acpThreads.bestOfN",
        {
          agents: ["fake"],
          runs: 1,
          prompt: "terminal echo soon > soon.txt",
          cwd: repo,
          onView: (v: CompareView) => (view = v),
        },
      );
      assert.equal(out!.summaries[0]!.status, "done", out!.summaries[0]!.error);
      // before, the link's status of a moment before (the turn working) refused it
      assert.equal(await waitFor("the Apply", () => applied), "applied");
      out!.view.dispose();
      assert.equal(readFileSync(join(repo, "soon.txt"), "utf8"), "soon\n", "the candidate's file reached the repo");
    } finally {
      sub.dispose();
    }
  });

  it("closing the compare view while the host starts a candidate cancels the candidate's turn", async () => {
    const { repo } = seed;
    const { hub } = await api();
    await cfg().update("host.runSessions", "host", vscode.ConfigurationTarget.Global);
    let view: CompareView | undefined;
    let started: string | undefined;
    // closed as the host announces the candidate's run: before the window has its thread's id back from the host
    const sub = hub.hosted.link.onPush((m) => {
      if (started || m.t !== "event" || m.event.kind !== "started") return;
      started = m.event.threadId;
      view?.dispose();
    });
    try {
      // its progress has no view to go to; before, the closed view's update threw: the command failed, no result
      const ran = vscode.commands.executeCommand<{ summaries: CandidateSummary[] }>("acpThreads.bestOfN", {
        agents: ["fake"],
        runs: 1,
        prompt: "sleep 30000",
        cwd: repo,
        onView: (v: CompareView) => (view = v),
      });
      const id = await waitFor("the candidate's run in the host", () => started);
      // before, the stop came before the candidate listened for it: its turn ran to its end (30 s)
      await waitFor(
        "its turn cancelled",
        () => hub.threads.read(id).records.some((r) => r.kind === "turn_end" && r.stopReason === "cancelled"),
        20_000,
      );
      assert.equal((await ran).summaries.length, 1, "the command resolves with its candidate's summary");
    } finally {
      sub.dispose();
    }
  });

  it("a candidate whose turn the agent answers with an error is failed, in the host as in the window", async () => {
    const { repo } = seed;
    const { hub } = await api();
    for (const where of ["window", "host"] as const) {
      await cfg().update("host.runSessions", where === "host" ? "host" : "window", vscode.ConfigurationTarget.Global);
      const out = await vscode.commands.executeCommand<{ view: CompareView; summaries: CandidateSummary[] }>(
        "acpThreads.bestOfN",
        { agents: ["fake"], runs: 1, prompt: "fail upstream 500", cwd: repo },
      );
      out!.view.dispose();
      const s = out!.summaries[0]!;
      const ranHere = hub.threads.read(s.threadId!).metadata.tags.includes("runs:host") ? "host" : "window";
      assert.equal(ranHere, where);
      // before, the host's run (kept open after an error turn) said its turn ended: the candidate was "done"
      assert.equal(s.status, "failed", `${where}: ${JSON.stringify(s)}`);
      assert.match(String(s.error), /upstream 500/, where);
    }
  });

  it("a hosted candidate gets the panel's prompt with its context, and asks in its card", async () => {
    const { repo } = seed;
    const { hub } = await api();
    await cfg().update("host.runSessions", "host", vscode.ConfigurationTarget.Global);
    const file = join(repo, "a.txt");
    const parts: PromptPart[] = [
      { type: "text", text: "context compare these " },
      { type: "context", item: { kind: "file", label: "a.txt", uri: `file://${file}`, path: file } },
    ];
    const out = await vscode.commands.executeCommand<{ view: CompareView; summaries: CandidateSummary[] }>(
      "acpThreads.bestOfN",
      { agents: ["fake"], runs: 1, prompt: "context compare these", parts, cwd: repo },
    );
    const s = out!.summaries[0]!;
    assert.equal(s.status, "done", s.error);
    assert.ok(hub.threads.read(s.threadId!).metadata.tags.includes("runs:host"), "the host ran it");
    assert.equal(s.answer, `text "context compare these "\nlink file://${file} a.txt`, "the prompt and its chip");
    const asked = hub.threads.read(s.threadId!).records.find((r) => r.kind === "user_message");
    assert.equal((asked as { context?: unknown[] } | undefined)?.context?.length, 1, "the chip is in the thread");
    out!.view.dispose();

    // the candidate's permission request: in its card ("waits for you"), answered there, through the host
    await cfg().update("permissionMode", "ask", vscode.ConfigurationTarget.Global);
    try {
      let view: CompareView | undefined;
      const done = vscode.commands.executeCommand<{ view: CompareView; summaries: CandidateSummary[] }>(
        "acpThreads.bestOfN",
        { agents: ["fake"], runs: 1, prompt: "ask execute", cwd: repo, onView: (v: CompareView) => (view = v) },
      );
      const row = await waitFor("the hosted candidate to wait for an answer", () => {
        const r = view?.state.rows[0];
        return r?.status === "asking" ? r : undefined;
      });
      assert.equal(row.asks?.title, "A execute tool");
      assert.ok(hub.hosted.link.session(row.threadId!), "the host runs it");
      await view!.act({ type: "answer", threadId: row.threadId!, requestId: row.asks!.requestId, optionId: "ok" });
      const asking = await done;
      const a = asking.summaries[0]!;
      assert.equal(a.status, "done", a.error);
      assert.match(a.answer, /outcome: ok/, "the card's answer reached the hosted agent");
      asking.view.dispose();
    } finally {
      await cfg().update("permissionMode", "approve-all", vscode.ConfigurationTarget.Global);
    }
  });
});
