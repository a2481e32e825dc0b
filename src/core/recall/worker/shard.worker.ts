/**
 * The second core of a bulk import: imports its share of the new files into a shard file and says how it went
 * (shard-import.ts). Bundled on its own as dist/shard-worker.js (scripts/build.mjs: `*.worker.ts`).
 */
import { workerData } from "node:worker_threads";
import { importShard, type ShardData } from "../shard-import";

importShard(workerData as ShardData);
