/**
 * A file protocol written once, run two ways. The protocol is a generator that yields I/O steps (plain objects
 * saying what to do) and gets each step's result back; `runSync` performs the steps with synchronous calls (the
 * CLI, tests), `runAsync` with promise-returning ones (the extension host, whose thread must not wait on the
 * disk). A step that fails is thrown into the generator where it yielded, so its `try`/`finally` work as usual.
 *
 *   function* readTwice(): Steps<Op, string> { const a = yield* step<Op, string>({ kind: "read" }); ... }
 */
export type Steps<Op, T> = Generator<Op, T, unknown>;

/** Yields one step and types its result (the executor's answer for it). */
export function* step<Op, R>(op: Op): Steps<Op, R> {
  return (yield op) as R;
}

export function runSync<Op, T>(steps: Steps<Op, T>, exec: (op: Op) => unknown): T {
  let next = steps.next();
  while (!next.done) {
    let out: unknown;
    try {
      out = exec(next.value);
    } catch (err) {
      next = steps.throw(err);
      continue;
    }
    next = steps.next(out);
  }
  return next.value;
}

export async function runAsync<Op, T>(steps: Steps<Op, T>, exec: (op: Op) => Promise<unknown>): Promise<T> {
  let next = steps.next();
  while (!next.done) {
    let out: unknown;
    try {
      out = await exec(next.value);
    } catch (err) {
      next = steps.throw(err);
      continue;
    }
    next = steps.next(out);
  }
  return next.value;
}
