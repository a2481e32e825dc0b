/**
 * The engine requests of forks and handoff links (core/engine/requests.ts): writing a fork (core/handoff/fork.ts)
 * and listing a handoff's new thread in its source (core/handoff/link.ts).
 */
import { writeFork } from "../handoff/fork";
import { linkHandoff } from "../handoff/link";
import type { Handlers } from "./serve-types";

export const handoffOps: Handlers<"fork.write" | "handoff.link"> = {
  "fork.write": ({ store }, req) => {
    const fork = writeFork(store, req.sourceId, req.at, {
      ...(req.agent ? { agent: req.agent } : {}),
      ...(req.agentSessionId ? { agentSessionId: req.agentSessionId } : {}),
      ...(req.title !== undefined ? { title: req.title } : {}),
      ...(req.allowEmpty ? { allowEmpty: true } : {}),
    });
    return { threadId: fork.threadId, atEnd: fork.atEnd, ...(fork.unlinked ? { unlinked: fork.unlinked } : {}) };
  },
  "handoff.link": ({ store }, req) => {
    if (req.write !== false) {
      const error = linkHandoff(store, req.from, req.to);
      return error ? { error } : {};
    }
    let patch: { handedOffTo: string[] } | undefined;
    const error = linkHandoff(store, req.from, req.to, (p) => (patch = p));
    return { ...(error ? { error } : {}), ...(patch ? { patch } : {}) };
  },
};
