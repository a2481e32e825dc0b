/* global document, HTMLElement, getComputedStyle -- code inside evaluate() runs in the page */
// Issue 16 / 14.1: the thread panel, sessions and recall views as a user meets them. Needs 01-workbench (the
// workbench is open, Codex history imported). Each step screenshots its item (test-results/screenshots/panel-*).
//   markdown (fake agent): a table, a nested list, a quote and a highlighted code block with its actions;
//   command output (codex-acp): `echo hi` shows "hi", exit 0 and a duration;
//   permission (codex-acp): the card sits on its tool call with a relative path, is answered by keyboard with
//   feedback that reaches the agent, collapses to one line; Review's diff editor carries Accept / Reject;
//   chrome: elapsed time while working, "Finished", labelled pickers, rename → tab title;
//   sessions view tooltip; recall evidence as readable text; the accessibility tree and the Tab order.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { recallFrame, spawnFromPalette, threadFrame, until } from "../pages/workbench.mjs";

/** Sends a follow-up through the panel's prompt box and waits for the turn to end. */
async function followUp(frame, text) {
  await frame.locator("#input").fill(text);
  await frame.locator("#input").press("Enter");
  await frame.locator(".msg.user", { hasText: text.slice(0, 12) }).waitFor({ timeout: 30000 });
}
const idle = (frame) => frame.locator(`#status[data-status="idle"]`).waitFor({ timeout: 60000 });

/** Focus on the conversation itself (not the prompt box), as after a click on the transcript. */
async function focusTranscript(frame) {
  await frame.locator("#entries").click({ position: { x: 2, y: 2 } });
  await frame.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
}

