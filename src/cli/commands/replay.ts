/**
 * `acp-threads replay BUNDLE [--format text|json]`: plays a bug bundle's agent side against a fresh client and
 * reports where this client behaves differently from the recording. Exit 0: no divergence; 1: divergences.
 */
import { resolve } from "node:path";
import type { EngineReplies } from "../../core/engine/requests";
import { command } from "../command";
import { FORMAT } from "../flags";
import { EXIT } from "../io";
import { bundleEngine } from "./bundle";

export const main = command(
  {
    name: "replay",
    synopsis: "BUNDLE [--step-timeout S] [--format text|json]",
    args: { min: 1, max: 1, name: "BUNDLE" },
    flags: {
      "step-timeout": {
        type: "number",
        above: 0,
        arg: "S",
        help: "how long the client may take to send the next recorded message (default 20)",
      },
      format: FORMAT,
    },
    notes: `The replay runs in a new empty workspace (files the agent read first are put there), answers permission
requests as recorded, runs recorded terminal commands for real, and compares every message the client sends (ids,
_meta, the client's version and the workspace path aside; command output by its exit status) and the thread it
records (messages, tool calls, permissions, turn ends). Exit 0: no divergence, 1: divergences (listed).`,
  },
  async ({ io, flags, args }) => {
    const report = await bundleEngine(io).call({
      op: "bundle.replay",
      file: resolve(io.cwd, args[0]!),
      ...(flags["step-timeout"] !== undefined ? { stepTimeoutMs: flags["step-timeout"] * 1000 } : {}),
    });
    io.stdout.write(flags.format === "json" ? JSON.stringify(report, null, 2) + "\n" : renderReport(report));
    return report.ok ? EXIT.ok : EXIT.error;
  },
);

const show = (v: unknown) => {
  const s = JSON.stringify(v) ?? "undefined";
  return s.length > 160 ? `${s.slice(0, 159)}…` : s;
};

export function renderReport(r: EngineReplies["bundle.replay"]): string {
  const out = [
    `replayed the ${r.bundle.agent} bundle of thread ${r.bundle.threadId} (recorded ${r.bundle.createdAt}` +
      `${r.bundle.agents.length ? ` with ${r.bundle.agents.join(", ")}` : ""}) in ${r.durationMs} ms`,
    `${r.steps} recorded messages; ${r.matched} client messages matched`,
  ];
  if (r.ok) out.push("ok: no divergence");
  for (const d of r.divergences) {
    out.push(`DIVERGED at message #${d.step} (${d.expected}): ${d.message}`);
    if (d.path) out.push(`  recorded: ${show(d.recorded)}`, `  replayed: ${show(d.replayed)}`);
  }
  for (const t of r.thread)
    out.push(
      `THREAD differs at line ${t.index + 1}:`,
      `  recorded: ${t.recorded ?? "(nothing)"}`,
      `  replayed: ${t.replayed ?? "(nothing)"}`,
    );
  for (const n of r.notes) out.push(`note: ${n}`);
  return out.join("\n") + "\n";
}
