/**
 * A prompt with context made ready for one thread: the blocks built for the agent's prompt capabilities
 * (blocks.ts) and the images kept beside the thread, so the refs to record name their files. Building comes
 * first: a prompt the agent cannot take (an image for an agent without images) is refused before anything is
 * written or sent.
 */
import type { PromptPart } from "../model/context";
import { buildPrompt, type BuildOptions, type BuiltPrompt, type ContextSources, type PromptCaps } from "./blocks";
import { assetsDir, keepImage } from "./images";

export interface PrepareOptions extends BuildOptions {
  caps: PromptCaps | null | undefined;
  sources: ContextSources;
  /** The thread's folder of threads and its id: images go to `<threadsDir>/<threadId>.assets/`. */
  threadsDir: string;
  threadId: string;
}

export async function preparePrompt(parts: readonly PromptPart[], opts: PrepareOptions): Promise<BuiltPrompt> {
  const built = await buildPrompt(parts, opts.caps, opts.sources, opts);
  const dir = assetsDir(opts.threadsDir, opts.threadId);
  // refs follow the context parts one to one, in order
  const items = parts.flatMap((p) => (p.type === "context" ? [p.item] : []));
  built.refs = built.refs.map((ref, i) => {
    const item = items[i];
    if (ref.kind !== "image" || !item) return ref;
    const kept = keepImage(item, dir);
    return { ...ref, ...(kept.asset ? { asset: kept.asset } : {}), ...(kept.thumb ? { thumb: kept.thumb } : {}) };
  });
  return built;
}
