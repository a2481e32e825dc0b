/**
 * `threads import --from-agent AGENT [--cwd DIR | --all] [--dry-run]`: the agent's own sessions (its CLI, Zed, another
 * editor) become threads (core/import/agent-import.ts). Progress on stderr, then one line per session and the
 * counts (imported / updated / unchanged / failed); `--format json` prints the summary. Exit 1 when a session
 * failed, 130 when interrupted (what was imported stays).
 */
import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { localEngine } from "../../core/engine/local";
import { AcpThreadsError } from "../../core/errors";
import { summaryLine, type SessionOutcome } from "../../core/import/import-summary";
import { str } from "../../core/util/guards";
import { table } from "../exec/context";
import { EXIT } from "../io";
import { shortId, writeJson, type SubContext } from "./common";

const canonical = (dir: string) => {
  try {
    return realpathSync(dir);
  } catch {
    throw new AcpThreadsError("not_found", `no folder ${dir}`);
  }
};

function label(s: { title?: string | null; sessionId: string }): string {
  return s.title?.trim() || s.sessionId;
}

function row(s: SessionOutcome): string[] {
  return [s.action, s.threadId ? shortId(s.threadId) : "-", label(s), s.reason ?? ""];
}

export async function importFromAgent(ctx: SubContext): Promise<number> {
  const { io, store, flags } = ctx;
  if (ctx.args.length || flags.latest || flags.dir || flags.root)
    throw new AcpThreadsError(
      "usage",
      "--from-agent imports the agent's sessions: give no FILE, --latest, --dir or --root",
    );
  if (flags.all && flags.cwd) throw new AcpThreadsError("usage", "give --cwd DIR or --all, not both");
  const here = canonical(io.cwd);
  const cwd = flags.all ? undefined : str(flags.cwd) ? canonical(resolve(io.cwd, str(flags.cwd)!)) : here;
  const engine = localEngine({ store, env: io.env });
  const agent = str(flags["from-agent"])!;
  const { spec } = await engine.call({ op: "agents.resolve", agent, cwd: cwd ?? here });
  let at = { done: 0, total: 0 };
  const summary = await engine.call(
    {
      op: "agents.import",
      spec,
      ...(cwd ? { cwd } : {}),
      listFrom: here,
      dryRun: !!flags["dry-run"],
      managedNodes: true,
    },
    {
      signal: io.signal,
      onProgress: (p) => {
        if (p.t === "progress") at = p;
        if (p.t === "step") io.stderr.write(`[${at.done + 1}/${at.total}] ${p.message}\n`);
      },
    },
  );
  if (ctx.json) writeJson(io, summary);
  else {
    if (summary.sessions.length)
      io.stdout.write(table([["ACTION", "THREAD", "SESSION", ""], ...summary.sessions.map(row)]));
    io.stdout.write(`${spec.displayName}: ${summaryLine(summary)}\n`);
  }
  if (summary.cancelled) return EXIT.interrupted;
  return summary.failed ? EXIT.error : EXIT.ok;
}
