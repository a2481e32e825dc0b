/** Windows-only failure modes: a briefly locked rename target, signals that do not exist there. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { renameReplacing, renameReplacingAsync } from "../../../../src/core/platform/fs";
import { platformOf } from "../../../../src/core/platform/host";
import { canSignal } from "../../../../src/core/platform/process-tree";

const locked = (code: string, times: number) => {
  let calls = 0;
  const rename = (_from?: string, _to?: string) => {
    calls++;
    if (calls <= times) throw Object.assign(new Error(`${code}: operation not permitted, rename`), { code });
  };
  return { rename, calls: () => calls };
};

test("Windows retries a rename while another process holds the target; POSIX fails at once", () => {
  const win = locked("EPERM", 2);
  renameReplacing("a.tmp", "a", platformOf("win32"), win.rename);
  assert.equal(win.calls(), 3);
  const linux = locked("EPERM", 2);
  assert.throws(() => renameReplacing("a.tmp", "a", platformOf("linux"), linux.rename), /EPERM/);
  assert.equal(linux.calls(), 1);
  const gone = locked("ENOENT", 5);
  assert.throws(() => renameReplacing("a.tmp", "a", platformOf("win32"), gone.rename), /ENOENT/, "not transient");
  assert.equal(gone.calls(), 1);
  const stuck = locked("EBUSY", 1_000);
  assert.throws(() => renameReplacing("a.tmp", "a", platformOf("win32"), stuck.rename, 50), /EBUSY/, "gives up");
  assert.ok(stuck.calls() > 1);
});

test("the thread-pool rename retries as the synchronous one does, without blocking the caller's thread", async () => {
  const asAsync = (l: ReturnType<typeof locked>) => async (a: string, b: string) => l.rename(a, b);
  const win = locked("EBUSY", 2);
  await renameReplacingAsync("a.tmp", "a", platformOf("win32"), asAsync(win));
  assert.equal(win.calls(), 3);
  const linux = locked("EPERM", 2);
  await assert.rejects(renameReplacingAsync("a.tmp", "a", platformOf("linux"), asAsync(linux)), /EPERM/);
  assert.equal(linux.calls(), 1);
  const stuck = locked("EACCES", 1_000);
  await assert.rejects(renameReplacingAsync("a.tmp", "a", platformOf("win32"), asAsync(stuck), 50), /EACCES/);
  assert.ok(stuck.calls() > 1);
});

test("Windows delivers only the signals that end a process tree (C-z has no equivalent there)", () => {
  const win = platformOf("win32");
  assert.equal(canSignal("SIGINT", win), true);
  assert.equal(canSignal("SIGTERM", win), true);
  assert.equal(canSignal("SIGTSTP", win), false);
  assert.equal(canSignal("SIGCONT", win), false);
  assert.equal(canSignal("SIGTSTP", platformOf("darwin")), true);
});
