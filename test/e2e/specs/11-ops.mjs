// Issue 13 as a user meets it, with the fake agent. Needs 01-workbench (the workbench is open).
//   usage: a turn whose agent reports tokens and a cost puts a figure in the status bar; Show agent usage opens the
//   Usage view (chart + table), grouped by thread;
//   two windows on one thread: while window 1 runs a turn, window 2 opens the thread from its Sessions view
//   read-only with window 1 named as the writer and sees its answer arrive; once window 1's run ends, window 2
//   takes the thread over and continues it.
import path from "node:path";
import { QuickInput, findFrame, spawnFromPalette, threadFrame } from "../pages/workbench.mjs";

const usageFrame = (page) =>
  findFrame(page, async (f) => (await f.locator("#by").count()) > 0, "usage view frame", 20000);

export default async function ({ page, quick, step, shot, serverUrl, ws, root, log }) {
  /** A screenshot of the second window (`shot` takes the first). */
  const shot2 = async (name) => {
    const f = path.join(root, "test-results", "screenshots", `${name}.png`);
    await page2.screenshot({ path: f }).catch(() => {});
    log(`screenshot ${path.relative(root, f)}`);
  };
  await step("usage: the status-bar figure and the Usage view", async () => {
    await spawnFromPalette(quick, "Fake agent", "cost 1200 300 0.05");
    const frame = await threadFrame(page, "cost 1200");
    await frame.locator(".msg.agent", { hasText: "costed" }).waitFor({ timeout: 30000 });
    const figure = page.locator(".statusbar-item", { hasText: "$0.05" }).first();
    await figure.waitFor({ timeout: 15000 });
    if (!/1\.5k tok/.test((await figure.textContent()) ?? "")) throw new Error("the status bar lacks the tokens");
    await shot("ops-01-status-bar");
    await figure.click();
    const usage = await usageFrame(page);
    await usage.locator("#table tr.total").waitFor({ timeout: 20000 });
    await usage.locator("#by").selectOption("thread");
    // earlier specs' threads may be listed too: look at this thread's row
    const row = usage.locator("#table tr", { has: usage.locator("a", { hasText: "cost 1200" }) }).first();
    await row.waitFor({ timeout: 20000 });
    await row.locator("td", { hasText: "1.5k" }).first().waitFor();
    await row.locator("td", { hasText: "$0.05" }).first().waitFor();
    await usage.locator("#chart rect.chart-bar").first().waitFor({ state: "attached" });
    await shot("ops-02-usage-view");
  });

  const page2 = await page.context().newPage();
  try {
    let first, second;
    await step("a second window opens a thread the first one writes read-only, naming it", async () => {
      // the second window first (its workbench takes a while to load), then the first one starts a long turn
      await page2.goto(`${serverUrl}/?folder=${encodeURIComponent(ws)}`);
      await page2.locator(".monaco-workbench").waitFor({ timeout: 60000 });
      await page2.getByRole("tab", { name: /ACP Threads/ }).click();
      await page2.locator(".pane-header", { hasText: "Sessions" }).waitFor();
      await page.bringToFront();
      // earlier specs leave a row of editor columns; the new thread opens beside them, past the window's edge
      await quick.run("View: Join All Editor Groups");
      // the first window's turn never ends on its own (a fixed turn once ended before a loaded machine's second
      // window arrived, and a longer one only waited): the next step cancels it from the first window's panel
      await spawnFromPalette(quick, "Fake agent", "sleep 300000", "Run");
      first = await threadFrame(page, "sleep 300000");
      await first.locator(".msg.agent", { hasText: "sleeping" }).waitFor({ timeout: 30000 });
      await page2.bringToFront();
      await new QuickInput(page2).run("ACP Threads: Refresh sessions");
      const item = page2.getByRole("treeitem", { name: /sleep 300000/ }).first();
      await item.waitFor({ timeout: 30000 });
      await item.click();
      second = await threadFrame(page2, "sleep 300000");
      const notice = second.locator(".ops-holder", { hasText: "VS Code window" });
      await notice.waitFor({ timeout: 20000 }).catch(async (e) => {
        await shot2("FAIL-ops-second-window");
        throw e;
      });
      if (!/pid \d+/.test((await notice.textContent()) ?? "")) throw new Error("the notice does not name the pid");
      await second.locator(".msg.agent", { hasText: "sleeping" }).waitFor({ timeout: 20000 });
      await shot2("ops-03-second-window-read-only");
    });

    await step("the second window takes the thread over once the first lets go, and continues it", async () => {
      // a "Run once" turn has no prompt box, only its Cancel
      await page.bringToFront();
      const cancel = first.locator("footer.composer.cancel-only #cancel");
      await cancel.waitFor({ timeout: 10000 });
      if (await first.locator("#input").isVisible()) throw new Error("a Run once panel shows a prompt box");
      await shot("ops-03b-run-once-cancel");
      await cancel.click();
      await first.locator(`#status:not([data-status="working"])`).waitFor({ timeout: 30000 });
      await page2.bringToFront();
      const take = second.locator(".ops-holder button", { hasText: "Take over" });
      await take.waitFor({ timeout: 60000 });
      await shot2("ops-04-second-window-free");
      await take.click();
      await second.locator(`#status[data-status="idle"]`).waitFor({ timeout: 30000 });
      await second.locator("#title", { hasText: "sleep 300000" }).waitFor({ timeout: 10000 });
      await second.locator("#input").fill("after the takeover");
      await second.locator("#input").press("Enter");
      await second.locator(".msg.agent", { hasText: "echo: after the takeover" }).waitFor({ timeout: 30000 });
      await shot2("ops-05-second-window-continues");
    });
  } finally {
    await page2.close().catch(() => {});
    await page.bringToFront(); // the next spec drives the first window
  }
}
