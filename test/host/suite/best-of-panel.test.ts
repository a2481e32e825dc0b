// Best of N's task from a panel's prompt box (#37 item 6): "Best of N…" opens a new-thread panel with its "best of
// N" box checked; its Send (what the webview posts) asks the wizard's other steps — the panel's agent checked, the
// runs, the check command; the panel's "sandboxed" box stands for the sandbox step — and every candidate gets the
// multi-line prompt with its `@` chip resolved as any prompt's context (the fake agent lists the blocks it got).
// A chip outside the workspace is refused before any step, and the prompt goes back into the box.
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { ComposerPanel } from "../../../src/vscode/composer/composer-host";
import type { LiveSession } from "../../../src/vscode/live-session";
import type { HostMessage, WirePart } from "../../../src/webview/thread/protocol";
import { api, sleep, waitFor, workspaceRoot } from "./helpers";
import { seededRepo } from "./worktree-helpers";

function fakePanel(threadId: string): ComposerPanel & { posts: HostMessage[] } {
  const posts: HostMessage[] = [];
  return { threadId, posts, post: (m) => void posts.push(m) };
}

/** Accepts each quick input the wizard shows (the default answers) until `work` settles. */
async function acceptSteps<T>(work: Promise<T>): Promise<T> {
  let settled = false;
  void work.finally(() => (settled = true)).catch(() => undefined);
  while (!settled) {
    await sleep(400);
    if (!settled) await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem");
  }
  return await work;
}

describe("Best of N's task from a panel's prompt box (#37)", () => {
  const seed = seededRepo("acp-host-bestof-panel-", { "a.txt": "a\n" });

  it("Best of N… opens a panel whose multi-line prompt, with its @ chip, is every candidate's task", async () => {
    const { hub } = await api();
    const notes = join(workspaceRoot(), "best-of-notes.txt");
    writeFileSync(notes, "what the candidates should know\n");
    try {
      const draft = await vscode.commands.executeCommand<string>("acpThreads.bestOfN", { cwd: seed.repo });
      assert.ok(
        typeof draft === "string" && (await hub.composer.isDraft(draft)),
        "a new-thread panel, nothing started",
      );
      await waitFor("its panel", () => hub.panels.get(draft));
      const panel = fakePanel(draft);
      hub.composer.attach(panel);
      const state = await waitFor("its agent list", () =>
        panel.posts.find((m) => m.type === "composer" && m.state.draft),
      );
      assert.equal(state?.type === "composer" && state.state.draft?.bestOf, true, "its 'best of N' box is checked");

      // a forged chip outside the workspace: refused, the prompt back in the box, no wizard
      const outside: WirePart[] = [
        { type: "text", text: "context look" },
        { type: "context", ref: { kind: "file", label: "passwd", uri: "file:///etc/passwd", path: "/etc/passwd" } },
      ];
      await hub.composer.handle(panel, { type: "send", parts: outside, agentId: "fake", bestOf: true });
      const refused = panel.posts.find((m) => m.type === "composerNotice");
      assert.match(refused?.type === "composerNotice" ? refused.message : "", /outside the workspace/);
      assert.deepEqual(panel.posts.filter((m) => m.type === "editPrompt").pop(), {
        type: "editPrompt",
        parts: outside,
      });
      assert.ok(await hub.composer.isDraft(draft), "the panel stays");

      const before = new Set(hub.live.all().map((s) => s.threadId));
      const parts: WirePart[] = [
        { type: "text", text: "context compare these\nthen answer " },
        { type: "context", ref: { kind: "file", label: "best-of-notes.txt", uri: `file://${notes}`, path: notes } },
      ];
      // what the webview posts when the box is sent with "best of N" checked and "sandboxed" unticked
      await acceptSteps(
        hub.composer.handle(panel, {
          type: "send",
          parts,
          agentId: "fake",
          mode: "session",
          sandbox: false,
          bestOf: true,
        }),
      );
      const notices = panel.posts.filter((m) => m.type === "composerNotice").slice(1);
      assert.deepEqual(notices, [], "no notice");
      await waitFor("the panel to close: the candidates took its prompt", () => !hub.panels.get(draft));
      const candidates = await waitFor("two candidates", () => {
        const c = hub.live.all().filter((s) => !before.has(s.threadId) && s.worktree?.repo === seed.repo);
        return c.length === 2 ? c : undefined;
      });
      const answerOf = (s: LiveSession) =>
        s.events
          .filter((e) => e.type === "text" && e.stream === "output")
          .map((e) => (e.type === "text" ? e.text : ""))
          .join("");
      for (const s of candidates) {
        await waitFor("its answer", () => s.status === "idle" && /link file:/.test(answerOf(s)));
        assert.equal(s.sandboxed, false, "the panel's 'sandboxed' box stood for the sandbox step");
        assert.equal(
          answerOf(s),
          `text "context compare these\\nthen answer "\nlink file://${notes} best-of-notes.txt`,
          "the multi-line prompt and its chip, as the prompt box sends them",
        );
        const asked = hub.threads.read(s.threadId).records.find((r) => r.kind === "user_message");
        assert.equal((asked as { context?: unknown[] } | undefined)?.context?.length, 1, "the chip is in the thread");
      }
      assert.match(candidates[0]!.title, /^fake#\d: context compare these/);
      for (const s of candidates) await s.close();
    } finally {
      rmSync(notes, { force: true });
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    }
  });
});
