// Issue #27's journey, walked with both of today's adapters on the scripted model: codex-acp 2.6 (the demo
// profile) and claude-agent-acp 0.101 ("Demo: Claude", an acpThreads.agents entry run.mjs adds). For each:
//   the new-thread panel (one "New thread", no agent and no "Ready" before one runs, the permission setting,
//   Start session primary with Run once secondary; item 11) → a task is never run as a command (item 1) → the
//   agent picked at once stays picked when doctor's list arrives (item 2) → the header shows the agent's mode and
//   who decides what needs permission (item 3) → the permission card → the answer → the thread named alike in
//   the tab, the header and the tree (item 10) → a request and a finished turn while the panel is hidden raise
//   notifications naming the request, with Allow / Open (item 5) → a recall hit opens its closed thread at the
//   message (item 6). Screenshots test-results/screenshots/journey-<agent>-<item>-<before|after>.png.
// Needs 01-workbench only (its own threads; later specs do not rely on it).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { Composer, recallFrame, threadFrame, until } from "../pages/workbench.mjs";

const AGENTS = [
  { key: "codex", label: "Demo: Codex" },
  { key: "claude", label: "Demo: Claude" },
];

export default async function ({ page, quick, step, shot, ws }) {
  // a notification shows as a toast, or in the notification center when that is open (VS Code shows no toast then)
  const toast = (...texts) =>
    texts
      .reduce(
        (l, text) => l.filter({ hasText: text }),
        page.locator(".notification-toast, .notifications-center .notification-list-item"),
      )
      .first();
  const tab = (text) => page.locator(".tab", { hasText: text }).first();

  for (const { key, label } of AGENTS) {
    const task = `create journey-${key}.txt containing hi from ${key}`;
    const file = path.join(ws, `journey-${key}.txt`);
    const shotOf = (item, when) => shot(`journey-${key}-${item}-${when}`);
    let draft;
    let frame;

    await step(
      `${key}: the new-thread panel says New thread once, nothing Ready, one primary action (11)`,
      async () => {
        await quick.run("View: Close All Editors");
        await quick.run("ACP Threads: Spawn coding agent");
        draft = await threadFrame(page, "New thread");
        const header = (await draft.locator("#agent").textContent()) ?? "";
        if (header.includes("New thread")) throw new Error(`the header repeats "New thread": ${header}`);
        await draft.locator("#status", { hasText: "Not started" }).waitFor();
        await draft.locator("#draft-policy", { hasText: "Permissions:" }).waitFor();
        await draft.locator("#send", { hasText: "Start session" }).waitFor();
        if (!(await draft.locator("#run-once").evaluate((b) => b.classList.contains("secondary"))))
          throw new Error("Run once is not the secondary action");
        await shotOf("11-new-thread", "before");
      },
    );

    await step(`${key}: no agent picked for you is a command line; the task is never run as one (1)`, async () => {
      const picked = (await draft.locator("#agent-picker").textContent()) ?? "";
      if (/Custom command line/.test(picked)) throw new Error(`preselected: ${picked}`);
      await shotOf("1-task", "before");
      const composer = new Composer(draft);
      await composer.pickAgent("Custom command line");
      await draft.locator("#exec-command").waitFor({ state: "visible" });
      await composer.type(task);
      await composer.send();
      await draft.locator(".cmp-notice", { hasText: "Type the command line" }).waitFor();
      if (existsSync(file)) throw new Error("the task text ran");
      await shotOf("1-task", "after");
      await draft.locator("#input").fill("");
    });

    await step(`${key}: the agent picked at once stays picked when doctor's list arrives (2)`, async () => {
      await quick.run("View: Close All Editors");
      await quick.run("ACP Threads: Spawn coding agent");
      draft = await threadFrame(page, "New thread");
      await draft.locator("#agent-picker").click();
      await draft.locator(".cmp-agent-menu [role=option]", { hasText: label }).first().click();
      await draft.locator("#agent-picker", { hasText: label }).waitFor();
      await shotOf("2-pick", "before");
      await draft.locator('.cmp-draft[data-checked="true"]').waitFor({ timeout: 60000 });
      await draft.locator("#agent-picker", { hasText: label }).waitFor({ timeout: 2000 });
      await shotOf("2-pick", "after");
    });

    await step(`${key}: start → mode and who decides in the header (3) → permission card → answer`, async () => {
      const composer = new Composer(draft);
      await composer.type(task);
      await composer.send();
      frame = await threadFrame(page, `journey-${key}`);
      await frame.locator("#who-decides", { hasText: /Agent mode/ }).waitFor({ timeout: 90000 });
      await shotOf("3-who-decides", "after");
      const allow = frame.locator(".permission:not(.answered) button.perm-option.allow").first();
      await allow.waitFor({ timeout: 90000 });
      await shotOf("3-permission-card", "before");
      await allow.click();
      await until("the file to be written", () => existsSync(file) && readFileSync(file, "utf8").includes("hi"), 90000);
      await frame.locator(`#status[data-status="idle"]`).waitFor({ timeout: 90000 });
      await frame.locator(".msg.agent").last().waitFor();
      await shotOf("3-answered", "after");
    });

    await step(`${key}: tab, header and tree name the thread alike (10)`, async () => {
      const title = ((await frame.locator("#title").textContent()) ?? "").trim();
      if (!title.includes(`journey-${key}`)) throw new Error(`header title: ${title}`);
      await tab(title).waitFor({ timeout: 10000 });
      // the sessions tree (label and hover) and the status bar are checked in the host suite (thread-names.test.ts)
    });

    await step(`${key}: while the panel is hidden, a request and a finished turn notify (5)`, async () => {
      const second = path.join(ws, `journey-${key}-hidden.txt`);
      await frame.locator("#input").fill(`create journey-${key}-hidden.txt containing from a hidden panel`);
      await frame.locator("#input").press("Enter");
      await frame.locator(`#status[data-status="working"], #status[data-status="waiting_permission"]`).waitFor();
      await quick.run("View: Close All Editors"); // the thread runs on without a panel
      const ask = toast(label, "asks"); // this agent's request, never another thread's
      await ask.waitFor({ timeout: 90000 });
      await shotOf("5-notification", "before");
      const said = (await ask.textContent()) ?? "";
      if (said.includes(`hi from ${key}`)) throw new Error(`named by the thread's first prompt: ${said}`);
      await ask.getByRole("button", { name: "Open" }).waitFor();
      const allow = ask
        .getByRole("button")
        .filter({ hasNotText: /Open|Reject|No|Deny/ })
        .first();
      await allow.click();
      await until("the hidden-panel file", () => existsSync(second), 90000);
      // the finished turn notifies while no panel shows the thread (answering may have opened it again)
      if (!(await tab(`journey-${key}`).count())) await toast(label, "finished").waitFor({ timeout: 90000 });
      await shotOf("5-notification", "after");
    });

    await step(`${key}: a recall hit opens the closed thread at its message (6)`, async () => {
      await quick.run("View: Close All Editors");
      await quick.run("ACP Threads: Search past sessions");
      const recall = await recallFrame(page);
      await recall.locator("#scope-all").check();
      await recall.locator("#q").fill(`hi from ${key}`);
      const hit = recall
        .locator(".session", { hasText: `journey-${key}` })
        .first()
        .locator(".msg.hit")
        .first();
      await hit.waitFor({ timeout: 30000 });
      await shotOf("6-recall", "before");
      await hit.click();
      const panel = await threadFrame(page, `journey-${key}`);
      await panel.locator(".entry.focused-hit").first().waitFor({ timeout: 20000 });
      await shotOf("6-recall", "after");
    });
  }
}
