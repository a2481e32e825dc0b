/**
 * `bench:recall`'s memory figure, in a process of its own: RSS growth from opening the index at `home` and running
 * the given searches (the bench's own process also held the import threads, whose leftovers blur its RSS).
 * Usage: node dist-test/bench/recall-rss.main.js <home> <needles JSON>; prints one JSON line.
 */
import { openRecall } from "../src/core/recall/recall";

const [home, needles] = process.argv.slice(2);
const before = process.memoryUsage().rss;
const recall = openRecall(home, { shardWorker: false });
for (let round = 0; round < 3; round++)
  for (const n of JSON.parse(needles) as string[]) recall.search(n, { global: true });
const growth = process.memoryUsage().rss - before;
recall.close();
console.log(JSON.stringify({ growth, peak: process.resourceUsage().maxRSS * 1024 }));
