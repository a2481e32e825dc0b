/**
 * Imported first by the one-shot recall commands. A new process runs one query, so compiling SQLite's WASM with
 * the optimizing tier is wasted work competing for the CPU: baseline (Liftoff) code only cuts a cold query's
 * wall time (see bench/recall.main.ts "cold CLI query"). The extension host keeps V8's defaults.
 */
import { setFlagsFromString } from "node:v8";

setFlagsFromString("--liftoff-only");
