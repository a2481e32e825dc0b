// Streaming render bench (issue 14.1): a 10,000-line markdown answer arrives in 1,000 chunks, one per frame, in
// headless Chromium (playwright-core + /usr/bin/chromium) running the real thread panel bundle
// (dist/webview/thread.js with media/thread.css). Per frame it times the main-thread work from the start of the
// animation frame to the end of the panel's redraw, forced layout included (the panel scrolls to the bottom,
// which lays out). Baseline, same page and run: re-rendering the whole answer with the same markdown-it on
// every frame. Goal: p95 ≤ 16 ms. Prints figures only (no assertion); exit 1 only if the page breaks.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as esbuild from "esbuild";
import { longMarkdown } from "../test/fixtures/fake-agents/markdown-sample";

const ROOT = resolve(__dirname, "../..");
const LINES = 10_000;
const CHUNKS = 1_000;

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { p50: q(0.5), p95: q(0.95), max: s[s.length - 1], total: xs.reduce((a, b) => a + b, 0) };
}
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function main(): Promise<void> {
  const text = longMarkdown(LINES);
  const size = Math.ceil(text.length / CHUNKS);
  const chunks = Array.from({ length: CHUNKS }, (_, i) => text.slice(i * size, (i + 1) * size)).filter(Boolean);
  const dir = mkdtempSync(join(tmpdir(), "acp-bench-render-"));
  try {
    await esbuild.build({
      entryPoints: [join(ROOT, "bench/render/baseline-page.ts")],
      bundle: true,
      platform: "browser",
      format: "iife",
      outfile: join(dir, "baseline.js"),
      logLevel: "warning",
    });
    const page = (script: string) => `<!DOCTYPE html><html><head><meta charset="utf-8">
<style>${readFileSync(join(ROOT, "media/thread.css"), "utf8")}</style>
<script>window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__host?.(m), getState() {}, setState() {} });</script>
</head><body>
<header id="header"><div class="title-row"><h1 id="title"></h1><span id="agent"></span><span id="login" hidden></span><button id="login-action" hidden></button><button id="rename" hidden></button><span id="status"></span></div>
<div class="meta-row"><span id="usage"></span><span id="pickers"></span></div></header>
<button id="more" hidden></button><main id="entries"></main>
<footer id="footer" hidden><textarea id="input"></textarea><button id="send"></button><button id="cancel"></button></footer>
<script src="${script}"></script></body></html>`;
    writeFileSync(join(dir, "panel.html"), page(`file://${join(ROOT, "dist/webview/thread.js")}`));
    writeFileSync(join(dir, "baseline.html"), page(`file://${join(dir, "baseline.js")}`));

    const { chromium } = require("playwright-core") as typeof import("playwright-core");
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--allow-file-access-from-files"],
    });
    try {
      const ctx = await browser.newContext({ viewport: { width: 900, height: 800 } });
      const run = async (kind: "panel" | "baseline") => {
        const p = await ctx.newPage();
        const errors: string[] = [];
        p.on("pageerror", (e) => errors.push(e.message));
        await p.goto(`file://${join(dir, `${kind}.html`)}`);
        const times = await p.evaluate(
          async ({ chunks, kind }) => {
            const w = window as unknown as {
              __host?: (m: { type: string }) => void;
              baselineRender(t: string): void;
            };
            const frame = () => new Promise<number>((r) => requestAnimationFrame(() => r(performance.now())));
            let rendered: (() => void) | undefined;
            w.__host = (m) => m.type === "rendered" && rendered?.();
            if (kind === "panel") {
              const header = { threadId: "b", title: "bench", agent: "bench", cwd: "/b", acceptsInput: false };
              window.postMessage({ type: "init", header, status: "working", events: [], scrollToEnd: true }, "*");
              await frame();
              await frame();
            }
            const out: number[] = [];
            let text = "";
            for (const chunk of chunks) {
              text += chunk;
              const start = frame(); // registered first: runs first in the next frame
              if (kind === "panel") {
                const done = new Promise<void>((r) => (rendered = r));
                window.postMessage({ type: "events", events: [{ type: "text", stream: "output", text: chunk }] }, "*");
                const t0 = await start;
                await done;
                out.push(performance.now() - t0);
              } else {
                const t0 = await start;
                w.baselineRender(text);
                out.push(performance.now() - t0);
              }
            }
            return out;
          },
          { chunks, kind },
        );
        const html = await p.locator("#entries").innerText();
        await p.close();
        if (errors.length) throw new Error(`${kind} page errors: ${errors.join("; ")}`);
        return { times, textLength: html.length };
      };
      const base = await run("baseline");
      const panel = await run("panel");
      const b = stats(base.times);
      const s = stats(panel.times);
      console.log(
        `streaming a ${LINES.toLocaleString()}-line answer (${(text.length / 1024).toFixed(0)} KiB) in ${chunks.length} chunks, one per frame:`,
      );
      console.log(
        `  thread panel (incremental):  frame work p50 ${ms(s.p50)}  p95 ${ms(s.p95)}  max ${ms(s.max)}  total ${ms(s.total)}`,
      );
      console.log(
        `  baseline (full re-render):   frame work p50 ${ms(b.p50)}  p95 ${ms(b.p95)}  max ${ms(b.max)}  total ${ms(b.total)}`,
      );
      console.log(
        `  p95 ratio baseline/panel: ${(b.p95 / s.p95).toFixed(1)}x; goal p95 <= 16 ms: ${s.p95 <= 16 ? "met" : "NOT met"}`,
      );
      console.log(
        `  rendered text: panel ${panel.textLength.toLocaleString()} chars, baseline ${base.textLength.toLocaleString()} chars`,
      );
    } finally {
      await browser.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
