// Palette → a new thread's panel opens at once (prompt box + agent picker) → pick the demo Codex agent
// (codex-acp against the scripted model server) → answer its permission prompt in the thread panel → the file
// is written and the session is listed.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { Composer, threadFrame, until } from "../pages/workbench.mjs";

export default async function ({ page, quick, step, shot, ws }) {
  let frame;
  await step("palette → a new thread panel with the agent picker → spawn the demo Codex agent", async () => {
    await quick.openPalette("ACP Threads: Spawn coding agent");
    await shot("02-palette");
    await page.keyboard.press("Enter");
    const draft = await threadFrame(page, "New thread");
    const composer = new Composer(draft);
    await draft.locator("#agent-picker").click();
    const menu = draft.locator(".cmp-agent-menu");
    await menu.locator("[role=option]", { hasText: "Demo: Codex" }).waitFor({ timeout: 30000 });
    const missing = menu.locator(".cmp-missing-toggle");
    if (await missing.count()) await missing.click(); // not-installed presets, with their install hints
    await shot("03-agent-pick");
    await menu.locator("[role=option]", { hasText: "Demo: Codex" }).first().click();
    await composer.type("create hello.txt containing hi from the browser");
    await shot("03b-new-thread-prompt");
    await composer.send();
    frame = await threadFrame(page, "create hello.txt");
    await frame.locator(".msg.user", { hasText: "create hello.txt" }).waitFor({ timeout: 30000 });
  });

  await step("the permission prompt is clicked and the file is written", async () => {
    const allow = frame.locator(".permission:not(.answered) button.perm-option.allow").first();
    await allow.waitFor({ timeout: 60000 });
    await shot("04-permission-prompt");
    // keyboard: with focus in the EMPTY prompt box, "1" answers the waiting request and is not typed
    await frame.locator("#input").click();
    await page.keyboard.press("1");
    const file = path.join(ws, "hello.txt");
    await until(
      "hello.txt to be written",
      () => existsSync(file) && readFileSync(file, "utf8").includes("hi from the browser"),
    );
    await frame.locator(".msg.agent").last().waitFor({ timeout: 60000 });
    await frame.locator(`#status[data-status="idle"]`).waitFor({ timeout: 60000 });
    const typed = ((await frame.locator("#input").textContent()) ?? "").trim();
    if (typed) throw new Error(`the key that answered the request was typed into the prompt box: "${typed}"`);
    await shot("05-file-written");
  });

  await step("Copy on a message puts its whole text on the clipboard", async () => {
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    const user = frame.locator(".msg.user").first();
    await user.hover();
    await user.locator(".msg-copy").click();
    await until("the message on the clipboard", async () =>
      (await page.evaluate("navigator.clipboard.readText()")).includes(
        "create hello.txt containing hi from the browser",
      ),
    );
  });

  await step("the session shows under Live in the sessions view", async () => {
    await page
      .getByRole("treeitem", { name: /create hello\.txt/ })
      .first()
      .waitFor({ timeout: 15000 });
    await shot("06-sessions-view");
  });
}
