// Worktree sessions in the real extension host (#25): "in a new worktree" makes the session's cwd and only
// reachable root a new git worktree beside the repository (a write into the repository itself is refused);
// the Sessions tree groups the thread under its worktree with its state; Apply to workspace brings the
// changes home through the ledger (one conflicting file left as the user made it, the apply undone by Restore);
// Commit to a branch leaves the checked-out branch alone; Discard removes the worktree. A folder outside git
// gets a plain session. Best of N: two candidates at once, the compare view, apply of one, discard of the other
// (which leaves the Worktrees group at once). The new thread's “in a new worktree” toggle, through the composer's
// message path.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import * as vscode from "vscode";
import type { CandidateSummary } from "../../../src/core/worktree/candidates";
import type { ComposerPanel } from "../../../src/vscode/composer/composer-host";
import type { CompareView } from "../../../src/vscode/worktrees/compare-view";
import { bestOfAgentItems } from "../../../src/vscode/worktrees/best-of-command";
import type { SessionNode } from "../../../src/vscode/sessions-tree";
import { api, useFakeAgent, waitFor, workspaceRoot } from "./helpers";
import { applyFirstDiscardOther, bestOfTwo, git, seededRepo, spawn, turn } from "./worktree-helpers";

async function worktreeNode(threadId: string): Promise<Extract<SessionNode, { type: "worktree" }> | undefined> {
  const { hub } = await api();
  const top = await hub.tree.getChildren();
  const group = top.find((n) => n.type === "group" && n.id === "worktrees");
  const kids = group ? await hub.tree.getChildren(group) : [];
  return kids.find(
    (n): n is Extract<SessionNode, { type: "worktree" }> => n.type === "worktree" && n.threadId === threadId,
  );
}

/** Whether the thread is anywhere in the Sessions tree (live, past or under a worktree). */
async function treeHas(threadId: string): Promise<boolean> {
  const { hub } = await api();
  for (const group of await hub.tree.getChildren())
    for (const n of await hub.tree.getChildren(group)) {
      if (n.type === "worktree" && n.threadId === threadId) return true;
      if (n.type === "live" && n.threadId === threadId) return true;
      if (n.type === "past" && n.thread.threadId === threadId) return true;
    }
  return false;
}

