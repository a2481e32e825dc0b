// Page objects for the VS Code workbench in code-server: the command palette / quick input, webview frames
// (thread panel, recall view) and the spawn flow. Specs drive the UI only through these, so a workbench change
// is fixed in one place.

/** The quick-input widget: command palette, quick picks and input boxes all reuse it. */
export class QuickInput {
  constructor(page) {
    this.page = page;
    this.root = page.locator(".quick-input-widget");
  }
  /** Opens the palette with `command` typed and focused, without running it. */
  async openPalette(command) {
    // F1 can land while focus is between a webview and the workbench (after editors moved, say) and open
    // nothing, or the widget can still be closing from the last command: try again from a clean state.
    for (let attempt = 1; ; attempt++) {
      try {
        await this.page.keyboard.press("F1");
        await this.root.waitFor({ state: "visible", timeout: 5000 });
        await this.root.locator("input.input").first().fill(`>${command}`, { timeout: 5000 });
        break;
      } catch (e) {
        if (attempt === 3) throw e;
        await this.page.keyboard.press("Escape");
        // focus back on the workbench: the empty middle of the activity bar does nothing when clicked
        const bar = this.page.locator(".monaco-workbench .part.activitybar");
        const box = await bar.boundingBox();
        if (box) await bar.click({ position: { x: box.width / 2, y: box.height / 2 } });
      }
    }
    await this.root.locator(".monaco-list-row.focused", { hasText: command }).first().waitFor();
  }
  /** Runs a palette command by its full title ("ACP Threads: …"). */
  async run(command) {
    await this.openPalette(command);
    await this.page.keyboard.press("Enter");
  }
  /** Picks the row that contains `text` in the open quick pick. */
  async pick(text) {
    await this.root.locator(".monaco-list-row", { hasText: text }).first().waitFor({ timeout: 20000 });
    await this.root.locator("input.input").first().fill(text);
    await this.root.locator(".monaco-list-row.focused", { hasText: text }).first().waitFor({ timeout: 10000 });
    await this.page.keyboard.press("Enter");
  }
  /** Answers the input box titled `title`. */
  async answer(title, text) {
    // The input box reuses the quick-input widget: wait for its title so no keystroke lands in the old pick.
    await this.root.locator(".quick-input-title", { hasText: title }).waitFor({ timeout: 30000 });
    // fill() rather than typing: keystrokes sent while the box is still taking focus can be lost.
    const box = this.root.locator("input.input").first();
    await box.fill(text);
    if ((await box.inputValue()) !== text) throw new Error(`the input box did not take "${text}"`);
    await this.page.keyboard.press("Enter");
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The first frame in which `probe(frame)` resolves truthy, polled until `timeoutMs`. */
export async function findFrame(page, probe, what, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const f of page.frames()) if (await probe(f).catch(() => false)) return f;
    await sleep(250);
  }
  throw new Error(`no ${what}`);
}

/**
 * The thread panel's content frame: the webview frame that has our #entries list and this title. Threads open as
 * tabs of one editor group (#27), so the thread's tab is brought to the front first when it has one.
 */
export async function threadFrame(page, title) {
  const tab = page.locator(".tab", { hasText: title });
  if ((await tab.count()) > 0)
    await tab
      .last()
      .click({ timeout: 5000 })
      .catch(() => {});
  const titled = async (f) => ((await f.locator("#title").textContent({ timeout: 200 })) ?? "").includes(title);
  // the shown panel: another one with the same title (a step that failed left its "New thread" open) stays
  // hidden, and a step driving it would wait for the whole timeout; a hidden one only when no shown one comes
  return findFrame(
    page,
    async (f) => (await titled(f)) && (await shown(f)),
    `shown thread panel "${title}"`,
    15000,
  ).catch(() => findFrame(page, titled, `thread panel titled "${title}"`, 15000));
}

/** The frame and every frame element around it are visible (a webview of a hidden editor is not). */
async function shown(frame) {
  for (let f = frame; f.parentFrame(); f = f.parentFrame()) {
    const el = await f.frameElement();
    if (!(await el.isVisible())) return false;
  }
  return true;
}

/**
 * The recall view's content frame: the one with the #q search box whose script has run (body[data-ready]). A box
 * filled before that lost its text to the restored query of the view's last life (the view is made again when it
 * is shown again): "hi from claude" typed, "hi from codex" searched. A shown one first, as threadFrame does.
 */
export function recallFrame(page) {
  const ready = async (f) => (await f.locator("body[data-ready] #q").count()) > 0;
  return findFrame(page, async (f) => (await ready(f)) && (await shown(f)), "shown recall view frame", 15000).catch(
    () => findFrame(page, ready, "recall view frame", 15000),
  );
}

/**
 * The prompt box of a thread panel (src/webview/thread/composer): a contenteditable box with `@` / `/`
 * suggestions, the agent picker of a new thread, Send / Run once / Cancel.
 */
export class Composer {
  constructor(frame) {
    this.frame = frame;
    this.box = frame.locator("#input");
    this.popup = frame.locator("#cmp-popup");
  }
  /** Picks an agent in a new thread's picker by (part of) its label. */
  async pickAgent(label) {
    await this.frame.locator("#agent-picker").click();
    await this.frame.locator(".cmp-agent-menu [role=option]", { hasText: label }).first().click();
    await this.frame.locator("#agent-picker", { hasText: label }).waitFor();
  }
  /** Types text at the end of the box (keystrokes, so `@` and `/` open their suggestions). */
  async type(text) {
    await this.box.click();
    await this.frame.locator("body").press("End");
    await this.box.pressSequentially(text, { delay: 15 });
  }
  /** Types `@query` and clicks the suggestion whose label contains `label`. */
  async mention(query, label) {
    await this.type(`@${query}`);
    const row = this.popup.locator(".cmp-item", { hasText: label }).first();
    await row.waitFor({ timeout: 20000 });
    return row;
  }
  async send() {
    await this.frame.locator("#send").click();
  }
}

/** Spawn coding agent → the new thread's panel → agent → task → Start session (or Run once). */
export async function spawnFromPalette(quick, agentLabel, task, mode = "Session") {
  await quick.run("ACP Threads: Spawn coding agent");
  const frame = await threadFrame(quick.page, "New thread");
  const composer = new Composer(frame);
  await composer.pickAgent(agentLabel);
  await composer.type(task);
  await frame.locator(mode === "Session" ? "#send" : "#run-once").click();
  return frame;
}

/** Polls `check()` until it is truthy. */
export async function until(what, check, timeoutMs = 60000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}
