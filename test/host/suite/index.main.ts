// Loaded BY THE EXTENSION HOST as extensionTestsPath. VS Code calls run(): a resolved promise means exit
// code 0, a rejection exit code 1. ACP_HOST_PASS picks the files: "main" (trusted workspace), "untrusted"
// (Workspace Trust on, folder not trusted) or "multiroot" (a `.code-workspace` of two folders). Results also go to
// ACP_HOST_RESULTS for run.mjs.
import { appendFileSync, existsSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { join } from "node:path";
import Mocha from "mocha";

const PASSES: Record<string, string[]> = {
  main: [
    "activation.test.js",
    "spawn-fake.test.js",
    "protocol-log.test.js",
    "files.test.js",
    "terminals.test.js",
    "sessions-view.test.js",
    "sessions-history.test.js",
    "sessions-first-paint.test.js",
    "thread-actions.test.js",
    "panel.test.js",
    "recall.test.js",
    "recall-import.test.js",
    "window-disk.test.js",
    "ledger.test.js",
    "ops.test.js",
    "usage.test.js",
    "spawn-real.test.js",
    "composer.test.js",
    "modes.test.js",
    "notify.test.js",
    "node-runtime.test.js",
    "first-contact.test.js",
    "thread-names.test.js",
    "registry-ui.test.js",
    "retention.test.js",
    "memory.test.js",
    "elicitation.test.js",
    "restore-state.test.js",
    "handoff-brief.test.js",
    "subagents.test.js",
    "login-state.test.js",
    "agent-import.test.js",
    "review-comments.test.js",
    "rewind.test.js",
    "worktrees.test.js",
    "best-of-panel.test.js",
    "worktree-merge.test.js",
    "worktree-review.test.js",
    "workspace-settings.test.js",
    "permission-ui.test.js",
    "answered-by.test.js",
    "permission-rules-ui.test.js",
    "sandbox.test.js",
    "host-client.test.js",
    "host-serve.test.js",
    "host-terms.test.js",
    "host-exec.test.js",
    "host-exec-gone.test.js",
    "host-place.test.js",
    "host-rename.test.js",
    "host-menu.test.js",
    "host-chrome.test.js",
    "host-state.test.js",
    "host-watch.test.js",
    "host-entry.test.js",
    "host-default.test.js",
    "host-stale-row.test.js",
    "host-answered.test.js",
    "host-daily.test.js",
    "host-daily-turns.test.js",
    "host-bestof.test.js",
    "host-bestof-reload.test.js",
    "host-bestof-cli.test.js",
    "host-links.test.js",
    "window-host.test.js",
    "host-once.test.js",
    "host-start-fail.test.js",
    "host-link-fresh.test.js",
    "thread-events.test.js",
    "restore-folders.test.js",
  ],
  untrusted: ["untrusted.test.js"],
  multiroot: ["multiroot.test.js"],
};

export function run(): Promise<void> {
  const out = process.env.ACP_HOST_RESULTS;
  const record = (s: string) => {
    if (out) appendFileSync(out, s + "\n");
  };
  const mocha = new Mocha({ ui: "bdd", color: false, timeout: 60_000, reporter: "spec" });
  if (process.env.ACP_HOST_GREP) mocha.grep(process.env.ACP_HOST_GREP);
  let missing = 0;
  for (const f of PASSES[process.env.ACP_HOST_PASS ?? "main"] ?? []) {
    if (existsSync(join(__dirname, f))) mocha.addFile(join(__dirname, f));
    else {
      missing++;
      record(`FAIL - suite file ${f} is missing (not built?)`);
    }
  }
  const profile = startProfile(process.env.ACP_HOST_CPU_PROFILE);
  return new Promise((resolve, reject) => {
    const runner = mocha.run(async (failures) => {
      await profile?.();
      const s = runner.stats;
      const failed = failures + missing;
      const summary = `${s?.passes ?? 0} passed, ${failed} failed${s?.pending ? `, ${s.pending} skipped` : ""}`;
      record(summary);
      console.log(summary);
      if (failed > 0) reject(new Error(`${failed} test(s) failed`));
      else resolve();
    });
    runner.on("pass", (t) => record(`ok   - ${t.fullTitle()} (${t.duration} ms)`));
    runner.on("fail", (t, err) => record(`FAIL - ${t.fullTitle()}: ${(err as Error)?.message}`));
    runner.on("pending", (t) => record(`skip - ${t.fullTitle()}`));
    // each top-level suite's whole time, its hooks included (run.mjs tells the slowest)
    const began = new Map<Mocha.Suite, number>();
    runner.on("suite", (suite) => {
      if (suite.parent?.root) began.set(suite, Date.now());
    });
    runner.on("suite end", (suite) => {
      const start = began.get(suite);
      if (start !== undefined) record(`suite - ${suite.title} (${Date.now() - start} ms)`);
    });
  });
}

/**
 * ACP_HOST_CPU_PROFILE=FILE: a sampling CPU profile of the extension host's thread for the whole pass (the extension,
 * VS Code's own code and the tests), written as a .cpuprofile when the pass ends. A tool for finding what keeps the
 * host busy; nothing reads it in a normal run.
 */
function startProfile(file: string | undefined): (() => Promise<void>) | undefined {
  if (!file) return undefined;
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res))),
    );
  const started = post("Profiler.enable")
    .then(() => post("Profiler.setSamplingInterval", { interval: 1000 }))
    .then(() => post("Profiler.start"));
  return async () => {
    try {
      await started;
      const res = (await post("Profiler.stop")) as { profile: unknown };
      writeFileSync(file + `.${process.env.ACP_HOST_PASS ?? "main"}.cpuprofile`, JSON.stringify(res.profile));
    } catch (e) {
      console.log(`cpu profile not written: ${String(e)}`);
    } finally {
      session.disconnect();
    }
  };
}
