// Review, undo and restore (#11). Relies on 02-spawn: the demo Codex thread "create hello.txt…" is open and idle,
// its turn 1 created hello.txt. A second turn (typed in the panel) adds notes.md and rewrites hello.txt; each turn
// shows "N files changed" with Review / Restore; Review opens the (multi-file) diff editor; the editor shows the
// agent's hunk with Keep / Undo and a provenance hover; Restore previews and puts the files back; the row then says
// "restored", Undo restore brings turn 2 back and Keep all settles its changes (#27 item 8).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { threadFrame, until } from "../pages/workbench.mjs";

export const needs = ["02-spawn"];

/** Clicks every permission prompt's Allow until the panel is idle again (the frame is looked up afresh each time). */
async function allowUntilIdle(page, log) {
  let clicked = "";
  await until(
    "the turn to finish",
    async () => {
      const frame = await threadFrame(page, "create hello.txt");
      const allow = frame.locator(".permission:not(.answered) button.perm-option.allow").last();
      if (await allow.count()) {
        const request = await allow.getAttribute("data-request");
        if (request !== clicked) log(`allowing ${request}`);
        clicked = request ?? "";
        await allow.click({ timeout: 5000 }).catch((e) => log(`allow: ${e.message.split("\n")[0]}`));
      }
      return (await frame.locator(`#status[data-status="idle"]`).count()) > 0;
    },
    90000,
  );
}

export default async function ({ page, quick, step, shot, ws, log }) {
  let frame;
  // the thread panel's tab to the front (a diff editor may cover it)
  const panel = async () => {
    await page.locator(".tab", { hasText: "create hello.txt" }).first().click();
    return threadFrame(page, "create hello.txt");
  };
  const hello = path.join(ws, "hello.txt");
  const notes = path.join(ws, "notes.md");
  const turn1 = existsSync(hello) ? readFileSync(hello, "utf8") : "";

  await step("turn 1 shows '1 file changed'; Review opens its diff", async () => {
    frame = await panel(); // threads share one editor group: its tab may be behind a later thread's
    const row = frame.locator('.turn-changes[data-turn="1"]');
    await row.waitFor({ timeout: 30000 });
    if (!(await row.textContent()).includes("1 file changed")) throw new Error(`row says: ${await row.textContent()}`);
    await shot("10-turn-changes-row");
    await row.locator("button.tc-review").click();
    await page.locator(".monaco-diff-editor").first().waitFor({ timeout: 20000 });
    await shot("11-review-turn-diff");
  });

  await step("a second turn changes two files; Review opens the multi-file diff editor", async () => {
    frame = await panel();
    await frame
      .locator("#input")
      .fill("create notes.md containing first notes, then create hello.txt containing hello again");
    await frame.locator("#send").click();
    await allowUntilIdle(page, log);
    await until("both files written", () => existsSync(notes) && readFileSync(hello, "utf8").includes("hello again"));
    const row = frame.locator('.turn-changes[data-turn="2"]');
    await row.waitFor({ timeout: 30000 });
    await shot("12-turn-2-row");
    await row.locator("button.tc-review").click();
    await page.locator(".tab", { hasText: "Turn 2" }).first().waitFor({ timeout: 20000 });
    await page.waitForTimeout(1500); // let both file diffs render
    await shot("13-review-multi-file");
  });

  await step(
    "hello.txt shows the agent's change with Keep / Undo and a provenance hover; Undo takes it back",
    async () => {
      // the file link in the agent's tool call opens the file (Ctrl+P would reach the browser's print dialog)
      frame = await panel();
      await frame.locator("a.loc", { hasText: "hello.txt" }).last().click();
      await page
        .locator(".tab", { hasText: /^hello\.txt$/ })
        .first()
        .waitFor({ timeout: 15000 });
      const lens = page.locator(".codelens-decoration", { hasText: "Undo" }).first();
      await lens.waitFor({ timeout: 20000 });
      await shot("14-editor-keep-undo");
      await quick.run("Show or Focus Hover");
      await page.locator(".monaco-hover", { hasText: "Written by" }).first().waitFor({ timeout: 15000 });
      await shot("15-provenance-hover");
      await page.keyboard.press("Escape");
      await page.locator(".codelens-decoration a", { hasText: "Undo" }).first().click();
      await until("hello.txt back to turn 1's text", () => readFileSync(hello, "utf8") === turn1);
      await shot("16-after-undo");
    },
  );

  await step("Restore to before turn 2: preview, then the files are back", async () => {
    frame = await panel();
    await frame.locator('.turn-changes[data-turn="2"] button.tc-restore').click();
    await quick.root
      .locator(".quick-input-title", { hasText: "Restore workspace to before turn 2" })
      .waitFor({ timeout: 20000 });
    await shot("17-restore-preview");
    await quick.pick("Restore");
    await page.locator(".notifications-toasts", { hasText: "Restored" }).first().waitFor({ timeout: 20000 });
    await until("notes.md removed", () => !existsSync(notes));
    if (readFileSync(hello, "utf8") !== turn1) throw new Error("hello.txt is not turn 1's text");
    await shot("18-restored");
  });

  await step("the restored turn's row says restored (nothing to review); Undo restore and Keep all", async () => {
    frame = await panel();
    const row = frame.locator('.turn-changes[data-turn="2"]');
    await until("row 2 marked restored", async () => (await row.locator(".tc-restored").count()) > 0, 20000);
    if (/to review/.test(await row.textContent())) throw new Error(`row says: ${await row.textContent()}`);
    await shot("19-restored-row");
    await row.locator("button.tc-undo-restore").click();
    await quick.root
      .locator(".quick-input-title", { hasText: "Restore workspace to before the restore" })
      .waitFor({ timeout: 20000 });
    await quick.pick("Restore");
    await until("notes.md back", () => existsSync(notes));
    await until("row 2 offers Keep all", async () => (await row.locator("button.tc-keep-all").count()) > 0, 20000);
    await row.locator("button.tc-keep-all").click();
    await until(
      "nothing left to review on row 2",
      async () => !/to review/.test(await row.textContent()) && (await row.locator("button.tc-keep-all").count()) === 0,
      20000,
    );
    await shot("20-kept-all");
  });
}