describe("worktree sessions", () => {
  const seed = seededRepo("acp-host-wt-", { "a.txt": "a\n", "b.txt": "b\n" });

  it("works in its worktree, is grouped with its state, applies (one conflict), commits to a branch, discards", async () => {
    const { repo } = seed;
    const { hub } = await api();
    const s = await spawn(repo);
    const ref = s.worktree;
    assert.ok(ref, "the session has a worktree");
    assert.equal(s.cwd, ref.path, "the session works in the worktree");
    assert.equal(ref.repo, repo);
    assert.ok(ref.path.startsWith(join(dirname(repo), ".repo.worktrees")), ref.path);
    assert.equal(git(ref.path, "rev-parse", "HEAD").trim(), git(repo, "rev-parse", "HEAD").trim());
    await waitFor("the thread's metadata to name its worktree", () => hub.threads.read(s.threadId).metadata.worktree);
    assert.deepEqual(hub.threads.read(s.threadId).metadata.worktree, ref);

    // containment: the worktree is writable, the repository itself is not
    await turn(s, `write ${join(ref.path, "a.txt")} a by the agent`);
    assert.equal(readFileSync(join(ref.path, "a.txt"), "utf8"), "a by the agent");
    // outside the worktree even approve-all asks (#33), marked; allowed by the person, the write is still refused
    const escaping = turn(s, `write ${join(repo, "escape.txt")} out`);
    const asked = await waitFor("the outside write to be asked", () => hub.broker.pendingFor(s.threadId)[0]);
    assert.deepEqual(asked.outside, [join(realpathSync(repo), "escape.txt")], "marked outside the workspace");
    hub.broker.answer(asked.requestId, asked.options.find((o) => o.kind === "allow_once")!.optionId);
    await escaping;
    assert.equal(existsSync(join(repo, "escape.txt")), false, "a write outside the worktree is refused");
    await turn(s, `write ${join(ref.path, "b.txt")} b by the agent`);
    assert.equal(readFileSync(join(repo, "a.txt"), "utf8"), "a\n", "the workspace is untouched");

    // the tree: the thread under its worktree, the state read when the turn ended
    const node = await waitFor("the worktree node", () => worktreeNode(s.threadId));
    assert.equal(node.children[0]?.type, "live");
    const item = await waitFor("the worktree's state in the tree", () => {
      const it = hub.tree.getTreeItem(node);
      return /^2 files \+2 −2$/.test(String(it.description)) ? it : undefined;
    });
    assert.equal(item.contextValue, "worktree");
    const live = (await hub.tree.getChildren()).find((n) => n.type === "group" && n.id === "live");
    assert.ok(!live || !(await hub.tree.getChildren(live)).some((n) => n.type === "live" && n.threadId === s.threadId));

    // apply: the user changed b.txt meanwhile → b.txt is a conflict, left as the user made it
    writeFileSync(join(repo, "b.txt"), "b by the user\n");
    const out = await vscode.commands.executeCommand<{ op?: string; applied: string[]; skipped: string[] }>(
      "acpThreads.applyWorktree",
      s.threadId,
      { yes: true },
    );
    assert.ok(out?.op, "the apply is a ledger operation");
    assert.deepEqual(out.applied, ["a.txt"]);
    assert.deepEqual(out.skipped, ["b.txt"]);
    assert.equal(readFileSync(join(repo, "a.txt"), "utf8"), "a by the agent");
    assert.equal(readFileSync(join(repo, "b.txt"), "utf8"), "b by the user\n");
    const op = hub.ledger.ledger.read(s.threadId).ops.find((o) => o.op === out.op);
    assert.equal(op?.type, "apply");
    // undone by the existing restore
    await hub.ledger.restoreTurn(s.threadId, { op: out.op }, { yes: true });
    assert.equal(readFileSync(join(repo, "a.txt"), "utf8"), "a\n", "Restore took the apply back");

    // commit to a branch: the user's branch and files stay
    const mainHead = git(repo, "rev-parse", "HEAD").trim();
    const c = await vscode.commands.executeCommand<{ branch: string; commit: string }>(
      "acpThreads.commitWorktree",
      s.threadId,
      { branch: "agent/host-test", message: "from the host test" },
    );
    assert.equal(c?.branch, "agent/host-test");
    assert.equal(git(repo, "show", "agent/host-test:a.txt"), "a by the agent");
    assert.equal(git(repo, "rev-parse", "HEAD").trim(), mainHead);
    assert.equal(git(repo, "symbolic-ref", "--short", "HEAD").trim(), "main");
    const bad = await vscode.commands.executeCommand("acpThreads.commitWorktree", s.threadId, { branch: "bad..name" });
    assert.equal(bad, undefined, "an invalid branch name is refused");

    // discard: the session closes, the folder and git's record of it go, the thread forgets it
    assert.equal(await vscode.commands.executeCommand("acpThreads.discardWorktree", s.threadId, { yes: true }), true);
    assert.equal(existsSync(ref.path), false);
    assert.ok(!git(repo, "worktree", "list").includes(ref.path));
    assert.equal(hub.threads.read(s.threadId).metadata.worktree, null);
    assert.equal(s.isOpen, false);
    assert.equal(await worktreeNode(s.threadId), undefined, "the thread left the Worktrees group");
    assert.equal(git(repo, "rev-parse", "agent/host-test").trim(), c.commit, "the committed branch stays");
  });

  it("a worktree made for a session that never opened is removed again (#35: only the CLI removed it)", async () => {
    const { repo } = seed;
    const { hub } = await api();
    const cfg = vscode.workspace.getConfiguration("acpThreads");
    const agents = { ...(cfg.get<Record<string, unknown>>("agents") ?? {}) };
    agents["no-such-agent"] = { command: join(dirname(repo), "no-such-agent"), args: [], displayName: "Missing" };
    await cfg.update("agents", agents, vscode.ConfigurationTarget.Global);
    const before = new Set(hub.live.all().map((l) => l.threadId));
    const id = await vscode.commands.executeCommand<string>("acpThreads.spawn", {
      agentId: "no-such-agent",
      task: "",
      mode: "session",
      cwd: repo,
      worktree: true,
    });
    const s = hub.live.get(id)!;
    assert.ok(!before.has(id));
    await waitFor("the session to fail", () => s.status === "failed");
    await waitFor("its worktree to be gone", () => s.worktree === undefined);
    const dir = join(dirname(repo), `.${basename(repo)}.worktrees`);
    const left = existsSync(dir) ? readdirSync(dir) : [];
    assert.deepEqual(left, [], "no worktree folder is left beside the repository");
    assert.doesNotMatch(git(repo, "worktree", "list"), /\.worktrees/, "git forgot it too");
  });

  it("a folder outside git gets a plain session", async () => {
    const s = await spawn(workspaceRoot());
    assert.equal(s.worktree, undefined);
    assert.equal(s.cwd, workspaceRoot());
    await s.close();
  });
});

