// Review that talks back (#25 item 4). Relies on 02-spawn: the demo Codex thread "create hello.txt…" is open and
// idle, its turn 1 created hello.txt. The file is opened from the agent's tool call; a comment is added on its
// first line with the workbench's own "Add Comment" (the Comments API widget), then "Send review to agent" sends
// it: the panel shows the review prompt (the file, the line, the comment, the quoted line as a chip) and the agent
// answers it.
import { threadFrame, until } from "../pages/workbench.mjs";

export const needs = ["02-spawn"];

export default async function ({ page, quick, step, shot }) {
  const panel = async () => {
    await page.locator(".tab", { hasText: "create hello.txt" }).first().click();
    return threadFrame(page, "create hello.txt");
  };

  await step("a review comment on the agent's line of hello.txt", async () => {
    const frame = await panel();
    await frame.locator("a.loc", { hasText: "hello.txt" }).last().click();
    await page
      .locator(".tab", { hasText: /^hello\.txt$/ })
      .first()
      .waitFor({ timeout: 15000 });
    await page.locator(".monaco-editor .view-lines").first().click();
    await page.keyboard.press("Control+Home");
    await quick.run("Add Comment on Current Selection");
    // the comment box is a small Monaco editor in the comment widget
    const box = page.locator(".review-widget .comment-form .monaco-editor").first();
    await box.waitFor({ timeout: 15000 });
    await box.click();
    await page.keyboard.type("say hello to the browser too");
    await shot("20a-review-comment-typed");
    // Ctrl+Enter in the comment box runs the widget's action (ours: "Comment")
    await page.keyboard.press("Control+Enter");
    const shown = page.locator(".review-widget", { hasText: "You" }).first();
    if (
      !(await shown.waitFor({ timeout: 8000 }).then(
        () => true,
        () => false,
      ))
    )
      await page.getByText("Comment", { exact: true }).last().click({ timeout: 10000 });
    await until(
      "the comment to be kept",
      async () => {
        const html = await page
          .locator(".review-widget")
          .first()
          .innerText()
          .catch(() => "");
        return html.includes("say hello to the browser too") && html.includes("You");
      },
      15000,
    );
    await shot("20-review-comment");
  });

  await step("Send review to agent: the prompt reaches the agent with the quoted line, and it answers", async () => {
    // the comment thread's own title action (where the review lives)
    await page.locator('.review-widget .action-label[aria-label="Send review to agent"]').first().click();
    await page.locator(".notifications-toasts", { hasText: "sent to the agent" }).first().waitFor({ timeout: 20000 });
    const frame = await panel();
    const msg = frame.locator(".msg.user", { hasText: "hello.txt:1: say hello to the browser too" }).last();
    await msg.waitFor({ timeout: 30000 });
    await until(
      "the agent to answer the review",
      async () => (await frame.locator(`#status[data-status="idle"]`).count()) > 0,
      90000,
    );
    await msg.evaluate((e) => e.scrollIntoView({ block: "start" })).catch(() => {});
    await page.waitForTimeout(500);
    await shot("21-review-reached-agent");
  });
}
