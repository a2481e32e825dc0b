/** A prompt as its thread records it (the user message): what the user said, not the bytes that were sent. */
import type * as acp from "@agentclientprotocol/sdk";

/** Prompt content: plain text, or ACP content blocks (text, images, resources, links). */
export type PromptContent = string | readonly acp.ContentBlock[];

/** Text blocks verbatim; links and resources as `@name`, images and audio as a placeholder. */
export function promptText(prompt: PromptContent): string {
  if (typeof prompt === "string") return prompt;
  return prompt
    .map((b) => {
      switch (b.type) {
        case "text":
          return b.text;
        case "resource_link":
          return `@${b.name}`;
        case "resource":
          return `@${b.resource.uri.split("/").pop() || b.resource.uri}`;
        case "image":
          return "[image]";
        case "audio":
          return "[audio]";
        default:
          return "";
      }
    })
    .join("");
}

/** `prompt` with `seed` (context for a fresh agent session) in front, in the prompt's own shape. */
export function withSeed(seed: string, prompt: PromptContent): string | acp.ContentBlock[] {
  if (typeof prompt === "string") return seed + prompt;
  return seed ? [{ type: "text", text: seed }, ...prompt] : [...prompt];
}
