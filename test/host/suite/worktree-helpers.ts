// What the worktree host tests share: git with a test identity, a fake-agent session in a new worktree, a turn.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as vscode from "vscode";
import type { LiveSession } from "../../../src/vscode/live-session";
import { api, waitFor } from "./helpers";

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
