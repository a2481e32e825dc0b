/**
 * Where a thread's protocol traffic goes once its file is full (traffic.ts rotates it once): `<id>.ndjson` →
 * `<id>.1.ndjson`. A pure helper (scripts/engine-boundary.mjs): the window's "Show protocol traffic" reads both.
 */
export const rotatedPath = (path: string): string => path.replace(/\.ndjson$/, ".1.ndjson");