describe("best of N in the editor", () => {
  const seed = seededRepo("acp-host-bestof-", { "a.txt": "a\n" });

  it("runs the candidates at once in their own worktrees, compares them, applies one and discards the others", async () => {
    const { repo } = seed;
    const { hub } = await api();
    const { view, summaries } = await bestOfTwo(repo);
    for (const s of summaries)
      assert.ok(s.threadId && hub.live.get(s.threadId), "each candidate is a live session of the editor");
    assert.deepEqual(
      view.state.leader,
      { label: summaries[0]!.label, kind: "fastest", why: "same result, faster" },
      "both passed the check with the same change: the first is only the fastest, not the best",
    );
    assert.ok(view.state.rows.every((r) => Array.isArray(r.costs)));
    // the worktrees are in the tree
    const top = await hub.tree.getChildren();
    const group = top.find((n) => n.type === "group" && n.id === "worktrees");
    assert.ok(group && (await hub.tree.getChildren(group)).length >= 2);

    await applyFirstDiscardOther(repo, { view, summaries });
    const [win, other] = summaries;
    // the tree at once: the discarded candidate (its session closed, its metadata `worktree: null`) left the
    // Worktrees group and is listed as a thread of its own; the applied one is still under its worktree
    assert.equal(await worktreeNode(other!.threadId!), undefined, "the discarded candidate left the Worktrees group");
    assert.ok(await worktreeNode(win!.threadId!), "the applied candidate keeps its worktree node");
    assert.ok(await treeHas(other!.threadId!), "the discarded candidate's thread is still in the tree");
    view.dispose();
    for (const s of summaries) await hub.live.get(s.threadId!)?.close();
  });

  it("a compare view closed while the worktrees are made starts no session, and the command still resolves", async () => {
    const { repo } = seed;
    const { hub } = await api();
    const sessions = new Set(hub.live.all());
    const listed = git(repo, "worktree", "list");
    const worktrees: string[] = [];
    // closed as the first candidate starts, the second one's worktree still being made (the core reports each
    // step to the view, which is where a person's click lands too)
    const onView = (v: CompareView) => {
      const update = v.update.bind(v);
      let closed = false;
      v.update = (patch) => {
        update(patch);
        if (!closed && v.state.rows.some((r) => r.status === "working")) {
          closed = true;
          v.dispose();
        }
      };
    };
    // before, each candidate's session started after the close; its card's update threw "Webview is disposed", so
    // its worktree was removed under the running session, and the command failed with that error (no result)
    const out = await vscode.commands.executeCommand<{ view: CompareView; summaries: CandidateSummary[] }>(
      "acpThreads.bestOfN",
      { agents: ["fake"], runs: 2, prompt: "hello", check: "true", cwd: repo, onView },
    );
    for (const s of out.summaries) {
      assert.equal(s.status, "failed");
      assert.match(s.error ?? "", /stopped before it started/);
      assert.equal(s.threadId, null, "no thread");
      if (s.worktree) worktrees.push(s.worktree.path);
    }
    assert.deepEqual(worktrees, [], "no worktree kept");
    assert.deepEqual(
      hub.live.all().filter((s) => !sessions.has(s)),
      [],
      "no session started",
    );
    assert.equal(git(repo, "worktree", "list"), listed, "git lists no candidate's worktree");
  });
});

describe("best of N while a candidate waits for the person (#37 item 5)", () => {
  const seed = seededRepo("acp-host-bestof-ask-", { "a.txt": "a\n" });

  it("its card says 'waits for you' with the request, is answered there, and the wait is not its duration", async () => {
    const { hub } = await api();
    // seededRepo runs its agents under approve-all: this candidate must ask
    await vscode.workspace
      .getConfiguration("acpThreads")
      .update("permissionMode", "ask", vscode.ConfigurationTarget.Global);
    let view: CompareView | undefined;
    const t0 = performance.now();
    const done = vscode.commands.executeCommand<{ view: CompareView; summaries: CandidateSummary[] }>(
      "acpThreads.bestOfN",
      { agents: ["fake"], runs: 1, prompt: "ask execute", cwd: seed.repo, onView: (v: CompareView) => (view = v) },
    );
    const row = await waitFor("the candidate to wait for an answer", () => {
      const r = view?.state.rows[0];
      return r?.status === "asking" ? r : undefined;
    });
    assert.equal(row.asks?.title, "A execute tool");
    assert.deepEqual(
      row.asks?.options.map((o) => o.name),
      ["Allow", "Reject"],
      "the agent's own options, answerable in the card",
    );
    assert.ok(hub.broker.hasPending(row.threadId!), "the same request the panel and the notification show");
    await new Promise((r) => setTimeout(r, 1500)); // the person takes a while
    await view!.act({ type: "answer", threadId: row.threadId!, requestId: "not-pending", optionId: "ok" });
    assert.ok(hub.broker.hasPending(row.threadId!), "an answer to a request that is not pending changes nothing");
    await view!.act({ type: "answer", threadId: row.threadId!, requestId: row.asks!.requestId, optionId: "ok" });
    const out = await done;
    const wallMs = performance.now() - t0;
    const s = out.summaries[0]!;
    assert.equal(s.status, "done", s.error);
    assert.match(s.answer, /outcome: ok/, "the card's answer reached the agent");
    assert.equal(view!.state.rows[0]!.asks, undefined, "the answered request left the card");
    assert.ok(
      s.durationMs <= wallMs - 1500,
      `the candidate's ${s.durationMs} ms leave out the 1.5 s it waited (the whole run took ${Math.round(wallMs)} ms)`,
    );
    out.view.dispose();
    await hub.live.get(s.threadId!)?.close();
  });

  it("the wizard's agent list puts agents that cannot start last, marked, and tells equal names apart", () => {
    const agent = (id: string, displayName: string, available: boolean) => ({
      spec: { id, displayName, command: `${id}-cmd`, args: [] },
      available,
      ...(available ? {} : { hint: `npm i -g ${id}` }),
    });
    const items = bestOfAgentItems([
      agent("gone", "Gone", false),
      agent("codex", "Codex", true),
      agent("registry:codex", "Codex", true),
    ]);
    assert.deepEqual(
      items.map((i) => [i.label, i.description, i.detail]),
      [
        ["Codex (codex)", "codex", undefined],
        ["Codex (registry:codex)", "registry:codex", undefined],
        ["$(circle-slash) Gone", "cannot start here", "npm i -g gone"],
      ],
    );
  });
});

