/**
 * Context chips: the same look in the prompt box and in the transcript (user messages). The transcript hook is
 * `renderContextChips(refs, thumbs)`: a row of chips, clickable (the panel posts `openContext`).
 */
import type { ContextKind, ContextRef } from "../../../core/model/context";

export const CHIP_ICON: Record<ContextKind, string> = {
  file: "file",
  folder: "folder",
  selection: "selection",
  symbol: "symbol-method",
  diagnostic: "warning",
  problems: "warning",
  thread: "comment-discussion",
  image: "file-media",
};

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/** Where a chip points, for its tooltip. */
export function chipTitle(ref: ContextRef): string {
  const where = ref.path ?? ref.uri;
  const range = ref.range ? ` lines ${ref.range.start}-${ref.range.end}` : "";
  const how =
    ref.sent === "embedded"
      ? " · sent with its text"
      : ref.sent === "link"
        ? " · sent as a link"
        : ref.sent === "text"
          ? " · sent as text"
          : "";
  return `${where}${range}${how}`;
}

/** A chip element for the prompt box (not editable inside; deleted as a whole). */
export function chipElement(ref: ContextRef): HTMLSpanElement {
  const el = document.createElement("span");
  el.className = `chip chip-${ref.kind}`;
  el.contentEditable = "false";
  el.title = chipTitle(ref);
  const icon = document.createElement("span");
  icon.className = `codicon codicon-${CHIP_ICON[ref.kind]}`;
  el.append(icon, document.createTextNode(ref.label));
  return el;
}

/** Thumbnails (data URLs) of image assets, sent by the host; images render once theirs is known. */
const thumbs = new Map<string, string>();

export function setThumbs(map: Record<string, string>): void {
  for (const [asset, url] of Object.entries(map)) {
    thumbs.set(asset, url);
    document.querySelectorAll<HTMLElement>(`.chip-image[data-asset="${CSS.escape(asset)}"]`).forEach((el) => {
      el.innerHTML = `<img class="thumb" src="${esc(url)}" alt="${esc(el.getAttribute("aria-label") ?? "")}">`;
    });
  }
}

/** The transcript's chips for a user message (the renderer's hook). Each chip carries its ref to be opened. */
export function renderContextChips(refs: readonly ContextRef[] | undefined): string {
  if (!refs?.length) return "";
  const chips = refs.map((ref) => {
    const asset = ref.kind === "image" ? (ref.thumb ?? ref.asset) : undefined;
    const src = asset ? thumbs.get(asset) : undefined;
    const body = src
      ? `<img class="thumb" src="${esc(src)}" alt="${esc(ref.label)}">`
      : `<span class="codicon codicon-${CHIP_ICON[ref.kind]}"></span>${esc(ref.label)}`;
    const cls = `chip chip-${ref.kind}${asset ? " chip-image" : ""}`;
    return `<button class="${cls}"${asset ? ` data-asset="${esc(asset)}"` : ""} data-ref="${esc(JSON.stringify(ref))}" title="${esc(chipTitle(ref))}" aria-label="${esc(ref.label)}">${body}</button>`;
  });
  return `<div class="context-chips">${chips.join("")}</div>`;
}
