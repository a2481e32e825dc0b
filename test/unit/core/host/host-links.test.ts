// #35, host parity item 6: a fork or a handoff of a thread the thread host runs is listed in its source at once. The
// store cannot write the source (the host's run holds its lock), so the client asks the host (`patch` with `forks` /
// `handedOffTo`), against the real host, its real run path (the CLI's) and the real stdio fake agent mid-turn. The
// host appends the links (never replacing the lists) through the run's handle. Hostile: an unknown field, a
// malformed id, a thread that does not name this source (none, another source, the other kind of link, no such
// thread), 10,000 ids, a `__proto__` key, and a good link beside a bad one: each refused, and nothing is written.
// `acp-threads fork` and `acp-threads handoff` of the held source are listed through the host too.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { main as forkMain } from "../../../../src/cli/commands/fork";
import { main as handoffMain } from "../../../../src/cli/commands/handoff";
import { writeFork } from "../../../../src/core/handoff/fork";
import { linkHandoff } from "../../../../src/core/handoff/link";
import type { HostConnection } from "../../../../src/core/host/client";
import { nullLogger } from "../../../../src/core/log";
import type { ThreadRecord } from "../../../../src/core/model/records";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { FAKE_AGENT } from "../../../fixtures/cli/spawn-cli";
import { withCliHostClients } from "../../../fixtures/host/cli-host";
import { waitFor } from "../../../fixtures/spawner/wait";
import { runCommand } from "../../cli/in-process";
import { startInput } from "../store/helpers";

/** The link lists the thread's file patched, in order (what the host wrote, whatever the metadata folds to). */
const linkPatches = (path: string) =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ThreadRecord)
    .flatMap((r) => (r.kind === "meta_patch" && ("forks" in r.patch || "handedOffTo" in r.patch) ? [r.patch] : []));

const patch = (c: HostConnection, threadId: string, p: unknown) =>
  c.request({ t: "patch", threadId, patch: p } as never);

