// Issue 35 item 5's e2e, a new user's path: with acpThreads.host.runSessions absent from the user's settings (its
// default, `auto`: the thread host on POSIX; the harness pins `window` for the other specs, removed here), a new
// thread runs in the thread host; the window is reloaded (Developer: Reload Window) mid-turn, and after the reload
// the Sessions view lists the thread as live and its restored panel shows the running turn, which finishes there.
// Screenshots before and after.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Composer, threadFrame, until } from "../pages/workbench.mjs";

// The turn ends when the spec makes this file, after the reloaded panel shows it running: a reload on a loaded
// machine takes longer than any fixed turn would (a 25 s turn had ended before the reloaded panel was looked at).
const RELEASE = path.join(os.tmpdir(), `acpt-e2e-14-${process.pid}`);
const TASK = `until ${RELEASE}`;
const escaped = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Opens the ACP Threads side bar. Its tab can be selected while the side bar is hidden (a reload restored it so:
 * the CI's run), and a click on the tab of a shown side bar closes it: so the tab is clicked only while the
 * Sessions header is not visible, and again if that click closed a side bar that was still drawing.
 */
async function showSessions(page) {
  const tab = page.getByRole("tab", { name: /ACP Threads/ });
  await tab.waitFor({ timeout: 60000 });
  const header = page.locator(".pane-header", { hasText: "Sessions" });
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await header.isVisible()) return;
    await tab.click();
    if (
      await header.waitFor({ timeout: 5000 }).then(
        () => true,
        () => false,
      )
    )
      return;
  }
  await header.waitFor({ timeout: 15000 });
}

async function reload(page, quick) {
  const reloaded = page.waitForEvent("load", { timeout: 60000 });
  await quick.run("Developer: Reload Window");
  await reloaded;
  await page.locator(".monaco-workbench").waitFor({ timeout: 60000 });
  await showSessions(page);
  await page.waitForTimeout(3000); // the extension host starts again: its commands reach the palette
}

/** The thread's row in the Sessions view, once it says the thread runs in the thread host. */
async function hostedRow(page) {
  await showSessions(page);
  const row = page.getByRole("treeitem", { name: new RegExp(escaped(TASK)) }).first();
  await row.waitFor({ timeout: 30000 });
  await until("the row to say it runs in the thread host", async () =>
    /in the thread host/.test((await row.textContent()) ?? ""),
  );
  return row;
}

export default async function ({ page, quick, step, shot, userDataDir }) {
  const settingsFile = path.join(userDataDir, "User", "settings.json");
  const settings = JSON.parse(readFileSync(settingsFile, "utf8"));
  let frame;
  await step("with runSessions at its default, a new thread's turn runs in the thread host", async () => {
    const { ["acpThreads.host.runSessions"]: _pinned, ...asNew } = settings;
    writeFileSync(settingsFile, JSON.stringify(asNew, null, 1));
    await reload(page, quick); // the web workbench reads a settings file changed behind its back on a reload
    await quick.run("ACP Threads: Spawn coding agent");
    const draft = new Composer(await threadFrame(page, "New thread"));
    await draft.pickAgent("Fake agent");
    await draft.type(TASK);
    await draft.send();
    frame = await threadFrame(page, TASK);
    await frame.locator(".msg.agent", { hasText: "waiting" }).waitFor({ timeout: 30000 });
    await frame.locator(`#status[data-status="working"]`).waitFor({ timeout: 30000 });
    await hostedRow(page);
    await shot("14-host-before-reload");
  });

  await step(
    "Developer: Reload Window mid-turn; the thread is live again and its panel shows the running turn",
    async () => {
      await reload(page, quick);
      await hostedRow(page);
      frame = await threadFrame(page, TASK);
      await frame.locator(".msg.agent", { hasText: "waiting" }).waitFor({ timeout: 30000 });
      await frame.locator(`#status[data-status="working"]`).waitFor({ timeout: 30000 });
      await shot("14-host-after-reload");
    },
  );

  await step("the turn finishes in the reopened panel", async () => {
    writeFileSync(RELEASE, "");
    await frame.locator(".msg.agent", { hasText: "is there" }).waitFor({ timeout: 60000 });
    await until(
      "the turn's end in the panel",
      async () => {
        const status = await frame.locator("#status").getAttribute("data-status");
        return status === "idle" || status === "closed";
      },
      60000,
    );
    await shot("14-host-turn-finished");
  });
  rmSync(RELEASE, { force: true });
  writeFileSync(settingsFile, JSON.stringify(settings, null, 1));
}
