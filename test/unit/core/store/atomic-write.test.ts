/** Whole-file writes, synchronous and on the thread pool: the file is whole or untouched, 0600, no tmp left behind. */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { writeFileAtomic, writeFileAtomicAsync } from "../../../../src/core/store/atomic-write";

const fresh = () => mkdtempSync(join(tmpdir(), "atomic-write-"));

for (const [name, write] of [
  ["writeFileAtomic", async (p: string, d: string) => writeFileAtomic(p, d)],
  ["writeFileAtomicAsync", writeFileAtomicAsync],
] as const) {
  test(`${name} replaces a file whole, creates its folders, 0600, and leaves no temporary file`, async () => {
    const dir = fresh();
    const path = join(dir, "a", "b", "state.json");
    await write(path, "one");
    await write(path, "two ✓");
    assert.equal(readFileSync(path, "utf8"), "two ✓");
    if (process.platform !== "win32") assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(join(dir, "a", "b")), ["state.json"]);
  });
}

test("writeFileAtomicAsync that cannot rename into place leaves what was there and no temporary file", async () => {
  const dir = fresh();
  const path = join(dir, "target");
  mkdirSync(path);
  writeFileSync(join(path, "kept"), "old"); // a folder where the file goes: the rename fails
  await assert.rejects(writeFileAtomicAsync(path, "new"), /EISDIR|ENOTEMPTY|EEXIST|EPERM/);
  assert.equal(readFileSync(join(path, "kept"), "utf8"), "old");
  assert.deepEqual(readdirSync(dir), ["target"]);
});
