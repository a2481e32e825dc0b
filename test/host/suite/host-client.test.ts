// Issue 35 item 1 in the real extension host: the window as a client of the thread host. A thread started by
// `acp-threads run --detach --permission ask` shows as a live row ("waiting for input" while its question waits);
// its panel follows it from the host (the whole thread, then live, nothing lost or doubled); the question is the
// panel's inline card, answered first by a CLI `acp-threads answer` process: the card closes naming it; a prompt
// typed in the panel goes to the host and runs there; a reopened panel reattaches with the same transcript.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import * as vscode from "vscode";
import { hostPlace } from "../../../src/core/host/door";
import type { RuntimeEvent } from "../../../src/core/model/events";
import { threadRef } from "../../../src/core/prompt/refs";
import { api, useFakeAgent, waitFor, workspaceRoot, writePastThread } from "./helpers";
import { cli, detach, hostedNode, sendNewInHost } from "./host-cli";
import { canSandbox, useHostile, world } from "./hostile-world";

/** `run --detach` of the fake agent with `args`, its thread open in a panel following the host: its id and view. */
async function detachedInPanel(args: string[]) {
  const { hub } = await api();
  const id = await detach(hub.home, args);
  try {
    await waitFor("the thread in the host", () => hub.hosted.rows().find((r) => r.threadId === id));
    await vscode.commands.executeCommand("acpThreads.openThread", id);
    return { id, view: await waitFor("the panel's view", () => hub.hosted.get(id)) };
  } catch (err) {
    await cli(hub.home, ["host", "stop", "--force"]);
    throw err;
  }
}

/**
 * A turn that ends when the test says (`end()`), not after a fixed sleep: a loaded machine may take longer than any
 * sleep to open the panel on the run (its view is gone once the run ended).
 */
function heldTurn(): { prompt: string; end: () => void } {
  const file = join(mkdtempSync(join(tmpdir(), "acp-host-client-")), "end");
  return { prompt: `until ${file}`, end: () => writeFileSync(file, "") };
}

const userTexts = (events: readonly RuntimeEvent[]) => events.flatMap((e) => (e.type === "user_text" ? [e.text] : []));

