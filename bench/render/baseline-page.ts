// Baseline for the streaming bench, bundled for the browser at bench time: what a plain renderer does with a
// streamed answer: re-render the whole text with the same markdown-it setup on every frame.
import { renderMarkdown } from "../../src/webview/thread/transcript/markdown";

declare global {
  interface Window {
    baselineRender(text: string): void;
  }
}

const root = document.getElementById("entries")!;
const el = document.createElement("div");
el.className = "md";
root.appendChild(el);
window.baselineRender = (text: string) => {
  el.innerHTML = renderMarkdown(text);
  window.scrollTo(0, document.body.scrollHeight); // same forced layout as the panel's stick-to-bottom
};
