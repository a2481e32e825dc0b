/**
 * Child process for store tests that need a second real process:
 *   write <home> <threadId>   open the thread, print "locked", then append records forever (killed by the test)
 *   live <home> <threadId>    open the thread, mark it live, print "live", then wait to be killed
 *   queued <home> <threadId>  open it as the window does (durability "soon": records queued for the thread pool),
 *                             print "locked", then append numbered records of varied sizes forever (killed by the test)
 *   sync <home> <rounds>      sync the thread index <rounds> times, print "synced <count>"
 */
import { syncThreadIndex, openThreadIndex } from "../../../../src/core/index/threads-index";
import { ThreadStore } from "../../../../src/core/store/thread-store";

async function main(): Promise<void> {
  const [mode, home, arg] = process.argv.slice(2);
  const store = new ThreadStore(home!);
  if (mode === "write" || mode === "live") {
    const h = store.open(arg!);
    if (mode === "live") {
      h.patch({ status: "live" });
      process.stdout.write("live\n");
      setInterval(() => undefined, 1000);
      return;
    }
    process.stdout.write("locked\n");
    const big = "x".repeat(200_000); // large lines make a kill mid-write likely
    for (let i = 0; ; i++) {
      h.append({ kind: "agent_message", messageId: `m${i}`, text: big });
      if (i % 50 === 0) await new Promise((r) => setImmediate(r));
    }
  }
  if (mode === "queued") {
    const h = await new ThreadStore(home!, { durability: "soon" }).openAsync(arg!);
    process.stdout.write("locked\n");
    for (let i = 0; ; i++) {
      h.append({ kind: "agent_message", messageId: `m${i}`, text: "y".repeat(1 + ((i * 7919) % 60_000)) });
      if (i % 20 === 0) await new Promise((r) => setImmediate(r)); // the pool's writes go out meanwhile
    }
  }
  if (mode === "sync") {
    let count = 0;
    for (let i = 0; i < Number(arg ?? 1); i++) {
      const index = openThreadIndex(store.layout.threadIndexDb);
      try {
        syncThreadIndex(index, store);
        count = index.count();
      } finally {
        index.close();
      }
    }
    process.stdout.write(`synced ${count}\n`);
    return;
  }
  throw new Error(`unknown mode ${mode}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
