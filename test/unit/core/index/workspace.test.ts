/**
 * The sessions view's and `threads list`'s workspace filter in SQL: below the folder, with Windows drive letters
 * and case; a worktree thread (#25) by the repository it was made from.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { workspaceClause } from "../../../../src/core/index/threads-index";
import { platformOf } from "../../../../src/core/platform/host";

const { Database } = require("node-sqlite3-wasm") as typeof import("node-sqlite3-wasm");

function matching(rows: [string, string | null, string?][], workspace: string, os: NodeJS.Platform): string[] {
  const db = new Database();
  try {
    db.exec("CREATE TABLE threads (cwd TEXT, repo_root TEXT, state TEXT)");
    for (const [cwd, root, worktreeRepo] of rows) {
      const state = JSON.stringify({ cwd, worktree: worktreeRepo ? { path: cwd, repo: worktreeRepo } : null });
      db.run("INSERT INTO threads VALUES (?, ?, ?)", [cwd, root, state]);
    }
    const { sql, params } = workspaceClause(workspace, platformOf(os));
    return (db.all(`SELECT cwd FROM threads WHERE ${sql}`, params) as { cwd: string }[]).map((r) => r.cwd);
  } finally {
    db.close();
  }
}

test("Windows: a lowercase-drive workspace (VS Code's fsPath) finds threads the CLI started under C:\\", () => {
  const rows: [string, string | null][] = [
    ["C:\\Work\\app", null],
    ["C:\\Work\\app\\pkg", null],
    ["C:\\Work\\application", null],
    ["D:\\Work\\app", null],
    ["C:\\elsewhere", "C:\\Work\\app"],
  ];
  assert.deepEqual(matching(rows, "c:\\work\\app\\", "win32"), [
    "C:\\Work\\app",
    "C:\\Work\\app\\pkg",
    "C:\\elsewhere",
  ]);
});

test("POSIX: below the folder, case kept", () => {
  const rows: [string, string | null][] = [
    ["/w/app", null],
    ["/w/app/pkg", null],
    ["/w/application", null],
    ["/w/App", null],
  ];
  assert.deepEqual(matching(rows, "/w/app/", "linux"), ["/w/app", "/w/app/pkg"]);
});

test("a worktree thread belongs to the workspace of its repository (or a folder holding it), not to its siblings", () => {
  const rows: [string, string | null, string?][] = [
    ["/w/.app.worktrees/wt-1", "/w/.app.worktrees/wt-1", "/w/app"],
    ["/w/.app.worktrees/wt-1/pkg", "/w/.app.worktrees/wt-1", "/w/app"],
    ["/w/.application.worktrees/wt-2", "/w/.application.worktrees/wt-2", "/w/application"],
    ["/w/.app.worktrees/wt-3", "/w/.app.worktrees/wt-3"], // discarded: `worktree: null`
  ];
  assert.deepEqual(matching(rows, "/w/app", "linux"), ["/w/.app.worktrees/wt-1", "/w/.app.worktrees/wt-1/pkg"]);
  assert.deepEqual(matching([["D:\\w\\.app.worktrees\\wt", null, "C:\\W\\App"]], "c:\\w\\app", "win32"), [
    "D:\\w\\.app.worktrees\\wt",
  ]);
});
