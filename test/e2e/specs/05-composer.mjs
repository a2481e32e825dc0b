/* global document, DataTransfer, File, ClipboardEvent, requestAnimationFrame -- used inside page.evaluate, which runs in the browser */
// The prompt box as a user drives it: `@` + typing + clicking a suggestion makes a chip, and the scripted model
// confirms the file's text reached the model request; `/` lists the agent's commands; a pasted image is sent
// and shown as a thumbnail; a follow-up typed while a turn runs is queued and sent after it; Up recalls it; a
// permission request does not take the focus from the command palette.
import { Composer, threadFrame } from "../pages/workbench.mjs";

async function newThread(page, quick, agent) {
  await quick.run("ACP Threads: Spawn coding agent");
  const frame = await threadFrame(page, "New thread");
  const composer = new Composer(frame);
  await composer.pickAgent(agent);
  return { frame, composer };
}

export default async function ({ page, quick, step, shot }) {
  let frame;
  let composer;
  await step("@ + typing + clicking the README.md suggestion puts a chip in the prompt box", async () => {
    ({ frame, composer } = await newThread(page, quick, "Demo: Codex"));
    await composer.type("echo the context of ");
    const row = await composer.mention("READ", "README.md");
    await shot("10-mention-suggestions");
    await row.click();
    await frame.locator("#input .chip", { hasText: "README.md" }).waitFor();
    await composer.type(" please");
    await shot("11-mention-chip");
  });

  await step(
    "the mention reaches the model request with the file's text; the chip shows in the transcript",
    async () => {
      await composer.send();
      // codex-acp advertises embeddedContext: the file travels as an embedded resource, the model echoes its first line
      await frame
        .locator(".msg.agent", { hasText: "Context received: embedded README.md" })
        .waitFor({ timeout: 90000 });
      await frame.locator(".msg.agent", { hasText: '"# e2e workspace"' }).first().waitFor();
      await frame.locator(".msg.user .context-chips .chip", { hasText: "README.md" }).waitFor();
      await frame.locator(`#status[data-status="idle"]`).waitFor({ timeout: 60000 });
      await shot("12-mention-answer");
    },
  );

  await step("/ lists the agent's slash commands with their descriptions", async () => {
    await composer.type("/");
    await composer.popup.locator(".cmp-item").first().waitFor({ timeout: 20000 });
    await shot("13-slash-commands");
    await frame.locator("#input").press("Escape");
    await frame.locator("#input").press("Backspace");
  });

  await step("a pasted image is sent as an image block and shown as a thumbnail", async () => {
    await composer.type("echo the context of this picture");
    // a screenshot-like picture, made in the page and pasted as a clipboard file
    await frame.locator("#input").evaluate(async (el) => {
      const canvas = document.createElement("canvas");
      canvas.width = 320;
      canvas.height = 200;
      const g = canvas.getContext("2d");
      g.fillStyle = "#1e3a5f";
      g.fillRect(0, 0, 320, 200);
      g.fillStyle = "#f5c542";
      g.fillRect(20, 20, 120, 70);
      g.fillStyle = "#ffffff";
      g.font = "28px sans-serif";
      g.fillText("pasted image", 20, 150);
      const blob = await new Promise((r) => canvas.toBlob(r, "image/png"));
      const dt = new DataTransfer();
      dt.items.add(new File([blob], "screenshot.png", { type: "image/png" }));
      el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
    });
    await frame.locator(".cmp-attachment img").waitFor();
    await shot("14-image-pasted");
    await composer.send();
    await frame.locator(".msg.agent", { hasText: "images: 1" }).waitFor({ timeout: 90000 });
    await frame.locator(".msg.user .chip-image img.thumb").first().waitFor({ timeout: 20000 });
    await shot("15-image-thumbnail");
  });

  await step("a follow-up typed while a turn runs is queued, then sent; Up recalls it", async () => {
    ({ frame, composer } = await newThread(page, quick, "Fake agent"));
    // the turn must outlast the typing of the follow-up on a loaded machine: fill() types it at once, and the
    // agent sleeps long enough that Enter always lands while the turn runs (a 4 s sleep lost that race in CI)
    await composer.type("sleep 8000");
    await composer.send();
    await frame.locator(`#status[data-status="working"]`).waitFor({ timeout: 30000 });
    await frame.locator("#input").fill("queued follow-up");
    await frame.locator("#input").press("Enter");
    await frame.locator(".cmp-queued", { hasText: "queued follow-up" }).waitFor();
    await shot("16-queued-follow-up");
    await frame.locator(".msg.agent", { hasText: "echo: queued follow-up" }).waitFor({ timeout: 60000 });
    await frame.locator(".cmp-queue").waitFor({ state: "hidden" });
    await frame.locator("#input").click();
    await frame.locator("#input").press("ArrowUp");
    await frame.locator("#input", { hasText: "queued follow-up" }).waitFor();
    await shot("17-history-up");
  });

  await permissionKeepsPaletteFocus({ page, quick, step, shot });
}

/**
 * A permission request that arrives while the user is in the command palette leaves the focus there: the Enter meant
 * for the palette runs its command and never answers the request. A guard: the panel focuses a new request only
 * when focus is already in it, and an accidental approval is the worst a focus change could do.
 */
async function permissionKeepsPaletteFocus({ page, quick, step, shot }) {
  await step("a permission request never takes the focus from the command palette", async () => {
    const { frame } = await newThread(page, quick, "Fake agent");
    await frame.locator("#input").fill("ask execute 3000");
    await frame.locator("#input").press("Enter");
    await frame.locator(`#status[data-status="working"]`).waitFor({ timeout: 30000 });
    await quick.openPalette("Notifications: Clear All Notifications");
    const card = frame.locator(".permission .perm-option").first();
    await card.waitFor({ timeout: 30000 });
    // the panel focuses a request two frames after drawing it (when nobody types there): let those frames pass
    await frame.evaluate(
      () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r)))),
    );
    try {
      await shot("18-permission-palette-focus");
      const inPalette = await page.evaluate(() => !!document.activeElement?.closest(".quick-input-widget"));
      if (!inPalette) throw new Error("the permission request took the focus from the command palette");
      await page.keyboard.press("Enter");
      await quick.root.waitFor({ state: "hidden" });
      if (await frame.locator(".permission.answered").count())
        throw new Error("the palette's Enter answered the request");
    } finally {
      // never leave the request waiting: a later spec would meet its notification
      if (await card.isVisible().catch(() => false)) await card.click().catch(() => {});
    }
    await frame.locator(".msg.agent", { hasText: "outcome: ok" }).waitFor({ timeout: 30000 });
  });
}
