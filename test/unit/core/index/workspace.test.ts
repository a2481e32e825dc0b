/** The sessions view's workspace filter in SQL: below the folder, with Windows drive letters and case. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { workspaceClause } from "../../../../src/core/index/threads-index";
import { platformOf } from "../../../../src/core/platform/host";

const { Database } = require("node-sqlite3-wasm") as typeof import("node-sqlite3-wasm");

function matching(rows: [string, string | null][], workspace: string, os: NodeJS.Platform): string[] {
  const db = new Database();
  try {
    db.exec("CREATE TABLE threads (cwd TEXT, repo_root TEXT)");
    for (const [cwd, root] of rows) db.run("INSERT INTO threads VALUES (?, ?)", [cwd, root]);
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
