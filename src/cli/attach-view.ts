/**
 * What `acp-threads attach` shows: the thread's records from a cursor, printed as `run` prints its events, a
 * record never printed twice (a batch that overlaps what was shown is cut at the cursor), and the host's
 * permission questions, asked on a terminal (the first answer from any client wins; the others are told).
 */
import { createInterface } from "node:readline/promises";
import type { HostWatchdog, PendingElicitation, PendingQuestion } from "../core/host/protocol";
import type { ElicitationAnswer } from "../core/model/elicitation";
import type { ThreadRecord } from "../core/model/records";
import { recordsToEvents } from "../core/thread/record-events";
import type { CliIO } from "./io";
import type { TurnOutput } from "./output/turn-output";
import { cliElicitor } from "./elicitation-prompt";
import { optionLabel } from "../core/text/option-label";
import { agentLine } from "./terminal-text";
import { watchdogLine } from "./watchdog-line";

export class AttachView {
  /** The index of the next record not shown yet. */
  cursor: number;
  #turn = 0;
  /** A turn ended since the view started (records with kind turn_end). */
  turnsEnded = 0;
  #asking: AbortController | undefined;
  /** The options of the questions asked here, by request id: a settled one is named by its label. */
  readonly #options = new Map<string, PendingQuestion["options"]>();
  /** The elicitations asked here, by request id. */
  readonly #eliciting = new Map<string, AbortController>();
  #watchdog: string | undefined;

  constructor(
    private readonly io: CliIO,
    private readonly output: TurnOutput,
    from: number,
  ) {
    this.cursor = from;
  }

  /** Prints the records of a batch that starts at `from` and were not shown. */
  show(from: number, records: ThreadRecord[]): void {
    if (from > this.cursor) return; // a gap: the caller reattaches from the cursor
    const fresh = records.slice(this.cursor - from);
    if (!fresh.length) return;
    this.cursor += fresh.length;
    for (const r of fresh) if (r.kind === "user_message") this.#turn++;
    for (const e of recordsToEvents(fresh)) this.output.event(e, this.#turn);
    this.turnsEnded += fresh.filter((r) => r.kind === "turn_end").length;
  }

  /** Asks on a terminal; without one, says how to answer from any shell. Resolves with the choice (or null). */
  async ask(q: PendingQuestion): Promise<string | null> {
    const { stderr, stdin } = this.io;
    this.#options.set(q.requestId, q.options);
    stderr.write(`acp-threads attach: the agent asks permission: ${agentLine(q.title)}\n`);
    if ((stdin as { isTTY?: boolean }).isTTY !== true) {
      stderr.write(
        `  answer from any shell: acp-threads answer ${q.threadId} --option allow|reject|OPTION_ID --question ${q.requestId} (${q.options.map((o) => agentLine(o.optionId)).join(", ")})\n`,
      );
      return null;
    }
    q.options.forEach((o, i) => stderr.write(`  ${i + 1}. ${agentLine(o.name)} (${o.kind})\n`));
    this.#asking = new AbortController();
    const rl = createInterface({ input: stdin, output: stderr });
    try {
      for (;;) {
        const line = (await rl.question("choose a number: ", { signal: this.#asking.signal })).trim();
        const picked = q.options[Number(line) - 1];
        if (picked) return picked.optionId;
      }
    } catch {
      return null; // answered elsewhere (settled) or interrupted
    } finally {
      rl.close();
      this.#asking = undefined;
    }
  }

  /** On a terminal it asks the agent's elicitations (`attach` says so: the host asks them only of such clients). */
  get elicits(): boolean {
    return (this.io.stdin as { isTTY?: boolean }).isTTY === true;
  }

  /** Asks the agent's elicitation on the terminal (`run`'s prompts); null: withdrawn, or answered elsewhere. */
  async elicit(e: PendingElicitation): Promise<ElicitationAnswer | null> {
    if (this.#eliciting.has(e.requestId)) return null; // sent again on a reattach: asked already
    const abort = new AbortController();
    this.#eliciting.set(e.requestId, abort);
    const { stdin, stderr } = this.io;
    const base = { agentId: "", message: e.message, signal: abort.signal };
    const prompt =
      e.mode === "url"
        ? { ...base, mode: "url" as const, elicitationId: e.elicitationId, url: e.url, host: e.host }
        : { ...base, mode: "form" as const, form: e.form };
    const answer = await cliElicitor("ask", { stdin, stderr, interactive: true }).ask(prompt);
    return this.#eliciting.delete(e.requestId) && !abort.signal.aborted ? answer : null;
  }

  /** The thread's watchdog changed: its line, once per change of what it says. */
  watchdog(w: HostWatchdog): void {
    const line = watchdogLine(w, w.auto);
    if (line && line !== this.#watchdog) this.io.stderr.write(`acp-threads attach: ${line}\n`);
    this.#watchdog = line;
  }

  /**
   * Someone answered (`elicitation`: the agent's, settled with `action`): the prompt here closes, and says who and,
   * for a question asked here (`requestId`), the option's name (as the thread's record keeps it).
   */
  settled(
    optionId: string | null,
    by: string,
    elicitation?: { requestId: string; action: string },
    requestId?: string,
  ): void {
    const action = elicitation?.action;
    if (!elicitation) this.#asking?.abort();
    else this.#eliciting.get(elicitation.requestId)?.abort();
    if (elicitation) this.#eliciting.delete(elicitation.requestId);
    const name = this.#options.get(requestId ?? "")?.find((o) => o.optionId === optionId)?.name;
    if (requestId) this.#options.delete(requestId);
    const label = name ? ` "${agentLine(optionLabel(name))}"` : "";
    const what = action
      ? `the agent's question: ${action}`
      : optionId
        ? `answered ${agentLine(optionId)}${label}`
        : "no answer";
    this.io.stderr.write(`acp-threads attach: ${what} by ${agentLine(by)}\n`);
  }
}
