/**
 * Failures nobody awaits still have an owner. Work started and not awaited (a stop on abort, a refresh after an
 * event) and event listeners that throw report here, as VS Code's `onUnexpectedError` does: the extension routes it
 * to its output channel, the CLI to stderr. Never to the process's unhandled-rejection handler, which ends the CLI.
 * Lint (`no-floating-promises`, `void` not accepted) sends every fire-and-forget call to `background` or to an
 * explicit `.catch`.
 */
import { slot } from "./slot";
export type UnexpectedErrorHandler = (what: string, err: unknown) => void;

const toStderr: UnexpectedErrorHandler = (what, err) => {
  const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
  process.stderr.write(`[acp-threads error] ${what} failed: ${detail}\n`);
};

const handler = slot<UnexpectedErrorHandler>(toStderr);

/** Installs where unexpected errors go; returns a function that puts the previous handler back. */
export const setUnexpectedErrorHandler = (next: UnexpectedErrorHandler): (() => void) => handler.set(next);

/** Reports an error nobody up the stack can handle; `what` names the work that failed ("stopping the agent"). */
export function onUnexpectedError(what: string, err: unknown): void {
  try {
    handler.get()(what, err);
  } catch (reportFailure) {
    // the reporter itself failed (a disposed output channel): stderr is the last place left
    toStderr(what, err);
    toStderr("reporting an error", reportFailure);
  }
}

/** Runs `work` without awaiting it; a rejection is reported as `what` failing (or handed to `onError`). */
export function background(work: PromiseLike<unknown>, what: string, onError?: (err: unknown) => void): void {
  Promise.resolve(work).then(undefined, (err: unknown) => {
    if (!onError) return onUnexpectedError(what, err);
    try {
      onError(err);
    } catch (handlerFailure) {
      onUnexpectedError(what, handlerFailure);
    }
  });
}
