// The recall view finds our own session and the imported Codex history.
import { recallFrame, threadFrame } from "../pages/workbench.mjs";

/** The demo Codex thread "create hello.txt … from the browser" that 02-spawn makes. */
export const needs = ["02-spawn"];

export default async function ({ page, quick, step, shot }) {
  await step("the recall view finds the session by a word from it", async () => {
    await quick.run("ACP Threads: Search past sessions");
    const recall = await recallFrame(page);
    // with no query the recent list already shows the thread 02-spawn recorded (never "No past sessions")
    await recall.locator(".session", { hasText: "create hello.txt" }).first().waitFor({ timeout: 20000 });
    await recall.locator("#scope-all").check();
    await recall.locator("#q").fill("browser");
    await recall.locator(".session", { hasText: "create hello.txt" }).first().waitFor({ timeout: 20000 });
    await recall
      .locator("mark", { hasText: /browser/i })
      .first()
      .waitFor();
    await shot("08-recall");
  });

  await step("a hit opens its thread scrolled to the message, highlighted", async () => {
    const recall = await recallFrame(page);
    await recall.locator(".session", { hasText: "create hello.txt" }).first().locator(".msg.hit").first().click();
    const panel = await threadFrame(page, "create hello.txt");
    await panel.locator(".entry.focused-hit").first().waitFor({ timeout: 20000 });
    await shot("08b-recall-hit-focused");
  });

  await step("imported history is found too", async () => {
    const recall = await recallFrame(page);
    await recall.locator("#q").fill("migration runner");
    await recall.locator(".session", { hasText: "Codex" }).first().waitFor({ timeout: 20000 });
    await shot("09-recall-imported-codex");
  });
}
