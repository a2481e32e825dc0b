import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
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
    assert.deepEqual(await notes.listAsync("t1"), []);
    await notes.save("t1", [note("a"), note("b", { sentAt: "2026-11-26T01:00:00.000Z" })]);
    assert.equal(notes.fileOf("t1"), `${dir}/t1.assets/review.json`);
    assert.equal(statSync(notes.fileOf("t1")).mode & 0o777, 0o600);
    assert.deepEqual(await notes.listAsync("t1"), [note("a"), note("b", { sentAt: "2026-11-26T01:00:00.000Z" })]);
    assert.deepEqual(await notes.listAsync("t2"), []);
  }));

test("a file that does not read back is refused, and set aside (not overwritten) by the next save", () =>
  withTmpDir("review-notes-", async (dir) => {
    const notes = new ReviewNotes(dir);
    mkdirSync(dirname(notes.fileOf("t1")), { recursive: true });
    writeFileSync(notes.fileOf("t1"), '{"version":1,"notes":[{"id":1}]}');
    await assert.rejects(notes.listAsync("t1"), /is not a review comments file of this version/);
    await notes.save("t1", [note("a")]);
    assert.deepEqual(await notes.listAsync("t1"), [note("a")]);
    const aside = readdirSync(dirname(notes.fileOf("t1"))).filter((n) => n.startsWith("review.json.unreadable-"));
    assert.equal(aside.length, 1);
    assert.equal(
      readFileSync(`${dirname(notes.fileOf("t1"))}/${aside[0]}`, "utf8"),
      '{"version":1,"notes":[{"id":1}]}',
    );
  }));

test("changes asked at once are read and written one at a time, in order; a list waits for them", () =>
  withTmpDir("review-notes-", async (dir) => {
    const notes = new ReviewNotes(dir);
    const ids = ["a", "b", "c", "d", "e", "f", "g", "h"];
    const told: unknown[] = [];
    const adds = ids.map((id) =>
      notes.update(
        "t1",
        (all) => [...all, note(id)],
        (err) => told.push(err),
      ),
    );
    const edit = notes.update("t1", (all) => all.map((n) => (n.id === "c" ? { ...n, body: "edited" } : n)));
    const drop = notes.update("t1", (all) => all.filter((n) => n.id !== "a"));
    const listed = notes.listAsync("t1");
    const other = notes.update("t2", () => [note("z")]);
    assert.deepEqual(
      (await listed).map((n) => [n.id, n.body]),
      ids.slice(1).map((id) => [id, id === "c" ? "edited" : "rename this"]),
      "every change before the list, none lost",
    );
    assert.deepEqual(
      (await Promise.all(adds)).map((all) => all.length),
      [1, 2, 3, 4, 5, 6, 7, 8],
    );
    assert.equal((await edit).length, 8);
    assert.equal((await drop).length, 7);
    assert.deepEqual(await other, [note("z")]);
    assert.deepEqual(told, [], "nothing unreadable");
    assert.deepEqual(readdirSync(dirname(notes.fileOf("t1"))), ["review.json"], "no temporary file left");
    assert.equal(statSync(notes.fileOf("t1")).mode & 0o777, 0o600);
  }));

test("an unreadable file is set aside once, told once, and the change starts from none", () =>
  withTmpDir("review-notes-", async (dir) => {
    const notes = new ReviewNotes(dir);
    mkdirSync(dirname(notes.fileOf("t1")), { recursive: true });
    writeFileSync(notes.fileOf("t1"), "not json");
    const told: string[] = [];
    const tell = (err: unknown) => void told.push(String(err));
    await Promise.all([
      notes.update("t1", (all) => [...all, note("a")], tell),
      notes.update("t1", (all) => [...all, note("b")], tell),
    ]);
    assert.equal(told.length, 1);
    assert.deepEqual(
      (await notes.listAsync("t1")).map((n) => n.id),
      ["a", "b"],
    );
    const names = readdirSync(dirname(notes.fileOf("t1"))).sort();
    assert.equal(names.length, 2);
    assert.match(names[1]!, /^review\.json\.unreadable-/);
    assert.equal(readFileSync(join(dirname(notes.fileOf("t1")), names[1]!), "utf8"), "not json");
  }));
