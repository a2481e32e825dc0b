/**
 * Exec runs in the edit ledger: each run is one turn (turn 1) of the thread the thread recorder made for it.
 * Wraps that recorder. Call `prepare(cwd)` before starting the process, so the folder's baseline is ready and
 * edits made before the run are taken in before anything the run writes (the recorder hooks are synchronous
 * and fire only after the process started).
 */
import { errorMessage } from "../errors";
import type { Disposable } from "../lifecycle";
import type { Logger } from "../log";
import type { ExecRecorder, OutputEvent, OutputSlice, RunState } from "../exec/types";
import type { EditLedger } from "./edit-ledger";
import type { TurnCapture } from "./turn-capture";

export class LedgerExecRecorder implements ExecRecorder {
  readonly #captures = new Map<string, Promise<TurnCapture | undefined>>();
  readonly #prepared = new Map<string, Disposable>();

  constructor(
    private readonly ledger: EditLedger,
    private readonly inner: ExecRecorder | undefined,
    private readonly logger?: Logger,
  ) {}

  /** Builds `cwd`'s baseline now (await it before `registry.start`). */
  async prepare(cwd: string): Promise<void> {
    const lease = await this.ledger.prepare(cwd);
    this.#prepared.get(cwd)?.dispose();
    this.#prepared.set(cwd, lease);
  }

  started(run: RunState): string | undefined {
    const threadId = this.inner?.started(run);
    if (!threadId) return threadId;
    const lease = this.#prepared.get(run.cwd);
    this.#prepared.delete(run.cwd);
    const agent = { id: run.presetId ?? "exec", name: run.presetId ?? run.command };
    const capture = this.ledger
      .beginTurn({ threadId, turn: 1, cwd: run.cwd, agent }, { prepared: !!lease })
      .catch((err) => {
        this.logger?.warn(`edit ledger: exec run ${run.id} is not recorded: ${errorMessage(err)}`);
        return undefined;
      })
      .finally(() => lease?.dispose());
    this.#captures.set(run.id, capture);
    return threadId;
  }

  output(event: OutputEvent): void {
    this.inner?.output(event);
  }

  exited(run: RunState, read: (cursor: number, maxBytes: number) => OutputSlice): void {
    this.inner?.exited(run, read);
    const capture = this.#captures.get(run.id);
    this.#captures.delete(run.id);
    const status = run.status === "exited" ? `exit ${run.exitCode}` : run.status;
    if (capture)
      this.ledger.track(
        capture.then((c) => c?.end(status)).catch((err) => this.logger?.warn(`edit ledger: ${errorMessage(err)}`)),
      );
  }

  patched(run: RunState, patch: Partial<Pick<RunState, "transcriptPath">>): void {
    this.inner?.patched(run, patch);
  }
}
