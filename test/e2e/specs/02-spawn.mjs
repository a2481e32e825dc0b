// Palette → spawn the demo Codex agent (codex-acp against the scripted model server) → answer its permission
// prompt in the thread panel → the file is written and the session is listed.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { threadFrame, until } from "../pages/workbench.mjs";

export default async function ({ page, quick, step, shot, ws }) {
  let frame;
  await step("palette → spawn the demo Codex agent → the thread panel streams", async () => {
    await quick.openPalette("ACP Threads: Spawn coding agent");
    await shot("02-palette");
    await page.keyboard.press("Enter");
    await quick.root.locator(".monaco-list-row", { hasText: "Demo: Codex" }).first().waitFor({ timeout: 30000 });
    await shot("03-agent-pick");
    await quick.pick("Demo: Codex");
    await quick.answer("Demo: Codex", "create hello.txt containing hi from the browser");
    await quick.pick("Session");
    frame = await threadFrame(page, "create hello.txt");
    await frame.locator(".msg.user", { hasText: "create hello.txt" }).waitFor({ timeout: 30000 });
  });

  await step("the permission prompt is clicked and the file is written", async () => {
    const allow = frame.locator(".permission:not(.answered) button.perm-option.allow").first();
    await allow.waitFor({ timeout: 60000 });
    await shot("04-permission-prompt");
    await allow.click();
    const file = path.join(ws, "hello.txt");
    await until(
      "hello.txt to be written",
      () => existsSync(file) && readFileSync(file, "utf8").includes("hi from the browser"),
    );
    await frame.locator(".msg.agent").last().waitFor({ timeout: 60000 });
    await frame.locator(`#status[data-status="idle"]`).waitFor({ timeout: 60000 });
    await shot("05-file-written");
  });

  await step("the session shows under Live in the sessions view", async () => {
    await page
      .getByRole("treeitem", { name: /create hello\.txt/ })
      .first()
      .waitFor({ timeout: 15000 });
    await shot("06-sessions-view");
  });
}
