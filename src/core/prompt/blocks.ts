/**
 * The one prompt builder (editor and CLI): text with context items → ACP content blocks chosen by the agent's
 * `promptCapabilities`, the transcript text and the refs to record.
 *
 * - `resource_link` is always allowed: files, folders, and (without embedded context) selections and symbols
 *   go as links, a range in the URI fragment (`#L10:20`).
 * - With `embeddedContext`, files, selections and symbols go as embedded `resource`s holding the current
 *   text (the unsaved buffer in the editor), within size limits; a larger file falls back to a link.
 * - Diagnostics, the Problems list and past threads have no file to link: embedded when allowed, else text.
 * - Images go as `image` blocks only when `promptCapabilities.image`; otherwise the prompt is refused with a
 *   clear message before anything is sent.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { AcpThreadsError } from "../errors";
import type { ContextItem, ContextRef, PromptPart } from "../model/context";
import { cut, looksBinary, MAX_EMBED_CHARS, MAX_PROMPT_EMBED_CHARS, mimeTypeOf, sliceLines } from "./embed";

export type PromptCaps = Pick<acp.PromptCapabilities, "image" | "audio" | "embeddedContext">;

/** Where context text comes from: the editor (open buffers first) or the disk (CLI). */
export interface ContextSources {
  /** The file's current text, or undefined when it does not exist. */
  readText(absPath: string): Promise<string | undefined>;
  /** A past thread as text (its conversation), for `thread` mentions. */
  threadText?(threadId: string): Promise<string | undefined>;
}

export interface BuildOptions {
  /** Names the agent in messages ("Codex does not accept images"). */
  agentName?: string;
  maxEmbedChars?: number;
  maxPromptEmbedChars?: number;
}

export interface BuiltPrompt {
  blocks: acp.ContentBlock[];
  /** The prompt as the transcript shows it: the text with each chip as `@label`. */
  text: string;
  /** What to record (no file text, no image bytes), each with how it was sent. */
  refs: ContextRef[];
  /** Things the user should know (a file sent as a link because it is too large, a cut text). */
  notes: string[];
}

/** Strips the transient content of an item: what a record keeps. */
export function refOf(item: ContextItem): ContextRef {
  const { content: _c, data: _d, thumbData: _t, ...ref } = item;
  return ref;
}

const resourceLink = (item: ContextItem): acp.ContentBlock => {
  const mimeType = item.kind === "folder" ? "inode/directory" : item.path ? mimeTypeOf(item.path) : undefined;
  return {
    type: "resource_link",
    uri: item.uri,
    name: item.label,
    ...(mimeType ? { mimeType } : {}),
    ...(item.kind === "file" || item.kind === "selection" ? { title: item.path } : {}),
  };
};

const resource = (uri: string, text: string, mimeType?: string): acp.ContentBlock => ({
  type: "resource",
  resource: { uri, text, ...(mimeType ? { mimeType } : {}) },
});

const base64 = (data: Uint8Array): string =>
  Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("base64");

/**
 * Refuses (`usage`) a prompt with images for an agent that does not advertise promptCapabilities.image: the turn's
 * check, also made where a prompt is taken before its turn (the thread host's open run, before it is queued).
 */
export function assertTakesImages(
  parts: readonly PromptPart[],
  caps: PromptCaps | null | undefined,
  agent = "This agent",
): void {
  const images = parts.filter((p) => p.type === "context" && p.item.kind === "image");
  if (images.length && caps?.image !== true)
    throw new AcpThreadsError(
      "usage",
      `${agent} does not accept images (it does not advertise promptCapabilities.image); remove the image${images.length > 1 ? "s" : ""} or pick another agent`,
    );
}

/**
 * Refuses (`usage`) a prompt that would send the agent nothing: no text and no context. The turn's check, also made
 * where a prompt is taken before its turn (the thread host's open run: a client's `parts` may all be empty).
 */
export function assertNotEmpty(parts: readonly PromptPart[]): void {
  if (!parts.some((p) => p.type === "context" || p.text)) throw new AcpThreadsError("usage", "the prompt is empty");
}

