/** What the prompt box's host (composer-host.ts) is given: by the window's wiring, and later by the modules above it. */
import type * as vscode from "vscode";
import type { Logger } from "../../core/log";
import type { ContextSources } from "../../core/prompt/blocks";
import type { ThreadStore } from "../../core/store/thread-store";
import type { Config } from "../config";
import type { LiveSession } from "../live-session";
import type { RegistryService } from "../registry/registry-service";
import type { HostedBoxDeps } from "../host/hosted-composer";
import type { DraftAgentsDeps } from "./draft-agents";
import type { DraftHostStart, DraftLinks, DraftSpawn } from "./draft-start";
import type { RecallChoice, ThreadChoice } from "./mentions";

export interface ComposerDeps
  extends DraftAgentsDeps, Pick<HostedBoxDeps, "hosted" | "continueInHost" | "promptInHost"> {
  config: Config;
  /** Agents installed from the ACP Registry (listed like presets) and their updates. */
  registry: RegistryService;
  memento: vscode.Memento;
  threads: ThreadStore;
  /** Past threads for `@` (most recent first). */
  pastThreads(): Promise<ThreadChoice[]>;
  files: ContextSources["readText"];
  logger: Logger;
  live(threadId: string): LiveSession | undefined;
  openThread(threadId: string): void;
  closePanel(threadId: string): void;
  /** A new thread in the thread host (`acpThreads.host.runSessions: host`), its panel opened; else undefined. */
  startInHost?(s: DraftHostStart): Promise<void> | undefined;
  /** Starts a session for a new thread's panel (same id); its first prompt is sent by the composer. */
  spawn(p: DraftSpawn): LiveSession | Promise<LiveSession>;
}

/** What the host side needs from modules that sit above the hub (exec terminals, recall); set at activation. */
export interface ComposerLinks extends DraftLinks {
  /** `signal`: aborted when the panel asks for newer suggestions (the older search is cancelled in the worker). */
  recall?(query: string, signal?: AbortSignal): Promise<RecallChoice[]>;
  /** Resumes a stored thread in its panel (#37); undefined when it cannot start here (another window writes it). */
  resume?(threadId: string): Promise<LiveSession | undefined>;
  /** What a "Not installed" agent of the picker offers (agent-actions.ts). */
  agentActions?(agentId: string): Promise<unknown>;
}
