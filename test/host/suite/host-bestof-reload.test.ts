// A hosted Best of N survives a window reload (#35), in the real extension host: two fake-agent candidates run in
// the thread host, each waiting for a file this test writes later; the window lets go of them as a reloading
// window does (their turns are not cancelled, the record stays open), and the compare view VS Code restores is
// handed the record's id (the webview's saved state) to the registered serializer's code: it shows both candidates
// again, follows them to their turn's end in the host, runs their checks (never run before the reload), ranks
// them, and Apply / Discard work and are recorded. A check the reload killed is not recorded and runs again. With
// runSessions `window` no record is written: the window's candidates end with it.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import { isOpen } from "../../../src/core/worktree/best-of-record";
import type { CandidateSummary } from "../../../src/core/worktree/candidates";
import { restoreComparePanel } from "../../../src/vscode/worktrees/best-of-resume";
import type { CompareView } from "../../../src/vscode/worktrees/compare-view";
import { api, waitFor, workspaceRoot } from "./helpers";
import { cli } from "./host-cli";
import { applyFirstDiscardOther, seededRepo } from "./worktree-helpers";

type BestOf = { view: CompareView; summaries: CandidateSummary[] };

/**
 * A summary as an assertion's message: its status, error, whole check result, the agent's answer (the fake agent
 * says its terminal's exit) and the files its worktree holds now (a failure says which case it was).
 */
const said = (s: CandidateSummary) =>
  JSON.stringify({
    label: s.label,
    status: s.status,
    error: s.error,
    check: s.check ?? null,
    answer: s.answer,
    files: s.worktree && existsSync(s.worktree.path) ? readdirSync(s.worktree.path) : null,
  });

