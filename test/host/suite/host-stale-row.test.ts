// The prompt box of a thread the thread host runs trusts the window's row of the host's sessions (host-link.ts),
// and that row can be behind the host: under load the window had not yet read the row that says the host's run
// ended (stop 44's rehearsal: the prompt came back with "the host does not hold thread …"), and a run another
// terminal started is not listed until its row is read. The link's test-only `holdRowsForTests` keeps the row
// behind for as long as the test needs, so each case is met every time, not by the load: the prompt reaches the
// agent once (not lost, not doubled) and the panel shows it.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import type { RuntimeEvent } from "../../../src/core/model/events";
import { api, waitFor } from "./helpers";
import { defaultRunSessions, detach, ranInHost, spawned } from "./host-cli";

const userTexts = (events: readonly RuntimeEvent[]) => events.flatMap((e) => (e.type === "user_text" ? [e.text] : []));

/** The prompt box's Send of `text` in thread `id`'s box (no panel follows it): what the box was posted. */
async function send(id: string, text: string): Promise<{ type: string }[]> {
  const { hub } = await api();
  const posted: { type: string }[] = [];
  await hub.composer.handle(
    { threadId: id, post: (m) => void posted.push(m) },
    { type: "send", parts: [{ type: "text", text }] },
  );
  return posted;
}

/** The box was not given its prompt back (no `editPrompt`, no notice). */
const notRefused = (posted: readonly { type: string }[]) =>
  assert.deepEqual(
    posted.filter((m) => m.type === "editPrompt" || m.type === "composerNotice"),
    [],
    `the box got its prompt back: ${JSON.stringify(posted).slice(0, 600)}`,
  );

/** Thread `id` opened in a panel: the view that follows the host's run. */
async function follow(id: string) {
  const { hub } = await api();
  await vscode.commands.executeCommand("acpThreads.openThread", id);
  return waitFor("the panel following the host's run", () => hub.hosted.get(id));
}

/** The panel's events once `text`'s answer is there. */
async function shows(view: Awaited<ReturnType<typeof follow>>, text: string): Promise<readonly RuntimeEvent[]> {
  await waitFor(`"echo: ${text}" in the panel`, () =>
    view.events.some((e) => e.type === "text" && e.text === `echo: ${text}`),
  );
  return view.events;
}

const prompts = async (id: string) =>
  (await api()).hub.threads.read(id).records.flatMap((r) => (r.kind === "user_message" ? [r.text] : []));
const sessionsOpened = async (id: string) =>
  (await api()).hub.threads.read(id).records.filter((r) => r.kind === "session_open").length;

describe("the window's row of the host's sessions behind the host: a prompt still reaches the agent once", () => {
  defaultRunSessions();

  it("the row still says the host holds the thread after its run ended: the prompt continues it in a new run", async () => {
    const { hub } = await api();
    const { link } = hub.hosted;
    const id = await spawned("");
    await waitFor("the host's session waiting idle", () => link.session(id)?.state === "idle");
    // no panel follows it: the box's prompt goes by the row (host-entry.ts promptInHost)
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await waitFor("no panel following it", () => !hub.panels.get(id) && !hub.hosted.get(id));
    const rows = link.holdRowsForTests();
    try {
      const ended = new Promise<void>((resolve) => {
        const sub = link.onPush((m) => {
          if (m.t !== "event" || m.event.kind !== "ended" || m.event.threadId !== id) return;
          sub.dispose();
          resolve();
        });
      });
      const conn = await link.connection();
      assert.ok(conn && !conn.closed, "connected to the host");
      await conn.request({ t: "stop_thread", threadId: id }); // another client's Stop
      await ended; // the host's run has ended: the host said so
      assert.equal(link.session(id)?.state, "idle", "the window's row is behind: it still lists the run");
      const posted = await send(id, "after the run ended");
      notRefused(posted);
      await ranInHost(id, /^after the run ended$/);
    } finally {
      rows.dispose();
    }
    const events = await shows(await follow(id), "after the run ended");
    assert.deepEqual(userTexts(events), ["after the run ended"], "the panel shows the prompt once");
    assert.deepEqual(await prompts(id), ["after the run ended"], "recorded once");
    assert.equal(await sessionsOpened(id), 2, "a new run took it");
  });

  it("the row does not list a run another terminal started: the prompt goes into that run", async () => {
    const { hub } = await api();
    const { link } = hub.hosted;
    const dir = mkdtempSync(join(tmpdir(), "acp-stale-row-"));
    const go = join(dir, "go");
    const keep = link.hold(); // the window stays connected to the host it starts
    try {
      await link.connection(true);
      await waitFor("the window's row read from the host", () => link.synced);
      const rows = link.holdRowsForTests();
      let id: string;
      try {
        id = await detach(hub.home, [`until ${go}`]); // a terminal's `run --detach`: its first turn waits for `go`
        assert.equal(link.session(id), undefined, "the window's row does not list the run yet");
        const posted = await send(id, "into the other run");
        notRefused(posted);
      } finally {
        rows.dispose();
      }
      await waitFor("the window's row listing the run", () => link.session(id));
      const view = await follow(id); // before the run's end: the terminal's run closes after its last prompt
      writeFileSync(go, ""); // the first turn ends; the host's queue runs the box's prompt next
      const events = await shows(view, "into the other run");
      assert.deepEqual(userTexts(events), [`until ${go}`, "into the other run"], "the panel shows it once");
      assert.deepEqual(await prompts(id), [`until ${go}`, "into the other run"], "recorded once");
      assert.equal(await sessionsOpened(id), 1, "the terminal's run took it: no second run");
    } finally {
      keep.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
