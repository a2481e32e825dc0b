/**
 * `run --detach --file/--image` and the editor's prompts with context (#35): the context items cross the host's
 * socket as JSON. The asking client resolves and checks them against its folder, as `run` does (contextFromFlags),
 * and reads the images; file and folder refs go as refs (the host reads the files when the prompt is sent, as
 * `run` does), images with their bytes in base64. The host takes back only what parses (parseContextRef) and
 * images that sniff as images, and refuses the run when a ref names a path outside the run's folders
 * (`runContextFromWire`): a client's chip is input like any other, never a way to read what the agent may not.
 */
import { fileURLToPath } from "node:url";
import { PathGuard } from "../acp/path-guard";
import { AcpThreadsError } from "../errors";
import type { ContextItem, PromptPart } from "../model/context";
import { parseContextRef } from "../model/context";
import { promptPartsText } from "../prompt/blocks";
import { imageItem } from "../prompt/images";

export type WireContextItem = { kind: "image"; label: string; path?: string; base64: string } | ContextItem;

/** A prompt as composed (text and context in order), as it crosses the socket. */
export type WirePromptPart = { type: "text"; text: string } | { type: "context"; item: WireContextItem };

/**
 * The most parts (text and context) one prompt may carry over the socket, and the most context items a run's
 * `context` may: far above what a person composes, a bound on what the host parses and reads for one prompt. An
 * image's bytes are bounded by imageItem (MAX_IMAGE_BYTES), the whole message by MAX_MESSAGE_BYTES.
 */
export const MAX_PROMPT_PARTS = 500;

function bounded<T>(list: readonly T[], what: string): readonly T[] {
  if (!Array.isArray(list)) throw new AcpThreadsError("usage", `the prompt's ${what} must be a list: refused`);
  if (list.length > MAX_PROMPT_PARTS)
    throw new AcpThreadsError("usage", `the prompt has ${list.length} ${what}; at most ${MAX_PROMPT_PARTS}: refused`);
  return list;
}

const itemToWire = (i: ContextItem): WireContextItem =>
  i.kind === "image" && i.data
    ? {
        kind: "image",
        label: i.label,
        ...(i.path ? { path: i.path } : {}),
        base64: Buffer.from(i.data).toString("base64"),
      }
    : i;

export function contextToWire(items: readonly ContextItem[]): WireContextItem[] {
  return items.map(itemToWire);
}

export function partsToWire(parts: readonly PromptPart[]): WirePromptPart[] {
  return parts.map((p) => (p.type === "text" ? p : { type: "context", item: itemToWire(p.item) }));
}

/**
 * A composed prompt as the host is sent it (a `prompt` request, a run's first prompt): its text as the thread
 * records it, and its parts when it carries more than text.
 */
export function promptToWire(parts: readonly PromptPart[]): { text: string; parts?: WirePromptPart[] } {
  const text = promptPartsText(parts);
  return parts.every((p) => p.type === "text") ? { text } : { text, parts: partsToWire(parts) };
}

const itemFromWire = (i: WireContextItem): ContextItem | undefined => {
  if ("base64" in i) return imageItem(Buffer.from(i.base64, "base64"), i.label, i.path ? { path: i.path } : {});
  const ref = parseContextRef(i);
  if (!ref || ref.kind === "image") return undefined;
  return typeof i.content === "string" ? { ...ref, content: i.content } : ref;
};

export function contextFromWire(items: readonly WireContextItem[] = []): ContextItem[] {
  return bounded(items, "context items").flatMap((i) => {
    const item = itemFromWire(i);
    return item ? [item] : [];
  });
}

/**
 * A composed prompt back from the wire: what does not parse is dropped, text is text. Throws (`usage`) for too many
 * parts, and for an image that is not one or is too large.
 */
export function partsFromWire(parts: readonly WirePromptPart[]): PromptPart[] {
  return bounded(parts, "parts").flatMap((p): PromptPart[] => {
    if (p?.type === "text") return typeof p.text === "string" ? [{ type: "text", text: p.text }] : [];
    const item = p?.type === "context" && p.item ? itemFromWire(p.item) : undefined;
    return item ? [{ type: "context", item }] : [];
  });
}

/** The file paths an item names: its `path` and a `file:` URI's (the agent is sent both). */
function pathsOf(item: ContextItem): string[] {
  const paths = item.path !== undefined ? [item.path] : [];
  if (item.uri.startsWith("file:")) {
    try {
      paths.push(fileURLToPath(item.uri.replace(/#.*$/, "")));
    } catch {
      paths.push(item.uri); // not a file URI this machine reads: refused below as not absolute
    }
  }
  return paths;
}

/**
 * Refuses (a `path_outside_workspace` error naming it) a context item whose file lies outside `roots`, symlinks
 * resolved: the host would read it, or point the agent at it, for a client.
 */
export async function assertContextInside(items: readonly ContextItem[], roots: readonly string[]): Promise<void> {
  const guard = new PathGuard([...roots]);
  for (const item of items)
    for (const path of pathsOf(item))
      await guard.check(path).catch((err: unknown) => {
        throw new AcpThreadsError(
          "path_outside_workspace",
          `the context "${item.label}" is outside the run's folders (${roots.join(", ")}): refused`,
          { path, cause: err instanceof Error ? err.message : String(err) },
        );
      });
}
