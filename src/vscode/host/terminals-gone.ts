/**
 * The hosted terminals this window shows (serve-terminals.ts: agents' terminals and exec runs) that ended while it
 * was not connected to the thread host. The host sends a terminal's end only to the clients connected then: a host
 * that died (SIGKILLed: its parent guard stopped the runs) or dropped this window (a slow client) leaves them
 * "running" here, and closing one would try to stop a run that is gone. So when the connection closes, the window
 * looks for the host at once (connecting only when its socket is there) and reads its status: every terminal shown
 * here that the status does not list ends, saying why (the host ended, or it ended meanwhile); with no host
 * answering, all of them end. The ones it lists run on, shown again by the host.
 */
import type * as vscode from "vscode";
import { background } from "../../core/util/unexpected";
import type { HostLink } from "./host-link";
import type { HostedTerminals } from "./serve-terminals";

const HOST_ENDED = "interrupted — the thread host ended";
const ENDED_MEANWHILE = "ended while this window was not connected to the thread host";

/** `looked`: settles once the looks asked for so far are done (the host test waits for it). */
export function wireTerminalsGone(
  link: HostLink,
  terminals: HostedTerminals,
): vscode.Disposable & { looked(): Promise<void> } {
  let turn: Promise<void> = Promise.resolve();
  // one look at a time, in order: a connection that closes while looking is looked at again after
  const sub = link.onDidLose(({ letGo }) => {
    // let go: the host held nothing and this window serves nothing, so it was shown no terminal
    if (letGo || !terminals.showing) return;
    const before = link.hostPid;
    const next = turn.then(() => look(link, terminals, before));
    turn = next.catch(() => undefined);
    background(next, "looking for the thread host's terminals");
  });
  return { dispose: () => sub.dispose(), looked: () => turn };
}

async function look(link: HostLink, terminals: HostedTerminals, before: number | undefined): Promise<void> {
  if (!terminals.showing) return;
  await link.check();
  const c = link.connected ? await link.connection() : undefined;
  if (!c) return terminals.reconcile(new Set(), terminals.mark(), HOST_ENDED, "interrupted");
  if (c.closed) return; // closed again: its own loss looks again
  const asked = terminals.mark();
  const r = await c.request({ t: "status" }).catch(() => undefined);
  if (r?.t !== "status") return;
  const { status } = r;
  const running = new Set([...(status.terminals ?? []), ...(status.execs ?? []).map((e) => e.runId)]);
  const same = before === undefined || status.pid === before;
  terminals.reconcile(running, asked, same ? ENDED_MEANWHILE : HOST_ENDED, same ? "lost" : "interrupted");
}
