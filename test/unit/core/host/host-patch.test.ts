// #35: renaming a thread the thread host holds (a client's `patch`, `acp-threads threads rename`), against the real host, its real run path (the CLI's) and the real
// stdio fake agent mid-turn. The store cannot write the thread (the host's run holds its lock); the host's `patch`
// writes the title through the run's own handle: the meta_patch record is in the file, the stored title is the new
// one, and another attached client gets the record. Hostile: any field but the title, a title that is not a string,
// too long or on more than one line, a thread the host does not hold (stored, or unknown) and a run that ended are
// refused, and nothing is written for them.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { main as threadsMain } from "../../../../src/cli/commands/threads";
import { PATCH_TITLE_MAX } from "../../../../src/core/host/protocol";
import { nullLogger } from "../../../../src/core/log";
import type { ThreadRecord } from "../../../../src/core/model/records";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { withCliHostClients } from "../../../fixtures/host/cli-host";
import { waitFor } from "../../../fixtures/spawner/wait";
import { runCommand } from "../../cli/in-process";
import { startInput } from "../store/helpers";

const titles = (records: ThreadRecord[]) =>
  records.flatMap((r) => (r.kind === "meta_patch" && "title" in r.patch ? [r.patch.title] : []));
const fileTitles = (path: string) =>
  titles(
    readFileSync(path, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as ThreadRecord),
  );

test("a client renames a thread the host runs mid-turn: written by the host, in the file, told to every client; anything else is refused", () =>
  withCliHostClients("acp-host-patch-", async ({ dir, home, client, sleepingRun }) => {
    const window = await client("a window");
    const threadId = await sleepingRun(window);
    const other = await client("another client");
    const seen: ThreadRecord[] = [];
    let ended = false;
    other.onPush((m) => {
      if (m.t === "records") seen.push(...m.records);
      if (m.t === "ended") ended = true;
    });
    await other.request({ t: "attach", threadId, from: 0 });
    await waitFor(() => seen.some((r) => r.kind === "agent_message" && r.text.includes("sleeping")), "the turn runs");

    const store = new ThreadStore(home, { logger: nullLogger });
    const path = store.pathFor(threadId);
    // what the window did before: the store's own write, refused while the host's run holds the thread
    assert.throws(() => store.rename(threadId, "by the store"), /already being written/);

    const earlier = fileTitles(path); // the first prompt's title
    assert.equal((await window.request({ t: "patch", threadId, patch: { title: "Renamed mid-turn" } })).t, "ok");
    assert.deepEqual(fileTitles(path), [...earlier, "Renamed mid-turn"]);
    const meta = store.readMetadata(threadId);
    assert.equal(meta.title, "Renamed mid-turn");
    assert.equal(meta.titleByUser, true);
    await waitFor(() => titles(seen).includes("Renamed mid-turn"), "the other client gets the record");

    // `acp-threads threads rename` of the held thread: the store refuses it, the host writes it
    const renamed = await runCommand(threadsMain, ["rename", threadId, "By", "the", "CLI"], { home });
    assert.equal(renamed.code, 0, renamed.err);
    assert.equal(store.readMetadata(threadId).title, "By the CLI");
    await waitFor(() => titles(seen).includes("By the CLI"), "the other client gets the CLI's rename");
    const written = [...earlier, "Renamed mid-turn", "By the CLI"];

    // hostile or invalid: refused, nothing written
    const bad: [unknown, RegExp][] = [
      [{ title: "x", status: "ended" }, /only the title/],
      // a link the host takes only to a thread that names this one as its fork source (host-links.test.ts)
      [{ forks: ["00000000-0000-4000-8000-000000000000"] }, /is not a fork of/],
      [{ title: "x", titleByUser: false }, /only the title/],
      [{}, /changes nothing/],
      [{ title: 42 }, /not a string/],
      [{ title: "x".repeat(PATCH_TITLE_MAX + 1) }, /longer than/],
      [{ title: "two\nlines" }, /control characters/],
      [["title"], /not an object/],
      [null, /not an object/],
    ];
    for (const [patch, why] of bad)
      await assert.rejects(window.request({ t: "patch", threadId, patch } as never), why, JSON.stringify(patch));
    // a thread the host does not hold: a stored one (the host must not become a way to write any thread) and none
    const h = store.create(startInput(dir, { title: "stored" }));
    const storedId = h.threadId;
    h.close();
    const before = readFileSync(store.pathFor(storedId), "utf8");
    await assert.rejects(window.request({ t: "patch", threadId: storedId, patch: { title: "x" } }), /does not hold/);
    assert.equal(readFileSync(store.pathFor(storedId), "utf8"), before);
    await assert.rejects(window.request({ t: "patch", threadId: "../../etc", patch: { title: "x" } }), /does not hold/);
    assert.deepEqual(fileTitles(path), written, "nothing refused was written");

    // null clears the user's title (the agent's titles apply again), as the store's rename does
    assert.equal((await window.request({ t: "patch", threadId, patch: { title: null } })).t, "ok");
    assert.equal(store.readMetadata(threadId).titleByUser, false);

    await window.request({ t: "cancel", threadId });
    await waitFor(() => ended, "the run ends");
    await assert.rejects(window.request({ t: "patch", threadId, patch: { title: "late" } }), /does not hold|ended/);
    // the run let the thread go: the store writes it again
    store.rename(threadId, "after the run");
    assert.equal(store.readMetadata(threadId).title, "after the run");
  }));
