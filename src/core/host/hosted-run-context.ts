/**
 * What a hosted run (hosted-runner.ts) takes from its `DetachedRun` and checks first: its prompts' context from the
 * wire, refused when any of it names a file outside the run's folders or a past thread without its text; and the
 * session options the editor gives its own sessions (the recall tools, traffic recording, a title, a handoff).
 */
import { resolve } from "node:path";
import { AcpThreadsError } from "../errors";
import type { ContextItem, PromptPart } from "../model/context";
import { isThreadId } from "../model/thread-id";
import { recallMcpFromWire, recallMcpServer } from "../recall/mcp-offer";
import type { RunLoopOptions } from "../session/run-options";
import { PATCH_TITLE_MAX, type DetachedRun } from "./protocol";
import { assertContextInside, contextFromWire, partsFromWire, type WirePromptPart } from "./wire-context";

/**
 * The run's first-prompt context from the wire, refused (the run does not start) when any of it names a file
 * outside the run's folders: its folder (`--cwd`'s, else the client's) and `roots`, and for a prepared worktree
 * its repository (a Best of N prompt's `@` chips name the workspace's files, as in the window).
 */
export async function runContext(run: DetachedRun): Promise<{ context: ContextItem[]; firstParts?: PromptPart[] }> {
  const context = contextFromWire(run.context);
  const firstParts = Array.isArray(run.parts) ? partsFromWire(run.parts) : undefined;
  const items = [...context, ...itemsOf(firstParts ?? [])];
  assertChipsCarryText(items);
  await assertInsideRun(run, items);
  return { context, ...(firstParts ? { firstParts } : {}) };
}

/** A later prompt's parts from the wire (a client's `prompt` to the open run), refused as the first prompt's are. */
export async function promptParts(run: DetachedRun, wire: WirePromptPart[]): Promise<PromptPart[]> {
  const parts = partsFromWire(wire);
  assertChipsCarryText(itemsOf(parts));
  await assertInsideRun(run, itemsOf(parts));
  return parts;
}

/**
 * Refuses (`usage`) a past-thread chip that came without its text: the host reads no thread's conversation for a
 * prompt (a window sends each chip's text, host-run-spec.ts), so the turn would fail before the agent saw the
 * prompt, and no client would hear of it. The client that sent it hears it instead.
 */
function assertChipsCarryText(items: readonly ContextItem[]): void {
  const bare = items.find((i) => i.kind === "thread" && typeof i.content !== "string");
  if (bare)
    throw new AcpThreadsError(
      "usage",
      `the thread "${bare.label}" came without its text: the thread host reads no thread for a prompt; send its text with the chip (or remove it)`,
    );
}

const itemsOf = (parts: readonly PromptPart[]): ContextItem[] =>
  parts.flatMap((p) => (p.type === "context" ? [p.item] : []));

/** Its folder, its roots and, for a prepared worktree, that worktree's repository (checked by the host on `run`). */
async function assertInsideRun(run: DetachedRun, items: readonly ContextItem[]): Promise<void> {
  if (!items.length) return;
  const repo = run.preparedWorktree?.ref.repo;
  await assertContextInside(items, [
    resolve(run.cwd, run.runCwd ?? "."),
    ...(run.roots ?? []),
    ...(repo ? [repo] : []),
  ]);
}

/**
 * The run's session options the editor gives its own sessions: the recall tools as an MCP server (started with
 * the asking client's command line, on this home), traffic recording turned off, a new thread's title, the
 * thread a handoff continues and the Node a Node-script agent gets when its default one does not fit.
 */
export function runtimeOptions(
  run: DetachedRun,
  home: string,
): Pick<RunLoopOptions, "mcpServers" | "recordTraffic" | "title" | "origin" | "nodePath"> {
  const recall = recallMcpFromWire(run.recallMcp);
  const title = typeof run.title === "string" ? run.title.trim().slice(0, PATCH_TITLE_MAX) : "";
  const from = typeof run.handoffFrom === "string" && isThreadId(run.handoffFrom) ? run.handoffFrom : undefined;
  return {
    ...(recall ? { mcpServers: [recallMcpServer(recall, home)] } : {}),
    ...(run.recordTraffic === false ? { recordTraffic: false } : {}),
    ...(title ? { title } : {}),
    ...(from ? { origin: { kind: "handoff", source: from } } : {}),
    ...(typeof run.nodePath === "string" && run.nodePath.trim() ? { nodePath: run.nodePath } : {}),
  };
}
