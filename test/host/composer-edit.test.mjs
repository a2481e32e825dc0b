/* global document, window -- code inside evaluate() runs in the page */
// Edit and resend in the thread panel's prompt box (#37 item 6), the webview side: the built panel script
// (dist/webview/thread.js) in headless Chromium with the panel's markup and a stand-in for VS Code's webview API
// that records what the panel posts. A prompt's Edit button loads its text and chip into the box with "Editing
// message N"; Cancel gives back the draft; Resend posts the rewind with the edited parts and the chosen mode.
//
//   node scripts/build.mjs && node --test test/host/composer-edit.test.mjs
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { ROOT, launchChromium } from "./host.mjs";

const html = readFileSync(path.join(ROOT, "src/vscode/webview-html.ts"), "utf8");
const body = /export const THREAD_BODY = `([\s\S]*?)`;/.exec(html)?.[1];
const chip = { kind: "file", label: "a.ts", uri: "file:///w/a.ts", path: "/w/a.ts" };

let browser;
let page;
before(async () => {
  browser = await launchChromium({ viewport: { width: 700, height: 700 } });
  page = browser.pages()[0] ?? (await browser.newPage());
  await page.setContent(`<!DOCTYPE html><html><head></head><body>${body}</body></html>`);
  await page.evaluate(() => {
    window.posts = [];
    window.acquireVsCodeApi = () => ({
      postMessage: (m) => window.posts.push(m),
      getState: () => undefined,
      setState: () => undefined,
    });
  });
  await page.addScriptTag({ path: path.join(ROOT, "dist/webview/thread.js") });
  await page.evaluate((chip) => {
    window.postMessage(
      {
        type: "init",
        header: { threadId: "t1", title: "T", agent: "fake", cwd: "/w", acceptsInput: true },
        status: "idle",
        events: [
          { type: "user_text", text: "fix @a.ts\nplease", context: [chip] },
          { type: "text", stream: "output", text: "done" },
          { type: "done", stopReason: "end_turn" },
          { type: "user_text", text: "second" },
        ],
        scrollToEnd: true,
      },
      "*",
    );
  }, chip);
  await page.locator(".msg.user .msg-rewind").first().waitFor({ state: "attached" });
});
after(async () => browser?.close());

const posts = () => page.evaluate(() => window.posts.filter((m) => m.type !== "rendered" && m.type !== "ready"));
const boxText = () => page.evaluate(() => document.getElementById("input").innerText);

test("Edit loads the prompt and its chip into the box; Cancel gives back the draft", async () => {
  await page.locator("#input").click();
  await page.keyboard.type("my draft");
  await page.locator(".msg.user").first().hover();
  await page.locator(".msg.user .msg-rewind").first().click();
  assert.equal(await page.locator(".cmp-editing").isVisible(), true);
  assert.equal(await page.locator(".cmp-editing-label").textContent(), "Editing message 1");
  assert.equal(await page.locator("#send .label").textContent(), "Resend");
  assert.match(await boxText(), /^fix a\.ts\s*\nplease$/);
  assert.equal(await page.locator("#input .chip").count(), 1, "the chip is kept");
  assert.deepEqual(await posts(), [], "nothing is asked of the host yet");
  await page.locator("#rewind-cancel").click();
  assert.equal(await page.locator(".cmp-editing").isVisible(), false);
  assert.equal((await boxText()).trim(), "my draft");
  assert.equal(await page.locator("#send .label").textContent(), "Send");
});

test("Resend posts the rewind with the edited parts and the chosen mode", async () => {
  await page.locator(".msg.user").first().hover();
  await page.locator(".msg.user .msg-rewind").first().click();
  await page.locator("#rewind-mode").selectOption("conversation");
  await page.locator("#input").click();
  await page.keyboard.press("End");
  await page.keyboard.press("Control+End");
  await page.keyboard.type(" now");
  await page.keyboard.press("Enter");
  const sent = (await posts()).filter((m) => m.type === "send");
  assert.equal(sent.length, 1);
  assert.deepEqual(sent[0].rewind, { message: 1, text: "fix @a.ts\nplease", mode: "conversation" });
  assert.deepEqual(
    sent[0].parts.map((p) => (p.type === "context" ? `[${p.ref.label}]` : p.text)).join(""),
    "fix [a.ts]\nplease now",
  );
  assert.equal(await page.locator(".cmp-editing").isVisible(), false);
  assert.equal((await boxText()).trim(), "my draft", "the draft comes back after the resend");
});
