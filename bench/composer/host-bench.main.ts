// Loaded by the extension host (test/host/run.mjs --tests): times the prompt box's `@` suggestions against
// VS Code's file search per keystroke, on the workspace the bench wrote; figures go to ACP_BENCH_OUT as JSON.
import { appendFileSync, writeFileSync } from "node:fs";
import * as vscode from "vscode";
import type { AcpThreadsApi } from "../../src/vscode/extension";
import type { HostMessage } from "../../src/webview/thread/protocol";
import { excludeGlob } from "../../src/vscode/composer/file-index";
import { TYPED } from "./workspace";

const pct = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

export async function run(): Promise<void> {
  const ext = vscode.extensions.getExtension<AcpThreadsApi>("acp-threads.acp-threads")!;
  const { hub } = (await ext.activate())!;
  let t = performance.now();
  await hub.composer.files.ensure();
  const listMs = performance.now() - t;
  const firstFiles = (seq: number, posts: HostMessage[]) =>
    posts.some((m) => m.type === "completions" && m.seq === seq && m.items.some((i) => i.group === "files"));
  const ours: number[] = [];
  const base: number[] = [];
  let seq = 0;
  for (let round = 0; round < 3; round++) {
    for (const q of TYPED) {
      const posts: HostMessage[] = [];
      const panel = { threadId: "bench", post: (m: HostMessage) => void posts.push(m) };
      const s = ++seq;
      t = performance.now();
      let first = 0;
      const done = hub.composer.handle(panel, { type: "complete", seq: s, trigger: "@", query: q });
      await new Promise<void>((resolve) => {
        const poll = () =>
          firstFiles(s, posts) || q === "xyzq" ? ((first = performance.now() - t), resolve()) : setImmediate(poll);
        poll();
      });
      await done;
      ours.push(first);
      t = performance.now();
      await vscode.workspace.findFiles(`**/*${q.replace(/[/]/g, "*")}*`, excludeGlob(), 30);
      base.push(performance.now() - t);
    }
  }
  const figures = {
    files: hub.composer.files.lastBuild?.files ?? 0,
    listMs,
    p50: pct(ours, 0.5),
    p95: pct(ours, 0.95),
    max: Math.max(...ours),
    baseP50: pct(base, 0.5),
    baseP95: pct(base, 0.95),
  };
  if (process.env.ACP_BENCH_OUT) writeFileSync(process.env.ACP_BENCH_OUT, JSON.stringify(figures));
  if (process.env.ACP_HOST_RESULTS) appendFileSync(process.env.ACP_HOST_RESULTS, "1 passed, 0 failed\n");
}