describe("the thread host's threads in the window", () => {
  afterEach(() => vscode.commands.executeCommand("workbench.action.closeAllEditors"));

  it("a detached thread is a live row, its panel follows it from the host; a CLI answer closes the card naming it", async () => {
    const { hub } = await api();
    const out = join(workspaceRoot(), "hosted.txt");
    const id = await detach(hub.home, ["--permission", "ask", `write ${out} from the host`, "sleep 4000"]);
    try {
      // the thread file appeared: the window looks for the host and lists its thread as live, waiting for input
      const row = await waitFor("the row waiting for input", async () => {
        const n = await hostedNode(id);
        const item = n && (await hub.tree.getTreeItem(n));
        return item && /waiting for input/.test(String(item.description)) ? item : undefined;
      });
      assert.equal(row.contextValue, "hosted-working", "a running turn (waiting for input) can be cancelled");
      await vscode.commands.executeCommand("acpThreads.openThread", id);
      const card = await waitFor("the question as the panel's card", () => hub.broker.pendingFor(id)[0]);
      assert.deepEqual(
        card.options.map((o) => o.optionId).slice(0, 3),
        ["yes", "always", "no"],
        "the agent's own options",
      );
      assert.ok(hub.panels.panelOf(id)?.hosted, "the panel follows the host");
      await waitFor("the transcript drawn", () => (hub.panels.rendered(id)?.entries ?? 0) > 0);
      // another client answers first: the card closes here and names it
      const answer = await cli(hub.home, ["answer", id, "--option", "allow"]);
      assert.equal(answer.code, 0, answer.stderr);
      await waitFor("the card to close", () => hub.broker.pendingFor(id).length === 0);
      const by = await waitFor("who answered", () => hub.panels.panelOf(id)?.shown.answeredBy);
      assert.match(by, /^acp-threads answer \(pid \d+\)$/);
      // created, then its text applied and saved through the window: read in between it is empty (failed so once)
      await waitFor(
        "the file the answer allowed, with its text",
        () => existsSync(out) && readFileSync(out, "utf8") !== "",
      );
      assert.equal(readFileSync(out, "utf8"), "from the host");
      // a prompt typed in the panel goes to the host, which runs it after the running turn
      const first = hub.hosted.get(id)!;
      await waitFor("the second turn", () => userTexts(first.events).includes("sleep 4000"));
      const posted: unknown[] = [];
      await hub.composer.handle(
        { threadId: id, post: (m) => posted.push(m) },
        { type: "send", parts: [{ type: "text", text: "typed in the panel" }] },
      );
      // the panel closed and opened again attaches anew from the start (the host sends the thread so far)
      hub.panels.get(id)?.dispose();
      assert.equal(hub.hosted.get(id), undefined, "the last user let the view go");
      await vscode.commands.executeCommand("acpThreads.openThread", id);
      const again = await waitFor("the reopened panel's view", () => hub.hosted.get(id));
      await waitFor(
        "the host's answer to the panel's prompt, live in the reopened panel",
        () => again.events.some((e) => e.type === "text" && e.text.includes("echo: typed in the panel")),
        30_000,
      ).catch((err: Error) => {
        const kinds = hub.threads.read(id).records.map((r) => r.kind);
        throw new Error(
          `${err.message}; posted ${JSON.stringify(posted)}; file ${kinds.join(",")}; seen ${again.events.length}`,
        );
      });
      await waitFor("the run in the host to end", () => again.ended, 30_000);
      // nothing lost or doubled: the panel's prompts are the thread file's, once each
      const stored = hub.threads.read(id).records.flatMap((r) => (r.kind === "user_message" ? [r.text] : []));
      assert.deepEqual(stored, [`write ${out} from the host`, "sleep 4000", "typed in the panel"]);
      assert.deepEqual(userTexts(again.events), stored);
    } finally {
      await cli(hub.home, ["host", "stop", "--force"]);
    }
  });

  it("with acpThreads.host.runSessions host, a new thread runs in the host; its question is this window's card", async () => {
    await useFakeAgent();
    const { hub } = await api();
    const cfg = vscode.workspace.getConfiguration("acpThreads");
    await cfg.update("host.runSessions", "host", vscode.ConfigurationTarget.Global);
    const out = join(workspaceRoot(), "in-host.txt");
    try {
      const draft = await vscode.commands.executeCommand<string>("acpThreads.spawn");
      await waitFor("the new thread's panel", () => hub.panels.get(draft));
      const posted: unknown[] = [];
      await hub.composer.handle(
        { threadId: draft, post: (m) => void posted.push(m) },
        {
          type: "send",
          parts: [{ type: "text", text: `write ${out} made in the host` }],
          agentId: "fake",
          mode: "session",
        },
      );
      const row = await waitFor("the thread in the host", () => hub.hosted.rows()[0]).catch((err: Error) => {
        throw new Error(`${err.message}; the panel got ${JSON.stringify(posted).slice(0, 600)}`);
      });
      assert.notEqual(row.threadId, draft, "the host's thread (the new-thread panel closed)");
      assert.equal(hub.live.get(row.threadId), undefined, "no session of it in this window");
      assert.equal(hub.panels.get(draft), undefined);
      await waitFor("its panel following the host", () => hub.panels.panelOf(row.threadId)?.hosted);
      const view = await waitFor("its view", () => hub.hosted.get(row.threadId));
      // the agent is named as configured here, not after its command ("node"); `hosted` is true from the start of
      // the panel's init, which draws the header once the stored thread is readable
      await waitFor("the panel's header", () => hub.panels.panelOf(row.threadId)?.shown.agent);
      assert.deepEqual(
        [hub.threads.read(row.threadId).metadata.agent.id, hub.panels.panelOf(row.threadId)?.shown.agent],
        ["fake", "Fake agent"],
      );
      await waitFor("the row naming the agent", async () => {
        const n = await hostedNode(row.threadId);
        return n && /^Fake agent · /.test(String((await hub.tree.getTreeItem(n)).description));
      });
      // approve-reads: the write is asked, here, on the panel's card (the editor's policy in the host)
      const card = await waitFor("the card", () => hub.broker.pendingFor(row.threadId)[0]);
      assert.ok(hub.broker.answer(card.requestId, "yes"), "what the card's Allow calls");
      // through this window: the new file is created, then its text applied and saved (an observer can see it empty
      // in between: the suite failed once reading it then)
      const written = () => (existsSync(out) ? readFileSync(out, "utf8") : undefined);
      await waitFor("the file's text", () => written() === "made in the host").catch((err: Error) => {
        throw new Error(`${err.message}; the file holds ${JSON.stringify(written())}`);
      });
      // the run stays open between prompts (its agent kept, as a window session's): idle, then Stop on its row ends it
      await waitFor("the panel idle after the turn", () => view?.status === "idle", 30_000);
      const idleRow = await waitFor("the row idle", async () => {
        const n = await hostedNode(row.threadId);
        return n?.status === "idle" ? n : undefined;
      });
      assert.ok(hub.hosted.get(row.threadId), "still held by the host");
      await vscode.commands.executeCommand("acpThreads.stopSession", idleRow);
      await waitFor("the run in the host to end", () => !hub.hosted.get(row.threadId), 30_000);
      assert.ok(
        view?.events.some((e) => e.type === "tool_call"),
        "the panel had the host's records",
      );
      const records = hub.threads.read(row.threadId).records;
      const asked = records.find((r) => r.kind === "permission");
      assert.ok(asked && JSON.stringify(asked).includes('"user"'), "decided by the person, in this window");
    } finally {
      await cfg.update("host.runSessions", "window", vscode.ConfigurationTarget.Global);
      await cli(hub.home, ["host", "stop", "--force"]);
    }
  });

  it("Cancel in a hosted thread's panel cancels the host's turn", async () => {
    const { hub } = await api();
    const { id, view } = await detachedInPanel(["sleep 60000"]);
    try {
      await waitFor("the turn running", () => view.status === "working");
      await view.cancel(); // what the panel's Cancel calls
      await waitFor("the run to end", () => view.ended, 20_000);
      const end = hub.threads.read(id).records.find((r) => r.kind === "turn_end");
      assert.equal(end?.kind === "turn_end" ? end.stopReason : undefined, "cancelled");
    } finally {
      await cli(hub.home, ["host", "stop", "--force"]);
    }
  });
  it("a prompt typed after the host's run ended continues the thread in the host, kept open; the panel follows it", async () => {
    const { hub } = await api();
    const turn = heldTurn();
    const { id, view: first } = await detachedInPanel([turn.prompt]);
    try {
      turn.end();
      await waitFor("the host's run to end (it closes at its last prompt)", () => first.ended, 20_000);
      // typed in the panel now: before #35's second pass this resumed the thread in the window (and failed there:
      // the host's command-line agent is not one the window has configured)
      const posted: unknown[] = [];
      await hub.composer.handle(
        { threadId: id, post: (m) => void posted.push(m) },
        { type: "send", parts: [{ type: "text", text: "sleep 3000" }] },
      );
      const next = await waitFor("the panel following the host's next run", () => hub.hosted.get(id)).catch(
        (err: Error) => {
          throw new Error(`${err.message}; the panel got ${JSON.stringify(posted).slice(0, 600)}`);
        },
      );
      assert.equal(hub.live.get(id), undefined, "no session of it in this window");
      await waitFor("the panel drawn as hosted", () => hub.panels.panelOf(id)?.hosted);
      await waitFor("the turn running in the host", () => next.status === "working");
      // the panel goes (as in a window reload) and comes back mid-turn: it follows the running turn again
      hub.panels.get(id)?.dispose();
      await vscode.commands.executeCommand("acpThreads.openThread", id);
      const again = await waitFor("the reopened panel's view", () => hub.hosted.get(id));
      await waitFor("the running turn in the reopened panel", () => again.status === "working");
      // the window's run stays open between prompts: the next prompt goes to the same run, its agent kept
      await waitFor("the run idle after its turn", () => again.status === "idle", 30_000);
      await hub.composer.handle(
        { threadId: id, post: (m) => void posted.push(m) },
        { type: "send", parts: [{ type: "text", text: "third" }] },
      );
      await waitFor("the third turn's answer", () =>
        again.events.some((e) => e.type === "text" && e.text === "echo: third"),
      );
      await waitFor("the run idle again", () => again.status === "idle", 30_000);
      assert.equal(hub.hosted.get(id), again, "the same run: no new one started for it");
      const stored = hub.threads.read(id);
      const prompts = stored.records.flatMap((r) => (r.kind === "user_message" ? [r.text] : []));
      assert.deepEqual(prompts, [turn.prompt, "sleep 3000", "third"]);
      assert.deepEqual(userTexts(again.events), prompts, "nothing lost or doubled");
      assert.ok(stored.metadata.tags.includes("runs:host"), "the thread says the host ran it");
    } finally {
      await cli(hub.home, ["host", "stop", "--force"]);
    }
  });
  it("a prompt typed as the host's run is ending continues the thread in a new run: the panel never names a CLI flag", async () => {
    const { hub } = await api();
    // `stubborn`: the agent outlives its closed stdin for the engine's grace period, so the run ends about a second
    // after its turn: the host still holds the thread while it ends
    const { id, view } = await detachedInPanel(["--env", "FAKE_AGENT_SCENARIO=stubborn", "sleep 60000"]);
    try {
      await waitFor("the turn running", () => view.status === "working");
      const conn = await hub.hosted.link.connection();
      assert.ok(conn);
      await conn.request({ t: "stop_thread", threadId: id }); // another client's Stop: the run is ending
      const posted: { type: string }[] = [];
      await hub.composer.handle(
        { threadId: id, post: (m) => void posted.push(m) },
        { type: "send", parts: [{ type: "text", text: "after the end" }] },
      );
      // before, the host's CLI wording ("run it again with --thread") was the panel's notice, the prompt not run
      const next = await waitFor("the panel following the thread's next run in the host", () => {
        const v = hub.hosted.get(id);
        return v !== view ? v : undefined;
      }).catch((err: Error) => {
        throw new Error(`${err.message}; the panel got ${JSON.stringify(posted).slice(0, 600)}`);
      });
      await waitFor("the prompt's answer", () =>
        next.events.some((e) => e.type === "text" && e.text === "echo: after the end"),
      );
      assert.doesNotMatch(JSON.stringify(posted), /--thread/);
      assert.deepEqual(
        posted.filter((m) => m.type === "editPrompt" || m.type === "composerNotice"),
        [],
        "not put back in the box",
      );
      const prompts = hub.threads.read(id).records.flatMap((r) => (r.kind === "user_message" ? [r.text] : []));
      assert.deepEqual(prompts, ["sleep 60000", "after the end"]);
      assert.equal(hub.live.get(id), undefined, "no session of it in this window");
    } finally {
      await cli(hub.home, ["host", "stop", "--force"]);
    }
  });
  it("prompts sent while a hosted turn runs are queued in the host and shown queued; Send now steers one, Remove takes one out", async () => {
    const { hub } = await api();
    const { id, view } = await detachedInPanel(["--env", "FAKE_AGENT_STEERING=1", "sleep 8000"]);
    try {
      await waitFor("the turn running", () => view.status === "working");
      const posted: unknown[] = [];
      const panel = { threadId: id, post: (m: unknown) => void posted.push(m) };
      const send = (text: string) => hub.composer.handle(panel, { type: "send", parts: [{ type: "text", text }] });
      const queued = () => hub.composer.queues.list(id).map((q) => q.text);
      await send("first queued");
      await send("removed again");
      await send("sent now");
      assert.deepEqual(queued(), ["first queued", "removed again", "sent now"], "shown queued in the panel");
      await hub.composer.handle(panel, { type: "queueRemove", id: hub.composer.queues.list(id)[1]!.id });
      await hub.composer.handle(panel, { type: "queueSteer", id: hub.composer.queues.list(id)[1]!.id });
      assert.deepEqual(queued(), ["first queued"], `steered and removed; the panel got ${JSON.stringify(posted)}`);
      await waitFor("the steered message in the running turn", () =>
        view.events.some((e) => e.type === "text" && e.text.includes("steered: sent now")),
      );
      await waitFor("the queued prompt's turn started, off the queue", () => !queued().length, 20_000);
      await waitFor("the run in the host to end", () => view.ended, 30_000);
      const prompts = hub.threads.read(id).records.flatMap((r) => (r.kind === "user_message" ? [r.text] : []));
      assert.deepEqual(
        prompts,
        ["sleep 8000", "sent now", "first queued"],
        "the removed one never ran, the steered once",
      );
      assert.deepEqual(userTexts(view.events), prompts);
    } finally {
      await cli(hub.home, ["host", "stop", "--force"]);
    }
  });
  it("Send now steers a queued prompt with a file chip into the host's turn, with its context", async () => {
    const { hub } = await api();
    const file = join(workspaceRoot(), "steer-chip.txt");
    writeFileSync(file, "CHIP-LINE\n");
    const { id, view } = await detachedInPanel(["--env", "FAKE_AGENT_STEERING=1", "sleep 8000"]);
    try {
      await waitFor("the turn running", () => view.status === "working");
      const posted: unknown[] = [];
      const panel = { threadId: id, post: (m: unknown) => void posted.push(m) };
      const chip = { kind: "file" as const, label: "steer-chip.txt", uri: pathToFileURL(file).href, path: file };
      await hub.composer.handle(panel, {
        type: "send",
        parts: [
          { type: "text", text: "see " },
          { type: "context", ref: chip },
        ],
      });
      const [queued] = hub.composer.queues.list(id);
      assert.ok(queued, "shown queued in the panel");
      // before, a prompt with context was not steered ("it is sent next")
      await hub.composer.handle(panel, { type: "queueSteer", id: queued.id });
      assert.deepEqual(hub.composer.queues.list(id), [], `steered; the panel got ${JSON.stringify(posted)}`);
      await waitFor("the steered message in the running turn", () =>
        view.events.some((e) => e.type === "text" && e.text.startsWith("steered: see")),
      );
      await waitFor("the run in the host to end", () => view.ended, 30_000);
      const messages = hub.threads.read(id).records.flatMap((r) => (r.kind === "user_message" ? [r] : []));
      assert.deepEqual(
        messages.map((m) => [m.text, m.steered === true, m.context?.map((c) => c.label) ?? []]),
        [
          ["sleep 8000", false, []],
          ["see @steer-chip.txt", true, ["steer-chip.txt"]],
        ],
        "steered once with its chip, out of the host's queue (not run again as a turn)",
      );
    } finally {
      await cli(hub.home, ["host", "stop", "--force"]);
      rmSync(file, { force: true });
    }
  });
  it("two prompts sent at once while a hosted turn runs reach the host in the order typed (a thread mention is not overtaken)", async () => {
    const { hub } = await api();
    const past = writePastThread(hub.home, 40, (i) => `the okapi answer ${i}`);
    const turn = heldTurn();
    const { id, view } = await detachedInPanel([turn.prompt]);
    try {
      await waitFor("the turn running", () => view.status === "working");
      const panel = { threadId: id, post: () => undefined };
      const mention = { type: "context" as const, ref: threadRef(past, "okapi") };
      // the mention's thread is read and embedded before it goes: the plain one came first to the host before
      await Promise.all([
        hub.composer.handle(panel, { type: "send", parts: [{ type: "text", text: "again " }, mention] }),
        hub.composer.handle(panel, { type: "send", parts: [{ type: "text", text: "plain follow-up" }] }),
      ]);
      turn.end();
      await waitFor("the run in the host to end", () => view.ended, 30_000);
      const prompts = hub.threads.read(id).records.flatMap((r) => (r.kind === "user_message" ? [r.text] : []));
      assert.deepEqual(prompts, [turn.prompt, "again @okapi", "plain follow-up"]);
    } finally {
      await cli(hub.home, ["host", "stop", "--force"]);
    }
  });
  it("a window whose panel still shows a thread the host ran lets the idle host leave (it only watches)", async () => {
    const { hub } = await api();
    // the host `run --detach` starts leaves 2 s after its last run and its last client that counts
    const turn = heldTurn();
    const { id, view } = await detachedInPanel([turn.prompt]);
    try {
      turn.end();
      await waitFor("the host's run to end", () => view.ended, 20_000);
      assert.ok(hub.panels.panelOf(id)?.hosted, "the panel still shows the thread it followed");
      // before, the window's connection (held for the panel) counted as a client: the host never left
      await waitFor("the idle host gone", () => !existsSync(hostPlace(hub.home).socket), 20_000);
      await waitFor("the window's connection closed by it", () => !hub.hosted.link.connected);
    } finally {
      await cli(hub.home, ["host", "stop", "--force"]);
    }
  });
  it("with acpThreads.sandbox.mode on, runSessions host runs a new thread in the host, in the OS sandbox: the hostile agent's escape is contained", async function () {
    if (!canSandbox) this.skip();
    const { hub } = await api();
    const w = world();
    await useHostile(w);
    const cfg = vscode.workspace.getConfiguration("acpThreads");
    await cfg.update("host.runSessions", "host", vscode.ConfigurationTarget.Global);
    await cfg.update("sandbox.mode", "workspace-write", vscode.ConfigurationTarget.Global);
    const link = join(workspaceRoot(), "home-link"); // the escape's symlink, in the session's folder
    symlinkSync(w.home, link);
    try {
      // before #35's third pass such a thread stayed in the window; run by the host it must stay sandboxed
      const id = await sendNewInHost("hostile", [{ type: "text", text: "escape" }]);
      const said = () => hub.threads.read(id).records.flatMap((r) => (r.kind === "agent_message" ? [r.text] : []));
      const ended = () => hub.threads.read(id).records.some((r) => r.kind === "turn_end");
      await waitFor("the agent's answer", ended, 30_000);
      assert.equal(said().join(""), "escape: out=EROFS secret=ENOENT link=EROFS");
      for (const f of ["outside.txt", "via-link.txt"]) assert.equal(existsSync(join(w.home, f)), false, f);
    } finally {
      rmSync(link, { force: true });
      await useFakeAgent(); // the agents and permission mode the other tests expect
      await cfg.update("sandbox.mode", undefined, vscode.ConfigurationTarget.Global);
      await cfg.update("host.runSessions", "window", vscode.ConfigurationTarget.Global);
      await cli(hub.home, ["host", "stop", "--force"]);
      rmSync(w.dir, { recursive: true, force: true });
    }
  });
});
