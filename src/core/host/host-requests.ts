/**
 * The host's requests about one thread it holds (prompt, cancel, steer, answers, the run's controls and the
 * session's state): server.ts finds the thread and the asking client, this file does what the request says.
 * Connection-level requests (hello, run, attach, events, the editor's serve answers) stay in server.ts.
 */
import type { Duplex } from "node:stream";
import type { HostedThread } from "./hosted-thread";
import { RETRY_STEPS } from "../model/watchdog";
import { checkedPatch } from "./meta-patch";
import { optionLabel } from "../text/option-label";
import type { HostReply, HostRequest } from "./protocol";

const THREAD_REQUESTS = [
  "prompt",
  "cancel",
  "steer",
  "unqueue",
  "answer",
  "elicited",
  "retry",
  "patch",
  "stop_thread",
  "set_mode",
  "set_config",
  "login",
] as const;

export type ThreadRequest = Extract<HostRequest, { t: (typeof THREAD_REQUESTS)[number] }>;

export function isThreadRequest(req: HostRequest): req is ThreadRequest {
  return (THREAD_REQUESTS as readonly string[]).includes(req.t);
}

/** The asking client: its socket and the name its hello gave. */
export interface Asker {
  sock: Duplex;
  name: string;
}

export async function threadRequest(t: HostedThread, req: ThreadRequest, from: Asker): Promise<HostReply> {
  const { id } = req;
  const { control } = t;
  switch (req.t) {
    case "prompt":
      await control.prompt(req.text, req.parts);
      return { t: "ok", id };
    case "cancel":
      await control.cancel();
      return { t: "ok", id };
    case "steer": {
      const outcome = await control.steer(req.text, req.parts);
      if (req.queued && outcome === "injected") control.unqueue?.(req.text);
      return { t: "steered", id, outcome };
    }
    case "unqueue":
      if (!control.unqueue?.(req.text)) throw new Error("that prompt is not queued any more: its turn has started");
      return { t: "ok", id };
    case "answer": {
      // a requestId that is not a string names no question: refused as none pending (never the only one, nor any other)
      const requestId = req.requestId === undefined ? undefined : String(req.requestId);
      const { chosen, question } = t.answer(req.option, from.name, requestId);
      // the option's name as the thread's record keeps it (env values and key-like strings left out)
      const name = optionLabel(chosen.name);
      return {
        t: "answered",
        id,
        optionId: chosen.optionId,
        name,
        requestId: question.requestId,
        title: question.title,
      };
    }
    case "elicited":
      // only a client following the thread was shown the elicitation (unlike `answer`, which any shell may give)
      if (!t.clients.has(from.sock)) throw new Error(`this client is not attached to thread ${t.threadId}`);
      t.elicited(req.requestId, req.answer, from.name);
      return { t: "ok", id };
    case "retry":
      if (!control.retry) throw new Error(`the host's run of thread ${t.threadId} has no watchdog`);
      if (req.step !== undefined && !(RETRY_STEPS as readonly unknown[]).includes(req.step))
        throw new Error(`no retry step '${String(req.step)}': the steps are ${RETRY_STEPS.join(", ")}`);
      await control.retry(req.step, req.dismiss === true);
      return { t: "ok", id };
    case "patch": {
      const patch = checkedPatch(req.patch);
      if (t.state === "ended" || !control.rename || !control.link)
        throw new Error(`the host's run on thread ${t.threadId} has ended`);
      if (patch.forks || patch.handedOffTo) await control.link(patch); // checked first: a refusal writes nothing
      if (patch.title !== undefined) control.rename(patch.title);
      return { t: "ok", id };
    }
    case "stop_thread":
      if (t.state === "ended" || !control.stop) throw new Error(`the host's run on thread ${t.threadId} has ended`);
      control.stop();
      return { t: "ok", id };
    case "set_mode":
      await t.session.setMode(req.modeId);
      return { t: "ok", id };
    case "set_config":
      await t.session.setConfig(req.configId, req.value);
      return { t: "ok", id };
    case "login":
      await t.session.auth(req.action);
      return { t: "ok", id };
  }
}