describe("the new thread's “in a new worktree” toggle", () => {
  let ws: string;
  let madeRepo = false;

  before(async () => {
    await useFakeAgent();
    ws = realpathSync(workspaceRoot());
    if (!existsSync(join(ws, ".git"))) {
      // the workspace becomes a repository for this test only (the other suites expect a folder outside git)
      madeRepo = true;
      git(ws, "init", "-q", "-b", "main");
      git(ws, "add", "-A");
      git(ws, "commit", "-qm", "seed", "--allow-empty");
    }
  });

  after(async () => {
    if (!madeRepo) return;
    for (const line of git(ws, "worktree", "list", "--porcelain").split("\n"))
      if (line.startsWith("worktree ") && line.slice(9) !== ws) rmSync(line.slice(9), { recursive: true, force: true });
    rmSync(join(dirname(ws), `.${basename(ws)}.worktrees`), { recursive: true, force: true });
    rmSync(join(ws, ".git"), { recursive: true, force: true });
  });

  it("sending a draft with the toggle on starts its session in a new worktree of the workspace's repository", async () => {
    const { hub } = await api();
    const draft = await vscode.commands.executeCommand<string>("acpThreads.spawn");
    assert.ok(draft && (await hub.composer.isDraft(draft)), "a new-thread panel");
    await waitFor("its panel", () => hub.panels.get(draft));
    const panel: ComposerPanel = { threadId: draft, post: () => undefined };
    hub.composer.attach(panel);
    // what the webview posts when the box is sent with “in a new worktree” checked
    await hub.composer.handle(panel, {
      type: "send",
      parts: [{ type: "text", text: "hello from a worktree" }],
      agentId: "fake",
      mode: "session",
      worktree: true,
    });
    const s = await waitFor("the live session", () => hub.live.get(draft));
    await waitFor(
      "the first answer, the turn ended",
      () =>
        s.status === "idle" &&
        s.events.some((e) => e.type === "text" && e.stream === "output" && e.text.includes("hello from a worktree")),
    );
    const ref = s.worktree;
    assert.ok(ref, "the session has a worktree");
    assert.equal(ref.repo, ws, "made from the workspace's repository");
    assert.equal(s.cwd, ref.path, "the session's cwd is the worktree");
    assert.notEqual(ref.path, ws);
    assert.ok(ref.path.startsWith(join(dirname(ws), `.${basename(ws)}.worktrees`)), ref.path);
    assert.equal(git(ref.path, "rev-parse", "--show-toplevel").trim(), ref.path, "a git worktree of its own");
    assert.ok(git(ws, "worktree", "list").includes(ref.path), "git knows it as a worktree of the repository");
    await waitFor("the thread's metadata to name its worktree", () => hub.threads.read(s.threadId).metadata.worktree);
    assert.deepEqual(hub.threads.read(s.threadId).metadata.worktree, ref);
    assert.ok(await waitFor("its worktree node", () => worktreeNode(s.threadId)));
    assert.equal(await vscode.commands.executeCommand("acpThreads.discardWorktree", s.threadId, { yes: true }), true);
    assert.equal(existsSync(ref.path), false);
    assert.equal(await worktreeNode(s.threadId), undefined);
  });
});