export default async function ({ page, quick, step, shot, ws, root }) {
  let md;
  await step("markdown: table, nested list, quote and a highlighted code block (14.1)", async () => {
    await spawnFromPalette(quick, "Fake agent", "markdown");
    md = await threadFrame(page, "markdown");
    await md.locator(".done", { hasText: "Finished" }).waitFor({ timeout: 30000 });
    const table = md.locator(".md table").first();
    await table.locator("td", { hasText: "new router" }).waitFor();
    await md.locator(".md ol > li > ul > li > ul > li", { hasText: "ports are numbers" }).waitFor();
    await md.locator(".md blockquote p", { hasText: "so a restart is needed" }).waitFor();
    await md.locator(".md s", { hasText: "deprecated" }).waitFor();
    await md.locator(".md li.task input[type=checkbox][checked]").first().waitFor({ state: "attached" });
    // Highlighting arrives from the lazily loaded chunk, coloured by class.
    await md.locator('code[data-hl="ts"][data-hl-done] .hljs-keyword', { hasText: "import" }).first().waitFor();
    const colour = await md
      .locator('code[data-hl="ts"] .hljs-keyword')
      .first()
      .evaluate((el) => getComputedStyle(el).color);
    if (colour === (await md.locator("body").evaluate((b) => getComputedStyle(b).color)))
      throw new Error("keywords are not coloured");
    await md.locator(".code-block").first().scrollIntoViewIfNeeded();
    await shot("panel-14.1-markdown");
    const code = md.locator('.code-block[data-file="src/app.ts"]');
    for (const name of ["Copy", "Insert at cursor", "Apply to src/app.ts…"])
      await code.getByRole("button", { name }).waitFor();
    if (await md.locator('.code-block:has(code[data-hl="bash"]) .code-apply').count())
      throw new Error("a shell block offers Apply to file");
  });

  let codex;
  await step("command output: codex-acp's echo hi shows its output, exit code and duration (16.1)", async () => {
    await spawnFromPalette(quick, "Demo: Codex", "run `echo hi`");
    codex = await threadFrame(page, "echo hi");
    const card = codex.locator('.tool[data-kind="execute"]').first();
    await card.locator("pre.term", { hasText: "hi" }).waitFor({ timeout: 60000 });
    await card.locator(".badge.ok", { hasText: "exit 0" }).waitFor();
    await card.locator(".duration").waitFor();
    await idle(codex);
    await codex.locator(".done", { hasText: "Finished" }).waitFor();
    await shot("panel-16.1-command-output");
  });

  await step("permission card: on its tool call, relative path, keyboard answer with feedback (16.3)", async () => {
    await followUp(codex, "create notes.txt containing from the e2e");
    const card = codex.locator(".tool.waiting").first();
    await card.locator(".permission .perm-option").first().waitFor({ timeout: 60000 });
    const title = await card.locator(".tool-title").textContent();
    if (title.includes(ws)) throw new Error(`the title shows the absolute path: ${title}`);
    await shot("panel-16.3-permission-card");
    await focusTranscript(codex);
    // codex's feedback option: "No, provide feedback" (0.16), "No, and tell Codex what to do differently" (2.x)
    const options = await card.locator(".permission .perm-option").allTextContents();
    const feedback = options.findIndex((o) => /No, (provide feedback|and tell)/.test(o));
    if (feedback < 0) throw new Error(`no feedback option among ${options.join(" | ")}`);
    await page.keyboard.press(String(feedback + 1));
    const box = card.locator("textarea[data-feedback-for]");
    await box.waitFor();
    await box.fill("please call it notes.md instead");
    await shot("panel-16.3-feedback-box");
    await box.press("Control+Enter");
    await codex.locator(".permission.answered").first().waitFor({ timeout: 30000 });
    await codex.locator(".msg.user", { hasText: "please call it notes.md instead" }).waitFor({ timeout: 60000 });
    await idle(codex);
    if (existsSync(path.join(ws, "notes.txt"))) throw new Error("the rejected write happened");
    await shot("panel-16.3-permission-answered");
  });

  await step("Review opens the diff editor whose Accept answers the request (16.3)", async () => {
    await followUp(codex, "create review.txt containing accepted in the diff editor");
    await codex.locator(".tool.waiting .perm-review").waitFor({ timeout: 60000 });
    await focusTranscript(codex);
    await page.keyboard.press("r");
    const accept = page.locator('.editor-actions [aria-label="Accept"]').first();
    await accept.waitFor({ timeout: 20000 });
    await shot("panel-16.3-review-diff");
    await accept.click();
    const file = path.join(ws, "review.txt");
    await until("review.txt to be written", () => existsSync(file));
    await idle(codex);
  });

  await step("panel chrome: elapsed time, human stop reason, labelled pickers, rename → tab (16.4)", async () => {
    const labels = await codex.locator("#pickers label span").allTextContents();
    if (!labels.includes("Model") || !labels.includes("Effort")) throw new Error(`picker labels: ${labels}`);
    await spawnFromPalette(quick, "Fake agent", "sleep 120000");
    const slow = await threadFrame(page, "sleep 120000");
    await slow.locator("#status", { hasText: /Working 0:0[1-9]/ }).waitFor({ timeout: 20000 });
    await shot("panel-16.4-working-elapsed");
    await slow.locator("#cancel").click();
    await idle(slow);
    await slow.locator(".done", { hasText: "Cancelled" }).waitFor();
    await slow.locator("#rename").click();
    await slow.locator(".title-input").fill("Renamed in the e2e");
    await slow.locator(".title-input").press("Enter");
    await slow.locator(".title-input").waitFor({ state: "detached" });
    await page.locator(".tab", { hasText: "Renamed in the e2e" }).first().waitFor({ timeout: 10000 });
    await page
      .getByRole("treeitem", { name: /Renamed in the e2e/ })
      .first()
      .waitFor({ timeout: 15000 });
    await shot("panel-16.4-renamed");
  });

  await step("sessions view: status icon and a tooltip with agent, status and age (16.5)", async () => {
    const item = page.getByRole("treeitem", { name: /echo hi/ }).first();
    await item.hover();
    await page.locator(".monaco-hover, .workbench-hover", { hasText: "Ready for a follow-up" }).first().waitFor({
      timeout: 10000,
    });
    await shot("panel-16.5-sessions-tooltip");
  });

  await step("recall: readable evidence, counts in words (16.6)", async () => {
    await quick.run("ACP Threads: Search past sessions");
    const recall = await recallFrame(page);
    await recall.locator("#scope-all").check();
    await recall.locator("#q").fill("echo");
    const evidence = recall.locator(".window .msg", { hasText: "$ echo hi" }).first();
    await evidence.waitFor({ timeout: 20000 });
    const all = (await recall.locator("#results").textContent()) ?? "";
    if (/call_id|process_id|"command"/.test(all)) throw new Error("raw tool JSON in the evidence");
    if (/\(s\)/.test(all)) throw new Error(`"(s)" plural in: ${all.slice(0, 200)}`);
    await recall.locator(".summary", { hasText: /sessions? matching all words/ }).waitFor();
    await shot("panel-16.6-recall");
    writeFileSync(
      path.join(root, "test-results/screenshots/panel-16.7-aria-recall.txt"),
      await recall.locator("body").ariaSnapshot(),
    );
  });

  await step("accessibility: roles and names in the tree, a sane Tab order (16.7)", async () => {
    md = await threadFrame(page, "markdown");
    const snap = await md.locator("body").ariaSnapshot();
    writeFileSync(path.join(root, "test-results/screenshots/panel-16.7-aria-thread.txt"), snap);
    for (const want of ['log "Conversation"', 'article "You"', 'article "Agent"', 'button "Copy"', "table", "status"])
      if (!snap.includes(want)) throw new Error(`the accessibility tree lacks ${want}`);
    const order = await md.evaluate(() => {
      const focusable = [
        ...document.querySelectorAll("button:not([hidden]):not([disabled]), [tabindex='0'], textarea, select, input"),
      ].filter((el) => el.offsetParent !== null || el === document.activeElement);
      return focusable.map((el) => (el.closest("header") ? "header" : el.closest("#entries") ? "entries" : "footer"));
    });
    const firstEntry = order.indexOf("entries");
    if (order.lastIndexOf("header") > firstEntry || order.indexOf("footer") < order.lastIndexOf("entries"))
      throw new Error(`focus order: ${order.join(" ")}`);
    // Keyboard only: Tab from the rename button reaches a code block's Copy button.
    await md.locator("#rename").focus();
    let reached = false;
    for (let i = 0; i < 30 && !reached; i++) {
      await page.keyboard.press("Tab");
      reached = await md.evaluate(() => document.activeElement?.classList.contains("code-copy") ?? false);
    }
    if (!reached) throw new Error("Tab never reached a code block's Copy button");
    await shot("panel-16.7-keyboard-focus");
  });

  await step("code block → Apply to file opens a review diff with Accept in the title", async () => {
    md = await threadFrame(page, "markdown"); // threads are tabs of one group: the markdown thread's to the front
    await md.locator('.code-block[data-file="src/app.ts"] .code-apply').click();
    const accept = page.locator('.editor-actions [aria-label="Accept"]').first();
    await accept.waitFor({ timeout: 20000 });
    await page.locator('.editor-actions [aria-label="Reject"]').first().waitFor();
    await shot("panel-14.1-apply-diff");
    await accept.click();
    const file = path.join(ws, "src/app.ts");
    await until("src/app.ts to be written", () => existsSync(file) && readFileSync(file, "utf8").includes("hello"));
    await page.locator('.editor-actions [aria-label="Accept"]').waitFor({ state: "detached", timeout: 10000 });
  });
}