test("a fork and a handoff of a thread the host runs are listed in it by the host; links it cannot trust are refused, nothing written", () =>
  withCliHostClients("acp-host-links-", async ({ dir, home, client, sleepingRun }) => {
    const window = await client("a window");
    const source = await sleepingRun(window);
    const store = new ThreadStore(home, { logger: nullLogger });
    await waitFor(
      () => store.read(source).records.some((r) => r.kind === "agent_message" && r.text.includes("sleeping")),
      "the turn runs",
    );

    // what the window did before: the store cannot list the fork in the held source
    const fork = writeFork(store, source, 1);
    assert.match(fork.unlinked ?? "", /already being written/);
    assert.equal((await patch(window, source, { forks: [fork.threadId] })).t, "ok");
    assert.deepEqual(store.readMetadata(source).forks, [fork.threadId], "listed at once");

    const to = store.create(startInput(dir, { origin: { kind: "handoff", source } }));
    to.close();
    assert.match(linkHandoff(store, source, to.threadId) ?? "", /already being written/);
    assert.equal((await patch(window, source, { handedOffTo: [to.threadId] })).t, "ok");
    assert.deepEqual(store.readMetadata(source).handedOffTo, [to.threadId]);

    // appended, never replacing: a second fork joins the first, one already listed is not listed twice
    const second = writeFork(store, source, 1);
    assert.equal((await patch(window, source, { forks: [second.threadId, fork.threadId] })).t, "ok");
    assert.deepEqual(store.readMetadata(source).forks, [fork.threadId, second.threadId]);
    assert.equal((await patch(window, source, { forks: [fork.threadId] })).t, "ok");
    const path = store.pathFor(source);
    const written = linkPatches(path);
    assert.equal(written.length, 3, "nothing written for a link already listed");

    // threads that do not name this source
    const plain = store.create(startInput(dir));
    plain.close();
    const elsewhere = store.create(startInput(dir, { origin: { kind: "fork", source: plain.threadId } }));
    elsewhere.close();
    const third = writeFork(store, source, 1); // a real fork of the source, not listed yet
    const bad: [string, unknown, RegExp][] = [
      ["an unknown field", { forks: [third.threadId], status: "ended" }, /only the title, forks and handedOffTo/],
      ["a field of the metadata", { tags: ["runs:host"] }, /only the title, forks and handedOffTo/],
      ["a malformed id", { forks: ["../../etc/passwd"] }, /is not a thread id/],
      ["an id that is not a string", { forks: [42] }, /is not a thread id/],
      ["not a list", { forks: third.threadId }, /not a list/],
      ["an empty list", { handedOffTo: [] }, /names no thread/],
      ["a thread with no origin", { forks: [plain.threadId] }, /is not a fork of/],
      ["a fork of another thread", { forks: [elsewhere.threadId] }, /is not a fork of/],
      ["a handoff listed as a fork", { forks: [to.threadId] }, /is not a fork of/],
      ["a fork listed as a handoff", { handedOffTo: [third.threadId] }, /is not a handoff of/],
      ["no such thread", { forks: ["01900000-0000-7000-8000-000000000000"] }, /is not a fork of/],
      ["10,000 ids", { forks: Array.from({ length: 10_000 }, () => third.threadId) }, /more than 16/],
      ["a __proto__ key", JSON.parse(`{"__proto__": ["${third.threadId}"]}`), /only the title, forks and handedOffTo/],
      ["a good link beside a bad one", { forks: [third.threadId, plain.threadId] }, /is not a fork of/],
      ["a good title beside a bad link", { title: "x", handedOffTo: [plain.threadId] }, /is not a handoff of/],
    ];
    const wrong: string[] = [];
    for (const [what, p, why] of bad)
      await patch(window, source, p).then(
        () => wrong.push(`${what}: taken`),
        (err: Error) => void (why.test(err.message) || wrong.push(`${what}: ${err.message}`)),
      );
    assert.deepEqual(wrong, [], "each hostile patch refused, for its reason");
    assert.deepEqual(linkPatches(path), written, "nothing refused was written");
    const meta = store.readMetadata(source);
    assert.deepEqual([meta.forks, meta.handedOffTo], [[fork.threadId, second.threadId], [to.threadId]]);
    assert.notEqual(meta.title, "x");
    assert.deepEqual(Object.getPrototypeOf(meta), Object.prototype);

    // a thread the host does not hold is not the host's to patch (the store writes it)
    await assert.rejects(patch(window, plain.threadId, { forks: [elsewhere.threadId] }), /does not hold/);
    assert.deepEqual(store.readMetadata(plain.threadId).forks, []);

    // `acp-threads fork` of the held source: the CLI asks the host too
    const byCli = await runCommand(forkMain, [source, "--at", "1", "--format", "json"], { home });
    assert.equal(byCli.code, 0, byCli.err);
    const cliFork = JSON.parse(byCli.out) as { threadId: string; linked: boolean };
    assert.equal(cliFork.linked, true, byCli.err);
    assert.deepEqual(store.readMetadata(source).forks, [fork.threadId, second.threadId, cliFork.threadId]);

    // `acp-threads handoff` of the held source: listed through the host too (before, only the new side linked)
    const handedOff = await runCommand(
      handoffMain,
      [source, "--agent", FAKE_AGENT, "--stall-timeout", "0", "--retry", "off"],
      { home, cwd: dir },
    );
    assert.equal(handedOff.code, 0, handedOff.err);
    const toId = /new thread (\S+)/.exec(handedOff.err)?.[1] ?? "";
    assert.ok(toId, handedOff.err);
    assert.doesNotMatch(handedOff.err, /does not list/);
    assert.deepEqual(store.readMetadata(source).handedOffTo, [to.threadId, toId]);
    await window.request({ t: "cancel", threadId: source });
  }));
