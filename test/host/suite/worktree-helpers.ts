// What the worktree host tests share: git with a test identity, a fake-agent session in a new worktree, a turn.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import type { LiveSession } from "../../../src/vscode/live-session";
import { api, useFakeAgent, waitFor } from "./helpers";

export const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd, encoding: "utf8" });

export async function turn(s: LiveSession, text: string): Promise<void> {
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
