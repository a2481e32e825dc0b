/**
 * The engine requests of the registry area (#35 item 7; joined into core/engine/requests.ts): the ACP Agent
 * Registry (its listing), the agents installed from it, and installing, updating and removing them.
 *
 * Trust: an install or an update names a registry agent id and nothing else. The engine reads the registry itself
 * (the registry the engine is set up with: the front end's `registryUrl` in process, else ACP_THREADS_REGISTRY_URL,
 * else the home's setting, else the official one) and installs that entry's package, archive or binary at the
 * entry's version. A request never carries a URL, a path, a command line or a package spec: an id that is not a
 * registry id (`AGENT_ID`) is refused before anything is read, and an id the registry does not list is refused
 * before anything is downloaded or written.
 */
import type { ErrorCode } from "../errors";
import type { InstalledAgent, RegistryListing } from "../registry/types";

export type RegistryRequest =
  /** The registry (network, else the cached copy, else the bundled snapshot), and the installed agents' updates. */
  | { op: "registry.list" }
  /**
   * Installs the registry's entry `agentId` (its current version). Already installed at that version: nothing is
   * done (`already`), unless `reinstall`. Progress: a warning when the registry is not the network's copy, then the
   * install's phases (`{t: "install"}`). The request's signal stops the install while it runs (nothing is kept).
   */
  | { op: "registry.install"; agentId: string; reinstall?: boolean }
  /**
   * Installs the registry's newer version of the installed agent `agentId` (of each installed agent when absent).
   * Stops at the first that fails (`failed`: the ones before it are updated). Progress as `registry.install`'s.
   */
  | { op: "registry.update"; agentId?: string }
  /** Uninstalls the agent `agentId` (`removed: false`: it was not installed). */
  | { op: "registry.remove"; agentId: string }
  /** The agents installed from the registry, as `installed.json` records them. */
  | { op: "agents.installed" };

/** An installed agent's update: `to` is the version installed now (absent: it was up to date). */
export interface RegistryUpdate {
  id: string;
  version: string;
  to?: string;
}

export interface RegistryReplies {
  /** `updates`: the newer registry version of each installed agent that has one, by id. */
  "registry.list": RegistryListing & { installed: InstalledAgent[]; updates: Record<string, string> };
  /** `already`: that version was installed and nothing was done. */
  "registry.install": { agent: InstalledAgent; already: boolean };
  /** `failed`: the update that failed (its error's message, and code when an engine error); `updates` were done. */
  "registry.update": { updates: RegistryUpdate[]; failed?: { id: string; code?: ErrorCode; message: string } };
  "registry.remove": { removed: boolean };
  "agents.installed": InstalledAgent[];
}
