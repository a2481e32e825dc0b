/**
 * `fetchRegistry`: the index from the network, else the last good copy cached in the data home, else the
 * snapshot bundled with the extension/CLI. `source` says which, and `error` why the network copy was not used.
 */
import { readFileSync } from "node:fs";
import { errorMessage } from "../errors";
import { writeFileAtomic } from "../store/atomic-write";
import { getBytes } from "./http";
import { agentsLayout } from "./layout";
import { bundledSnapshot } from "./snapshot";
import type { RegistryListing } from "./types";
import { validateIndex } from "./validate";

export const REGISTRY_TIMEOUT_MS = 10_000;

interface CacheFile {
  url: string;
  fetchedAt: string;
  registry: unknown;
}

export async function fetchRegistry(opts: {
  url: string;
  dataHome: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}): Promise<RegistryListing> {
  const { cacheFile } = agentsLayout(opts.dataHome);
  let error: string;
  try {
    const bytes = await getBytes(opts.url, {
      timeoutMs: opts.timeoutMs ?? REGISTRY_TIMEOUT_MS,
      signal: opts.signal,
      allowFile: true, // the user's own copy of the registry; a redirect never leads to a file
    });
    let raw: unknown;
    try {
      raw = JSON.parse(bytes.toString("utf8"));
    } catch (err) {
      throw new Error(`${opts.url} is not JSON: ${errorMessage(err)}`, { cause: err });
    }
    const { index, rejected } = validateIndex(raw);
    const cache: CacheFile = { url: opts.url, fetchedAt: new Date().toISOString(), registry: raw };
    try {
      writeFileAtomic(cacheFile, JSON.stringify(cache));
    } catch {
      // a read-only data home still lists the registry; the cache is only a fallback
    }
    return { index, source: "network", url: opts.url, rejected };
  } catch (err) {
    opts.signal?.throwIfAborted();
    error = `could not read the registry at ${opts.url}: ${errorMessage(err)}`;
  }
  try {
    const cache = JSON.parse(readFileSync(cacheFile, "utf8")) as CacheFile;
    if (cache.url !== opts.url) throw new Error("the cache holds another registry");
    const { index, rejected } = validateIndex(cache.registry);
    return {
      index,
      source: "cache",
      url: opts.url,
      error: `${error} (using the copy of ${cache.fetchedAt})`,
      rejected,
    };
  } catch {
    const { index, rejected } = validateIndex(bundledSnapshot());
    return { index, source: "snapshot", url: opts.url, error: `${error} (using the bundled snapshot)`, rejected };
  }
}