describe("a hosted Best of N after a window reload (#35)", () => {
  const seed = seededRepo("acp-host-bestof-reload-", { "a.txt": "a\n" }, { under: workspaceRoot });
  const cfg = () => vscode.workspace.getConfiguration("acpThreads");

  afterEach(async () => {
    await cfg().update("host.runSessions", "window", vscode.ConfigurationTarget.Global);
    const { hub } = await api();
    await cli(hub.home, ["host", "stop", "--force"]);
  });

  /** A hosted Best of N of two fake candidates (`go`: a file nobody wrote yet), its view and its record's id. */
  async function startHosted(task: (go: string) => { prompt: string; check: string }) {
    const { hub } = await api();
    await cfg().update("host.runSessions", "host", vscode.ConfigurationTarget.Global);
    const go = join(mkdtempSync(join(tmpdir(), "acp-bestof-go-")), "go");
    let view: CompareView | undefined;
    const first = vscode.commands.executeCommand<BestOf>("acpThreads.bestOfN", {
      agents: ["fake"],
      runs: 2,
      ...task(go),
      cwd: seed.repo,
      onView: (v: CompareView) => (view = v),
    });
    const id = await waitFor("the Best of N's record", () => view?.state.recordId);
    return { hub, go, first, id, view: () => view! };
  }

  it("the restored compare view follows the candidates on, runs their checks, ranks them, and Apply works", async () => {
    const { repo } = seed;
    const prompt = (go: string) => `terminal while [ ! -f ${go} ]; do sleep 0.1; done; echo hello > made.txt`;
    const { hub, go, first, id } = await startHosted((go) => ({ prompt: prompt(go), check: "test -f made.txt" }));
    const started = await waitFor("both candidates running in the host, recorded", async () => {
      const r = await hub.bestOf.store.get(id);
      const ids = r?.candidates.map((c) => c.threadId) ?? [];
      return ids.length === 2 && ids.every((t) => t && hub.hosted.link.session(t)) ? r : undefined;
    });
    assert.ok(
      started.candidates.every((c) => c.worktree && c.cwd && !c.agent),
      "worktrees made, agents not done",
    );
    assert.equal(started.prompt, prompt(go));

    // the window goes (a reload): it lets go of the run without cancelling the host's turns
    hub.bestOf.detachAll();
    const gone = await first;
    gone.view.dispose();
    await hub.bestOf.settled();
    const left = (await hub.bestOf.store.get(id))!;
    assert.ok(isOpen(left) && !left.closedAt, "the record stays open");
    assert.ok(
      left.candidates.every((c) => !c.agent && !c.check),
      "nothing recorded of the let-go turns",
    );
    const st = await cli(hub.home, ["host", "status", "--format", "json"]);
    const held = (JSON.parse(st.stdout) as { sessions: { threadId: string; state: string }[] }).sessions;
    for (const c of left.candidates)
      assert.equal(
        held.find((h) => h.threadId === c.threadId)?.state,
        "working",
        `the host still runs it: ${st.stdout}; its thread's last records: ${lastRecords(hub, c.threadId!)}`,
      );

    // the reloaded window: VS Code restores the view's panel and hands its saved state to the serializer
    const panel = vscode.window.createWebviewPanel("acpThreads.bestOf", "restored", vscode.ViewColumn.One);
    const resumed = restoreComparePanel(hub, panel, { recordId: id });
    await waitFor("the record picked up", () => hub.bestOf.follows(id));
    writeFileSync(go, ""); // the candidates' turns end now
    const out = (await resumed)!;
    assert.ok(out, "picked up");
    assert.equal(out.view.panel, panel, "in the restored panel");
    assert.deepEqual(
      out.view.state.rows.map((r) => r.threadId).sort(),
      started.candidates.map((c) => c.threadId).sort(),
      "both candidates, with their threads",
    );
    for (const s of out.summaries) {
      assert.equal(s.status, "done", said(s));
      assert.equal(s.check?.exitCode, 0, `its check ran after the reload: ${said(s)}`);
      assert.deepEqual(
        s.files.map((f) => f.path),
        ["made.txt"],
      );
      assert.equal(readFileSync(join(s.worktree!.path, "made.txt"), "utf8"), "hello\n");
      const ends = hub.threads.read(s.threadId!).records.filter((r) => r.kind === "turn_end");
      assert.deepEqual(
        ends.map((r) => (r as { stopReason: string }).stopReason),
        ["end_turn"],
        "its turn was not cancelled",
      );
    }
    assert.equal(out.view.state.running, false);
    assert.ok(out.view.state.rows.every((r) => r.status === "done" && r.check?.exitCode === 0));
    assert.ok(out.view.state.leader, "ranked");

    await applyFirstDiscardOther(repo, out);
    await hub.bestOf.settled();
    const decided = (await hub.bestOf.store.get(id))!;
    assert.deepEqual(decided.candidates.map((c) => [c.agent?.ok, c.check?.exitCode, c.outcome]).sort(), [
      [true, 0, "applied"],
      [true, 0, "discarded"],
    ]);
    assert.equal(isOpen(decided), false, "decided: not reopened again");
    out.view.dispose();
    await hub.bestOf.settled();
    assert.ok((await hub.bestOf.store.get(id))!.closedAt, "closed by the user");

    // an open record of a repository outside this window's folders is not picked up: its restored panel goes
    const elsewhere = mkdtempSync(join(tmpdir(), "acp-bestof-elsewhere-"));
    const outside = { ...left, id: "outside-folders", repo: elsewhere, cwd: elsewhere, owner: null };
    await hub.bestOf.store.add(outside);
    const stray = vscode.window.createWebviewPanel("acpThreads.bestOf", "restored", vscode.ViewColumn.One);
    let strayGone = false;
    stray.onDidDispose(() => (strayGone = true));
    assert.equal(await restoreComparePanel(hub, stray, { recordId: outside.id }), undefined);
    assert.ok(strayGone, "the restored panel is closed");
    assert.equal((await hub.bestOf.store.get(outside.id))!.owner, null, "not claimed");
    await hub.bestOf.store.update(outside.id, (r) => void (r.closedAt = new Date().toISOString()));
    assert.ok(!existsSync(decided.candidates.find((c) => c.outcome === "discarded")!.worktree!.path));
  });

  it("a check the reload cut short runs again in the restored view", async () => {
    const { hub, go, first, id, view } = await startHosted((go) => ({
      prompt: "terminal echo hello > made.txt",
      check: `while [ ! -f ${go} ]; do sleep 0.1; done; test -f made.txt`,
    }));
    await waitFor("both checks running", () => view().state.rows.every((r) => r.status === "checking"));
    await waitFor("both agents' ends recorded", async () =>
      (await hub.bestOf.store.get(id))?.candidates.every((c) => c.agent?.ok),
    );
    hub.bestOf.detachAll(); // the reload: the checks are killed
    (await first).view.dispose();
    await hub.bestOf.settled();
    const left = (await hub.bestOf.store.get(id))!;
    assert.ok(
      left.candidates.every((c) => c.agent?.ok && !c.check && c.worktree && c.cwd),
      `the checks cut short are not recorded, the worktrees are: ${JSON.stringify(left.candidates)}`,
    );

    const panel = vscode.window.createWebviewPanel("acpThreads.bestOf", "restored", vscode.ViewColumn.One);
    const resumed = restoreComparePanel(hub, panel, { recordId: id });
    await waitFor("the record picked up", () => hub.bestOf.follows(id));
    writeFileSync(go, "");
    const out = (await resumed)!;
    for (const s of out.summaries) {
      assert.equal(s.status, "done", said(s));
      assert.equal(s.check?.exitCode, 0, `its check ran again to its end: ${said(s)}`);
    }
    await hub.bestOf.settled();
    const recorded = (await hub.bestOf.store.get(id))!.candidates;
    assert.ok(
      recorded.every((c) => c.check?.exitCode === 0),
      `recorded: ${JSON.stringify(recorded.map((c) => c.check ?? null))}`,
    );
    for (const s of out.summaries)
      assert.equal(await vscode.commands.executeCommand("acpThreads.discardWorktree", s.threadId, { yes: true }), true);
    out.view.dispose();
  });

  it("with runSessions window, no record: the window's candidates end with it", async () => {
    const { repo } = seed;
    const { hub } = await api();
    const before = (await hub.bestOf.store.list()).map((r) => r.id);
    const out = await vscode.commands.executeCommand<BestOf>("acpThreads.bestOfN", {
      agents: ["fake"],
      runs: 1,
      prompt: "hello",
      cwd: repo,
    });
    assert.equal(out.summaries[0]!.status, "done", out.summaries[0]!.error);
    assert.equal(out.view.state.recordId, undefined);
    assert.deepEqual(
      (await hub.bestOf.store.list()).map((r) => r.id),
      before,
    );
    await vscode.commands.executeCommand("acpThreads.discardWorktree", out.summaries[0]!.threadId, { yes: true });
    out.view.dispose();
  });
});

/** The last records of a thread, short: what a turn that ended early said (its tool call's end, its error). */
function lastRecords(hub: Awaited<ReturnType<typeof api>>["hub"], threadId: string): string {
  try {
    return JSON.stringify(hub.threads.read(threadId).records.slice(-6)).slice(0, 3000);
  } catch (err) {
    return `(not read: ${String(err)})`;
  }
}
