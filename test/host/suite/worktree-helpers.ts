// What the worktree host tests share: git with a test identity, a fake-agent session in a new worktree, a turn, a
// Best of N of two candidates that each write the same file, the first applied and the other discarded.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import type { CandidateSummary } from "../../../src/core/worktree/candidates";
import type { LiveSession } from "../../../src/vscode/live-session";
import type { CompareView } from "../../../src/vscode/worktrees/compare-view";
import { api, useFakeAgent, waitFor } from "./helpers";
import type { TestSession } from "./session-of";

export const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd, encoding: "utf8" });

export async function turn(s: TestSession, text: string): Promise<void> {
  const done = new Promise<void>((r) => s.onTurnDone(() => r()));
  await s.prompt(text).catch(() => undefined);
  await done;
}

export async function spawn(cwd: string): Promise<LiveSession> {
  const { hub } = await api();
  const id = await vscode.commands.executeCommand<string>("acpThreads.spawn", {
    agentId: "fake",
    task: "",
    mode: "session",
    cwd,
    worktree: true,
  });
  assert.ok(id, "the spawn command returned a thread id");
  const s = hub.live.get(id)!;
  await waitFor("the session to be idle", () => s.status === "idle" && s.sessionId);
  return s;
}

/**
 * For the enclosing describe: the fake agent under approve-all and a git repository (`<tmp>/repo`, branch main;
 * `<under()>/<prefix>…/repo` with `under`, e.g. inside the workspace folder) seeded with `files` in one commit;
 * everything is put back and removed after. Read `.repo` inside a test.
 */
export function seededRepo(
  prefix: string,
  files: Record<string, string>,
  opts: { under?: () => string } = {},
): { readonly repo: string } {
  const seeded = { repo: "" };
  let dir = "";
  const cfg = () => vscode.workspace.getConfiguration("acpThreads");
  before(async () => {
    await useFakeAgent();
    await cfg().update("permissionMode", "approve-all", vscode.ConfigurationTarget.Global);
    dir = realpathSync(mkdtempSync(join(opts.under?.() ?? tmpdir(), prefix)));
    seeded.repo = join(dir, "repo");
    mkdirSync(seeded.repo);
    git(seeded.repo, "init", "-q", "-b", "main");
    for (const [name, text] of Object.entries(files)) writeFileSync(join(seeded.repo, name), text);
    git(seeded.repo, "add", "-A");
    git(seeded.repo, "commit", "-qm", "seed");
  });
  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await cfg().update("permissionMode", undefined, vscode.ConfigurationTarget.Global);
    rmSync(dir, { recursive: true, force: true });
  });
  return seeded;
}

/**
 * "Best of N" of two fake-agent candidates in `repo`, each writing made.txt (its check: the file is there): both
 * done, each in a worktree of its own with that one file changed and its check passed.
 */
export async function bestOfTwo(repo: string): Promise<{ view: CompareView; summaries: CandidateSummary[] }> {
  const out = await vscode.commands.executeCommand<{ view: CompareView; summaries: CandidateSummary[] }>(
    "acpThreads.bestOfN",
    { agents: ["fake"], runs: 2, prompt: "terminal echo hello > made.txt", check: "test -f made.txt", cwd: repo },
  );
  assert.ok(out, "the command returned the comparison");
  assert.equal(out.summaries.length, 2);
  assert.equal(new Set(out.summaries.map((s) => s.worktree?.path)).size, 2, "each candidate had a worktree of its own");
  for (const s of out.summaries) {
    assert.equal(s.status, "done", s.error);
    assert.deepEqual(
      s.files.map((f) => f.path),
      ["made.txt"],
    );
    assert.equal(s.check?.exitCode, 0);
    assert.equal(readFileSync(join(s.worktree!.path, "made.txt"), "utf8"), "hello\n");
  }
  assert.equal(out.view.state.running, false);
  assert.ok(out.view.state.rows.every((r) => r.status === "done" && r.files.length === 1 && r.check?.exitCode === 0));
  return out;
}

/**
 * The compare view's Apply on the first of `bestOfTwo`'s candidates (its file reaches `repo`), then Discard the
 * others: the second's worktree is removed and its thread forgets it; the first keeps its worktree.
 */
export async function applyFirstDiscardOther(
  repo: string,
  { view, summaries }: { view: CompareView; summaries: CandidateSummary[] },
): Promise<void> {
  const { hub } = await api();
  const [win, other] = summaries;
  await view.act({ type: "apply", threadId: win!.threadId! }, { yes: true });
  assert.equal(readFileSync(join(repo, "made.txt"), "utf8"), "hello\n", "the winner's file reached the workspace");
  assert.equal(view.row(win!.label)?.outcome, "applied");
  await view.act({ type: "discardOthers", threadId: win!.threadId! }, { yes: true });
  assert.equal(view.row(other!.label)?.outcome, "discarded");
  assert.equal(existsSync(other!.worktree!.path), false, "the other worktree is gone");
  assert.ok(existsSync(win!.worktree!.path), "the applied one stays until discarded");
  assert.equal(hub.threads.read(other!.threadId!).metadata.worktree, null, "the discarded one's thread forgot it");
}
