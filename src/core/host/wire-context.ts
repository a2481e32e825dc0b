/**
 * `run --detach --file/--image` (#35): the context items cross the host's socket as JSON. The asking client
 * resolves and checks them against its folder, as `run` does (contextFromFlags), and reads the images; file and
 * folder refs go as refs (the host reads the files when the prompt is sent, as `run` does), images with their
 * bytes in base64. The host takes back only what parses (parseContextRef) and images that sniff as images.
 */
import type { ContextItem } from "../model/context";
import { parseContextRef } from "../model/context";
import { imageItem } from "../prompt/images";

export type WireContextItem = { kind: "image"; label: string; path?: string; base64: string } | ContextItem;

export function contextToWire(items: readonly ContextItem[]): WireContextItem[] {
  return items.map((i) =>
    i.kind === "image" && i.data
      ? {
          kind: "image",
          label: i.label,
          ...(i.path ? { path: i.path } : {}),
          base64: Buffer.from(i.data).toString("base64"),
        }
      : i,
  );
}

export function contextFromWire(items: readonly WireContextItem[] = []): ContextItem[] {
  return items.flatMap((i): ContextItem[] => {
    if ("base64" in i) return [imageItem(Buffer.from(i.base64, "base64"), i.label, i.path ? { path: i.path } : {})];
    const ref = parseContextRef(i);
    return ref && ref.kind !== "image" ? [ref] : [];
  });
}