export async function buildPrompt(
  parts: readonly PromptPart[],
  caps: PromptCaps | null | undefined,
  sources: ContextSources,
  opts: BuildOptions = {},
): Promise<BuiltPrompt> {
  assertNotEmpty(parts);
  assertTakesImages(parts, caps, opts.agentName);
  const maxItem = opts.maxEmbedChars ?? MAX_EMBED_CHARS;
  let budget = opts.maxPromptEmbedChars ?? MAX_PROMPT_EMBED_CHARS;
  const embedded = caps?.embeddedContext === true;

  const blocks: acp.ContentBlock[] = [];
  const refs: ContextRef[] = [];
  const notes: string[] = [];
  let text = "";
  const pushText = (t: string) => {
    const last = blocks[blocks.length - 1];
    if (last?.type === "text") last.text += t;
    else blocks.push({ type: "text", text: t });
  };
  /** Embeds `body` if allowed and within budget; returns false when it must go another way. */
  const tryEmbed = (uri: string, body: string, mimeType?: string): boolean => {
    if (!embedded || body.length > maxItem || body.length > budget) return false;
    budget -= body.length;
    blocks.push(resource(uri, body, mimeType));
    return true;
  };
  /** Text that has no file to link (diagnostics, Problems, threads): embedded, else inline text; cut to fit. */
  const sendText = (item: ContextItem, body: string, mimeType = "text/plain"): ContextRef["sent"] => {
    const fitted = cut(body, Math.max(1024, Math.min(maxItem, budget)));
    if (fitted.cut) notes.push(`${item.label}: cut to ${fitted.text.length.toLocaleString("en-US")} characters`);
    if (tryEmbed(item.uri, fitted.text, mimeType)) return "embedded";
    budget = Math.max(0, budget - fitted.text.length);
    pushText(`\n<context ref="${item.uri}" name="${item.label.replace(/"/g, "'")}">\n${fitted.text}\n</context>\n`);
    return "text";
  };

  for (const part of parts) {
    if (part.type === "text") {
      if (part.text) pushText(part.text);
      text += part.text;
      continue;
    }
    const item = part.item;
    let sent: ContextRef["sent"];
    switch (item.kind) {
      case "image":
        if (!item.data || !item.mimeType) throw new AcpThreadsError("usage", `image ${item.label} has no data`);
        blocks.push({
          type: "image",
          data: base64(item.data),
          mimeType: item.mimeType,
          ...(item.path ? { uri: item.uri } : {}),
        });
        sent = "image";
        break;
      case "file": {
        const body = embedded && item.path ? await sources.readText(item.path).catch(() => undefined) : undefined;
        if (body !== undefined && !looksBinary(body) && tryEmbed(item.uri, body, mimeTypeOf(item.path!)))
          sent = "embedded";
        else {
          if (body !== undefined && body.length > maxItem)
            notes.push(`${item.label}: ${body.length.toLocaleString("en-US")} characters, sent as a link`);
          blocks.push(resourceLink(item));
          sent = "link";
        }
        break;
      }
      case "selection":
      case "symbol": {
        let body = item.content;
        if (body === undefined && embedded && item.path && item.range) {
          const whole = await sources.readText(item.path).catch(() => undefined);
          if (whole !== undefined) body = sliceLines(whole, item.range);
        }
        if (body !== undefined && tryEmbed(item.uri, body, item.path ? mimeTypeOf(item.path) : undefined))
          sent = "embedded";
        else {
          blocks.push(resourceLink(item));
          sent = "link";
        }
        break;
      }
      case "folder":
        blocks.push(resourceLink(item));
        sent = "link";
        break;
      case "diagnostic":
      case "problems":
        sent = sendText(item, item.content ?? item.label);
        break;
      case "thread": {
        const body = item.content ?? (item.threadId ? await sources.threadText?.(item.threadId) : undefined);
        if (body === undefined) throw new AcpThreadsError("not_found", `the thread "${item.label}" was not found`);
        sent = sendText(item, body, "text/markdown");
        break;
      }
    }
    refs.push({ ...refOf(item), sent });
    if (item.kind !== "image") text += `@${item.label}`; // images show as thumbnails, not in the text
  }
  return { blocks, text, refs, notes };
}

/** The transcript text of prompt parts: text as typed, each mention as `@label` (images are not in the text). */
export function promptPartsText(parts: readonly PromptPart[]): string {
  return parts.map((p) => (p.type === "text" ? p.text : p.item.kind === "image" ? "" : `@${p.item.label}`)).join("");
}

/** A typed prompt followed by context items (the CLI's `--file` / `--image`), a space before each mention. */
export function textWithContext(text: string, items: readonly ContextItem[]): PromptPart[] {
  const parts: PromptPart[] = text ? [{ type: "text", text }] : [];
  for (const item of items) {
    const last = parts[parts.length - 1];
    if (item.kind !== "image" && last?.type === "text" && !/\s$/.test(last.text)) last.text += " ";
    else if (item.kind !== "image" && last?.type === "context") parts.push({ type: "text", text: " " });
    parts.push({ type: "context", item });
  }
  return parts;
}

/** A prompt of plain text (no context): what older callers send. */
export function textPrompt(text: string): BuiltPrompt {
  return { blocks: [{ type: "text", text }], text, refs: [], notes: [] };
}
