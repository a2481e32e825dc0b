/**
 * Syntax highlighting, loaded on demand: the highlighter (highlight.js core + common languages) is its own
 * bundle, dist/webview/highlight.js, fetched the first time a finished code block is on screen, so opening a
 * thread never waits for it. It is added as a script carrying this page's CSP nonce (no eval, no inline code).
 * Blocks are highlighted a few at a time in idle time; the colours come from VS Code theme variables in
 * thread.css, by class.
 */
interface Highlighter {
  highlight(code: string, lang: string): string | undefined;
}
declare global {
  interface Window {
    acpHighlighter?: Highlighter;
  }
}

/** Larger blocks stay plain: highlighting them would stall the page for little gain. */
const MAX_CHARS = 200_000;
const SLICE_MS = 8;

const self = document.currentScript as HTMLScriptElement | null;
let loading: Promise<Highlighter | undefined> | undefined;
const queue = new Set<HTMLElement>();
let pumping = false;

function load(): Promise<Highlighter | undefined> {
  loading ??= new Promise((resolve) => {
    if (window.acpHighlighter) return resolve(window.acpHighlighter);
    if (!self?.src) return resolve(undefined);
    const s = document.createElement("script");
    s.src = self.src.replace(/[^/]+\.js(\?.*)?$/, "highlight.js$1");
    s.nonce = self.nonce;
    s.onload = () => resolve(window.acpHighlighter);
    s.onerror = () => resolve(undefined);
    document.head.appendChild(s);
  });
  return loading;
}

const idle = (fn: () => void) =>
  "requestIdleCallback" in window ? window.requestIdleCallback(fn, { timeout: 500 }) : setTimeout(fn, 16);

async function pump(): Promise<void> {
  if (pumping) return;
  pumping = true;
  const hl = await load();
  const step = () => {
    const until = performance.now() + SLICE_MS;
    for (const el of queue) {
      queue.delete(el);
      if (!el.isConnected || !hl) continue;
      const html = hl.highlight(el.textContent ?? "", el.dataset.hl ?? "");
      if (html !== undefined) el.innerHTML = html;
      el.dataset.hlDone = "1";
      if (performance.now() > until) break;
    }
    if (queue.size && hl) idle(step);
    else pumping = false;
  };
  idle(step);
}

/** Queues every finished, not yet highlighted code block under `root` (blocks still streaming are skipped). */
export function highlightWithin(root: ParentNode): void {
  for (const el of Array.from(root.querySelectorAll<HTMLElement>("code[data-hl]:not([data-hl-done])"))) {
    if (el.closest(".md-tail") || (el.textContent?.length ?? 0) > MAX_CHARS) continue;
    queue.add(el);
  }
  // the highlighter failed to load or threw: blocks stay plain, and the next render tries again
  if (queue.size)
    pump().catch(() => {
      pumping = false;
    });
}
