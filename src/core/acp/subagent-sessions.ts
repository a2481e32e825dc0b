/**
 * Child sessions (ACP `subagents` client capability, the "standard" subagent protocol codex-acp 2.6 speaks once we
 * advertise it): the agent announces a child with a `subagent_update` on the parent session (`update.sessionId` is
 * the child) and then sends the child's own `session/update`s with the child's session id. With codex's
 * multi-agent v2 tools the announcement is `subagent_spawned {subagentSessionId}` instead (seen live, see
 * test/interop/codex-subagent.test.ts) and codex sends no spawn tool call at all.
 *
 * We map that onto the nesting claude's subagents already use (`parentToolCallId`, see normalize.ts): each child
 * hangs under one tool call of the root session: codex's own `spawnAgent` call when one names the child's thread in
 * `rawInput.receiverThreadIds`, else a call of ours (`subagent:<child id>`) titled from the announcement. The
 * child's tool calls are re-addressed to the root session with `_meta.parentToolCallId`; its messages become the
 * text content of that call (the thread model has no nested messages). Everything else a child sends (plans,
 * usage, modes) is not the root session's and is dropped; updates of sessions nobody announced pass unchanged.
 */
import { headTail, TOOL_OUTPUT_HEAD, TOOL_OUTPUT_TAIL, type ToolCallTracker } from "./normalize";
import { isObj, str, type Obj } from "../util/guards";

interface Child {
  /** The root session (the one the user talks to): every routed update goes there. */
  rootSessionId: string;
  /** The tool call of the root session the child's work nests under. */
  callId: string;
  /** True when `callId` is a call of ours (we set its title, status and text). */
  own: boolean;
  title: string;
  text: string;
}

export interface Routed {
  sessionId: string;
  update: unknown;
}

/** A child announced in a `subagent_update`, before any of its traffic. */
const SUBAGENT_CALL_PREFIX = "subagent:";
/** Children remembered per runtime (a long session with many spawns forgets the oldest). */
const MAX_CHILDREN = 256;

/**
 * Updates that announce or update a child: the ACP `subagent_update {sessionId, title, description, state}` and
 * codex-acp 2.6's multi-agent v2 pair `subagent_spawned {subagentSessionId, name, task}` /
 * `subagent_state_update {subagentSessionId, state: "completed" | …}`.
 */
const ANNOUNCEMENTS = new Set(["subagent_update", "subagent_spawned", "subagent_state_update"]);

const statusOf = (state: unknown): string | undefined => {
  const s = isObj(state) ? str(state.state) : str(state);
  if (s === "running" || s === "requires_action" || s === "in_progress") return "in_progress";
  if (s === "idle" || s === "completed") return "completed";
  if (s === "failed" || s === "errored" || s === "error") return "failed";
  if (s === "cancelled" || s === "interrupted") return "cancelled";
  return undefined;
};

/** Whether `childSessionId` is the ACP session of a codex thread named in a spawn call's `receiverThreadIds`. */
function namesChild(call: { rawInput?: unknown }, childSessionId: string): boolean {
  const ids = isObj(call.rawInput) ? call.rawInput.receiverThreadIds : undefined;
  if (!Array.isArray(ids)) return false;
  return ids.some(
    (t) =>
      typeof t === "string" &&
      t !== "" &&
      (t === childSessionId || childSessionId.endsWith(`:subagent:${encodeURIComponent(t)}`)),
  );
}

export class SubagentSessions {
  readonly #children = new Map<string, Child>();

  constructor(private readonly toolsOf: (sessionId: string) => ToolCallTracker) {}

  /** The updates to normalize for one incoming `session/update` (usually just itself). */
  route(sessionId: string, update: unknown): Routed[] {
    if (isObj(update) && ANNOUNCEMENTS.has(update.sessionUpdate as string)) return this.#announce(sessionId, update);
    const child = this.#children.get(sessionId);
    if (!child || !isObj(update)) return [{ sessionId, update }];
    switch (update.sessionUpdate) {
      case "tool_call":
      case "tool_call_update": {
        const meta = isObj(update._meta) ? update._meta : {};
        const nested = { ...update, _meta: { ...meta, parentToolCallId: child.callId } };
        return [{ sessionId: child.rootSessionId, update: nested }];
      }
      case "agent_message_chunk": {
        const block = update.content;
        const text = isObj(block) && block.type === "text" ? (str(block.text) ?? "") : "";
        if (!text) return [];
        child.text = headTail(child.text + text, TOOL_OUTPUT_HEAD, TOOL_OUTPUT_TAIL);
        return [{ sessionId: child.rootSessionId, update: this.#callUpdate(child, {}) }];
      }
      default:
        return [];
    }
  }

  /** Whether a session id is a child we route (its requests belong to the root session's turn). */
  rootOf(sessionId: string): string | undefined {
    return this.#children.get(sessionId)?.rootSessionId;
  }

  #announce(parentSessionId: string, update: Obj): Routed[] {
    const childId =
      str(update.subagentSessionId) ?? (update.sessionUpdate === "subagent_update" ? str(update.sessionId) : undefined);
    // malformed (no child id, or the parent itself): nothing can be nested; the parent session keeps going
    if (!childId || childId === parentSessionId) return [];
    const parent = this.#children.get(parentSessionId);
    const rootSessionId = parent?.rootSessionId ?? parentSessionId;
    let child = this.#children.get(childId);
    const fresh = !child;
    if (!child) {
      const spawn = parent
        ? undefined
        : this.toolsOf(rootSessionId)
            .all()
            .find((c) => namesChild(c, childId));
      child = {
        rootSessionId,
        callId: spawn?.toolCallId ?? `${SUBAGENT_CALL_PREFIX}${childId}`,
        own: !spawn,
        title: "Subagent",
        text: "",
      };
      this.#children.set(childId, child);
      if (this.#children.size > MAX_CHILDREN) this.#children.delete(this.#children.keys().next().value!);
    }
    const description = str(update.description) ?? str(update.task);
    const title = str(update.title) ?? str(update.name) ?? description;
    if (title) child.title = `Subagent: ${title}`;
    if (!child.own) return [];
    const patch: Obj = {};
    const status = statusOf(update.state);
    if (status) patch.status = status;
    const out = this.#callUpdate(child, patch, fresh);
    if (parent) (out._meta as Obj).parentToolCallId = parent.callId;
    if (fresh) out.rawInput = { subagentSessionId: childId, description: description ?? null };
    return [{ sessionId: rootSessionId, update: out }];
  }

  #callUpdate(child: Child, patch: Obj, create = false): Obj {
    const out: Obj = {
      sessionUpdate: create ? "tool_call" : "tool_call_update",
      toolCallId: child.callId,
      _meta: {},
      ...patch,
    };
    if (child.own) out.title = child.title;
    if (create) {
      out.kind = "other";
      out.status = patch.status ?? "in_progress";
    }
    if (child.text) out.content = [{ type: "content", content: { type: "text", text: child.text } }];
    return out;
  }
}
