/**
 * The agent list of a new thread's panel: the quick list at once, then doctor's versions and the registry's
 * installed agents and updates; the agent each panel shows picked (the user's pick there, else the last one
 * used, never "Custom command line"); and the permission setting the session will start under. Every list is
 * built when it goes out, so a pick or a settings change made meanwhile stands (issue #27).
 */
import type * as vscode from "vscode";
import type { PermissionPolicy } from "../../core/model/agent";
import type { Logger } from "../../core/log";
import type { ComposerState } from "../../webview/thread/protocol";
import type { Config } from "../config";
import type { Engine } from "../../core/engine/requests";
import type { DoctorAnswers, PathAnswers } from "../engine";
import type { RegistryService } from "../registry/registry-service";
import { agentOptionsWithVersions, EXEC_PREFIX, quickAgentOptions, withUpdates } from "./agent-options";

const LAST_AGENT_KEY = "acpThreads.lastAgent";
/** Never preselected from the last pick: it runs what is typed, so the user picks it by hand each time. */
const CUSTOM_EXEC = `${EXEC_PREFIX}custom`; // the webview's CUSTOM_EXEC_ID

/** How the permission setting reads in a new thread's panel (before any agent runs). */
export const POLICY_WORDS: Record<PermissionPolicy, string> = {
  ask: "asks you before every action",
  "approve-reads": "reads pass; edits and commands ask you",
  "approve-all": "allows every action without asking",
  "deny-all": "denies every action",
};

const withLogin = (a: DraftState["agents"][number], login: string | undefined) =>
  login ? { ...a, detail: [a.detail, login].filter(Boolean).join(" · ") } : a;

export type DraftState = NonNullable<ComposerState["draft"]>;

export interface DraftAgentsDeps {
  config: Config;
  registry: RegistryService;
  memento: vscode.Memento;
  logger: Logger;
  /** The engine doctor is asked of (hub.engine). */
  engine: Engine;
  /** Doctor's answers of the last seconds: every open panel asks on each settings change. */
  doctorAnswers?: DoctorAnswers;
  /** Which commands are on PATH, shared by every open panel (hub.pathAnswers): one lookup per change, not N. */
  pathAnswers?: PathAnswers;
  /** The login state a running session of the agent last reported (login-view.ts), shown in its detail. */
  loginOf?(agentId: string): string | undefined;
}

export class DraftAgents {
  /** The agent picked in each new thread's panel: every list sent later keeps it. */
  readonly #picks = new Map<string, string>();

  constructor(private readonly deps: DraftAgentsDeps) {}

  /** The agent a new thread's panel shows picked: the user's pick there, else the last one used. */
  pickOf(threadId: string): string | undefined {
    const last = this.deps.memento.get<string>(LAST_AGENT_KEY);
    return this.#picks.get(threadId) ?? (last === CUSTOM_EXEC ? undefined : last);
  }

  /** The user picked `agentId` in this panel; later panels start from it too. */
  async pick(threadId: string, agentId: string): Promise<void> {
    this.#picks.set(threadId, agentId);
    await this.remember(agentId);
  }

  async remember(agentId: string): Promise<void> {
    await this.deps.memento.update(LAST_AGENT_KEY, agentId);
  }

  forget(threadId: string): void {
    this.#picks.delete(threadId);
  }

  /**
   * Sends the list to a panel: the quick one (which commands are on PATH) first, doctor's (with versions and
   * updates) after it when it is in, neither once `stillDraft` says the panel started meanwhile.
   * `folders`/`cwd`: the workspace as it is now.
   */
  post(
    threadId: string,
    send: (draft: DraftState) => void,
    stillDraft: () => boolean,
    folders: string[],
    cwd: string,
  ): void {
    const { config, registry, doctorAnswers, pathAnswers, engine } = this.deps;
    // the pick and the setting are read when each list goes out, never when the panel opened
    const out = (agents: DraftState["agents"], checked = false) =>
      send({
        agents: agents.map((a) => withLogin(a, this.deps.loginOf?.(a.id))),
        agentId: this.pickOf(threadId),
        folders,
        folder: cwd,
        checked,
        policy: POLICY_WORDS[config.permissionMode],
        sandbox: { on: config.sandbox === "workspace-write", unattended: config.sandboxUnattended },
      });
    // the PATH lookups run on the thread pool, shared by every open panel; the checked list never goes out before it
    const quick = quickAgentOptions(config, cwd, registry, pathAnswers).then(
      (agents) => void (stillDraft() && out(agents)),
      (err) => this.deps.logger.warn("the agents' PATH lookup failed", err),
    );
    // doctor's versions, and the registry's newer versions when it was not read yet (cache or snapshot offline)
    const listing = registry.last ? undefined : registry.listing().catch(() => undefined);
    void Promise.all([
      agentOptionsWithVersions(engine, config, cwd, registry, doctorAnswers, pathAnswers),
      listing,
      quick,
    ])
      .then(([agents]) => withUpdates(agents, registry))
      .then((agents) => stillDraft() && out(agents, true))
      .catch((err) => this.deps.logger.warn("doctor failed", err));
  }
}
