/* global document, getComputedStyle -- code inside evaluate() runs in the page */
// The thread panel's header in a narrow panel (#37 item 11), laid out by headless Chromium from the panel's own
// markup (THREAD_BODY in src/vscode/webview-html.ts) and media/thread.css: the title keeps its room while the
// agent's name and the login chip shrink to an ellipsis; the agent's pickers wrap compactly (a long model name
// is cut, not given a row of its own). Screenshots: test-results/screenshots/panel-narrow-*.png.
//
//   node --test test/host/panel-layout.test.mjs
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { ROOT, launchChromium } from "./host.mjs";

const html = readFileSync(path.join(ROOT, "src/vscode/webview-html.ts"), "utf8");
const body = /export const THREAD_BODY = `([\s\S]*?)`;/.exec(html)?.[1];
const css = readFileSync(path.join(ROOT, "media/thread.css"), "utf8").replace(/@import[^;]*;/g, "");
const shots = path.join(ROOT, "test-results/screenshots");

/** Options of an agent's pickers as codex-acp and claude-agent-acp send them (long model names). */
const PICKERS = [
  ["Mode", ["Default: ask before edits and commands", "Accept edits"]],
  ["Model", ["claude-sonnet-4-5-20250929 (recommended, 1M context window)", "claude-opus-4-1"]],
  ["Effort", ["Medium: balanced speed and depth of reasoning", "High"]],
];

let browser;
let page;
before(async () => {
  assert.ok(body, "THREAD_BODY found in webview-html.ts");
  browser = await launchChromium({ viewport: { width: 480, height: 400 } });
  page = browser.pages()[0] ?? (await browser.newPage());
  const pickers = PICKERS.map(
    ([label, options]) =>
      `<label class="picker"><span>${label}</span><select>${options.map((o) => `<option>${o}</option>`).join("")}</select></label>`,
  ).join("");
  await page.setContent(`<!DOCTYPE html><html><head><style>${css}</style></head><body>${body}</body></html>`);
  await page.evaluate((pickers) => {
    document.getElementById("title").textContent = "Hello, please refactor the narrow panel header of the thread";
    document.getElementById("agent").textContent = "Claude Agent";
    const login = document.getElementById("login");
    login.textContent = "Anthropic API key";
    login.hidden = false;
    const action = document.getElementById("login-action");
    action.textContent = "Log out";
    action.hidden = false;
    document.getElementById("status").textContent = "idle";
    document.getElementById("usage").textContent = "12.3k / 200k tokens";
    document.getElementById("pickers").innerHTML = pickers;
  }, pickers);
  mkdirSync(shots, { recursive: true });
});
after(async () => browser?.close());

const box = (id) =>
  page.evaluate((id) => {
    const el = document.getElementById(id);
    const r = el.getBoundingClientRect();
    return { width: r.width, top: r.top, height: r.height, cut: el.scrollWidth > el.clientWidth };
  }, id);

for (const width of [320, 480]) {
  test(`at ${width}px the title keeps its room; the agent and the login chip shrink first`, async () => {
    await page.setViewportSize({ width, height: 400 });
    await page.screenshot({
      path: path.join(shots, `panel-narrow-${width}.png`),
      clip: { x: 0, y: 0, width, height: 120 },
    });
    const title = await box("title");
    const login = await box("login");
    const action = await box("login-action");
    const status = await box("status");
    const em = await page.evaluate(() => parseFloat(getComputedStyle(document.getElementById("title")).fontSize));
    assert.ok(title.width >= 4.5 * em, `the title is ${title.width}px wide (font ${em}px): at least ~10 characters`);
    assert.ok(login.cut, "the login chip is cut to an ellipsis");
    assert.ok(
      title.width > login.width,
      `the title (${title.width}px) is wider than the login chip (${login.width}px)`,
    );
    const middle = (b) => Math.round(b.top + b.height / 2);
    assert.ok(Math.abs(middle(action) - middle(title)) <= 2, "Log out stays on the title's row, whole");
    assert.ok(!action.cut, "Log out is not cut");
    assert.ok(Math.abs(middle(status) - middle(title)) <= 2, "the status too: one row");
  });
}

test("at 480px three pickers with long option names take two rows, not three", async () => {
  await page.setViewportSize({ width: 480, height: 400 });
  const tops = await page.evaluate(() =>
    [...document.querySelectorAll("#pickers .picker")].map((p) => Math.round(p.getBoundingClientRect().top)),
  );
  assert.equal(tops.length, 3);
  assert.ok(new Set(tops).size <= 2, `picker rows at ${tops.join(", ")}`);
  await page.screenshot({
    path: path.join(shots, "panel-narrow-pickers-480.png"),
    clip: { x: 0, y: 0, width: 480, height: 160 },
  });
});
