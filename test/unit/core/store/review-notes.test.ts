import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { test } from "node:test";
import { ReviewNotes, type ReviewNote } from "../../../../src/core/store/review-notes";
import { withTmpDir } from "../../../fixtures/fake-agents/tmp-dir";

const note = (id: string, extra: Partial<ReviewNote> = {}): ReviewNote => ({
  id,
  group: "g1",
  path: "/ws/a.ts",
  start: 2,
  end: 3,
  body: "rename this",
  quote: "const x = 1;\nconst y = 2;",
  createdAt: "2026-11-26T00:00:00.000Z",
  ...extra,
});

test("review comments are kept beside the thread (0600) and read back", () =>
  withTmpDir("review-notes-", async (dir) => {
    const notes = new ReviewNotes(dir);
    assert.deepEqual(notes.list("t1"), []);
    notes.save("t1", [note("a"), note("b", { sentAt: "2026-11-26T01:00:00.000Z" })]);
    assert.equal(notes.fileOf("t1"), `${dir}/t1.assets/review.json`);
    assert.equal(statSync(notes.fileOf("t1")).mode & 0o777, 0o600);
    assert.deepEqual(notes.list("t1"), [note("a"), note("b", { sentAt: "2026-11-26T01:00:00.000Z" })]);
    assert.deepEqual(notes.list("t2"), []);
  }));

test("a file that does not read back is refused, and set aside (not overwritten) by the next save", () =>
  withTmpDir("review-notes-", async (dir) => {
    const notes = new ReviewNotes(dir);
    mkdirSync(dirname(notes.fileOf("t1")), { recursive: true });
    writeFileSync(notes.fileOf("t1"), '{"version":1,"notes":[{"id":1}]}');
    assert.throws(() => notes.list("t1"), /is not a review comments file of this version/);
    notes.save("t1", [note("a")]);
    assert.deepEqual(notes.list("t1"), [note("a")]);
    const aside = readdirSync(dirname(notes.fileOf("t1"))).filter((n) => n.startsWith("review.json.unreadable-"));
    assert.equal(aside.length, 1);
    assert.equal(
      readFileSync(`${dirname(notes.fileOf("t1"))}/${aside[0]}`, "utf8"),
      '{"version":1,"notes":[{"id":1}]}',
    );
  }));
