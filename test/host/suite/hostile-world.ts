// The hostile agent's world for the host tests of the OS sandbox (#34, #35): a home with a planted key, a workspace
// with a symlink to that home, a temp folder of the agent's own; the agent configured as "hostile" with that HOME
// and TMPDIR in its env (the extension host's HOME is the real one).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import { repoRoot } from "./helpers";

export const HOSTILE = () => join(repoRoot(), "dist-test/fixtures/fake-agents/hostile-agent.main.js");
export const canSandbox =
  process.platform === "linux" && spawnSync("bwrap", ["--ro-bind", "/", "/", "true"]).status === 0;
const cfg = () => vscode.workspace.getConfiguration("acpThreads");

export interface World {
  dir: string;
  home: string;
  ws: string;
  tmp: string;
}

/** A home with a planted key, a workspace with a symlink to that home, a temp folder of the agent's own. */
export function world(): World {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "acp-host-sbx-")));
  const home = join(dir, "home");
  const ws = join(dir, "ws");
  const tmp = join(dir, "tmp");
  for (const d of [home, ws, tmp, join(home, ".ssh")]) mkdirSync(d, { recursive: true });
  writeFileSync(join(home, ".ssh", "id_ed25519"), "PRIVATE KEY");
  symlinkSync(home, join(ws, "home-link"));
  return { dir, home, ws, tmp };
}

/** The hostile agent as "hostile", its HOME and TMPDIR the world's (and PATH, when given). */
export async function useHostile(w: World, path?: string): Promise<void> {
  const env = { ELECTRON_RUN_AS_NODE: "1", HOME: w.home, TMPDIR: w.tmp, ...(path ? { PATH: path } : {}) };
  await cfg().update(
    "agents",
    { hostile: { command: process.execPath, args: [HOSTILE()], env, displayName: "Hostile" } },
    vscode.ConfigurationTarget.Global,
  );
  await cfg().update("permissionMode", "approve-all", vscode.ConfigurationTarget.Global);
}
