// The folders a thread records for its sessions (thread/folders.ts, #35): what a session that opens adds, and how the
// recorded field (data from disk) is read back: only plain absolute folders, never a file system root.
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { foldersPatch, recordedFolders } from "../../../../src/core/thread/folders";
import { withTmp } from "../store/helpers";

test("a session adds its folders once they reach beyond the thread's cwd; a later one adds its own", async () => {
  assert.deepEqual(await foldersPatch({ cwd: "/w/a" }, undefined), {}, "a runtime that says no roots: nothing");
  assert.deepEqual(await foldersPatch({ cwd: "/w/a" }, ["/w/a"]), {}, "only its cwd: nothing recorded");
  assert.deepEqual(await foldersPatch({ cwd: "/w/a" }, ["/w/a", "/w/b"]), { folders: ["/w/a", "/w/b"] });
  assert.deepEqual(
    await foldersPatch({ cwd: "/w/a", folders: ["/w/a", "/w/b"] }, ["/w/b", "/w/a"]),
    {},
    "known already",
  );
  assert.deepEqual(
    await foldersPatch({ cwd: "/w/a", folders: ["/w/a", "/w/b"] }, ["/w/a", "/w/c/../d"]),
    { folders: ["/w/a", "/w/b", "/w/d"] },
    "a resumed session in another window adds its folders, normalized",
  );
  assert.deepEqual(
    await foldersPatch({ cwd: "/w/a" }, ["/w/a", "/", "rel"]),
    {},
    "a root or a relative folder is never recorded",
  );
});

test("hostile: recorded folders are taken only when plain and absolute, and not a file system root", () => {
  assert.deepEqual(recordedFolders({}), { folders: [], ignored: [] }, "an older thread: none");
  const read = recordedFolders({ folders: ["/w/a", "/", "rel", "/w/../etc", "/w/a", "", "/w//b"] });
  assert.deepEqual(read.folders, ["/w/a"]);
  assert.deepEqual(
    read.ignored.map((i) => [i.folder, i.why]),
    [
      ["/", "a file system root"],
      ["rel", "not an absolute path"],
      ["/w/../etc", "not a plain path (a `.` or `..` segment, a doubled separator)"],
      ["", "not a path"],
      ["/w//b", "not a plain path (a `.` or `..` segment, a doubled separator)"],
    ],
  );
  const garbage = recordedFolders({ folders: "/" as unknown as string[] });
  assert.deepEqual(garbage, { folders: [], ignored: [{ folder: "/", why: "not a list" }] });
});

test("a root reached through a link is recorded with its real path too (the ledger records files by it)", () =>
  withTmp(async (dir) => {
    const [ws, real, link] = ["ws", "real", "link"].map((f) => join(dir, f));
    mkdirSync(ws);
    mkdirSync(real);
    symlinkSync(real, link);
    assert.deepEqual(await foldersPatch({ cwd: ws }, [ws, link]), { folders: [ws, link, real] });
  }));
