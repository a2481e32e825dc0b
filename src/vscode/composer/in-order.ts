/**
 * Work per key that finishes in the order it was asked for: a prompt box's sends resolve their parts one after the
 * other, so a send whose thread mention is looked up on the disk is never overtaken by a later send that needs no
 * look (the prompts reach the agent, or its queue, in the order they were typed).
 */
export class InOrder {
  /** Per key: the last work asked for, settled either way (forgotten once settled, if still the last). */
  readonly #tails = new Map<string, Promise<void>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.#tails.get(key);
    const mine = before ? before.then(work) : work();
    const settled = () => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    };
    const tail = mine.then(settled, settled);
    this.#tails.set(key, tail);
    return mine;
  }
}
