// `npm test`: every suite, in order, with the prerequisites each needs installed first (idempotent, cached).
//   build -> typecheck -> lint (eslint + prettier --check + scripts/check-imports.mjs) -> unit (node --test) -> interop (real agents, node --test) -> host (real VS Code
//   extension host in code-server) -> e2e (headless Chromium driving code-server) -> host-1.96, e2e-1.96 (the host
//   suite and a smoke e2e on the oldest VS Code we claim, code-server 4.96.4).
// Select stages with `npm test -- --only unit,interop` or ACP_TEST_ONLY. The last line is the total
// "N passed, N failed"; the exit code is non-zero when any stage fails.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, dirname } from "node:path";
import { availableParallelism } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
const onlyArg = process.argv.indexOf("--only");
const only = (onlyArg > 0 ? process.argv[onlyArg + 1] : (process.env.ACP_TEST_ONLY ?? ""))
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean);
const want = (name) => only.length === 0 || only.includes(name);

function files(dir, re) {
  const out = [];
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p, re));
    else if (re.test(name)) out.push(p);
  }
  return out.sort();
}

/**
 * Runs a command, echoing its output, and returns {code, output}. `quiet`: nothing is echoed; the output (with the
 * command line and the closing line) is returned as `told`, for a run in the background told later.
 */
function run(cmd, args, { quiet = false } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const say = (s) => (quiet ? (told += s) : process.stdout.write(s));
    let told = "";
    say(`\n$ ${cmd} ${args.join(" ")}\n`);
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => {
      output += d;
      say(d);
    });
    child.stderr.on("data", (d) => {
      output += d;
      if (quiet) told += d;
      else process.stderr.write(d);
    });
    child.on("close", (code, signal) => {
      say(`(${((Date.now() - started) / 1000).toFixed(1)} s, exit ${code ?? signal})\n`);
      resolve({ code: code ?? 1, output, told });
    });
  });
}

/**
 * The later stages' set-ups, fetched ahead: from the start of the first test stage (unit, whose time is mostly
 * waiting on the processes its tests start), each distinct prepare runs in the background, one after another in
 * stage order (the real agents, code-server + Chromium, VS Code 1.96: about 5 minutes of downloads and native
 * builds on a fresh 2-core machine; the scripts share apt's lock, so never two at once). A stage then waits for its
 * own, and its output is told at the stage's turn, as if it had run there. Cached set-ups finish in a second.
 */
function fetchAhead(list) {
  const ahead = new Map();
  let chain = Promise.resolve();
  for (const stage of list) {
    const prep = stage.prepare?.();
    if (!prep) continue;
    const key = JSON.stringify(prep);
    if (ahead.has(key)) continue;
    chain = chain.then(() => run(prep[0], prep[1], { quiet: true }));
    ahead.set(key, { result: chain, told: false });
  }
  return ahead;
}

/** Reads "N passed, N failed" or node's spec summary ("ℹ pass N" / "ℹ fail N") from a stage's output. */
function counts(output) {
  let m = [...output.matchAll(/^(?:\S*\s+)?(\d+) passed, (\d+) failed/gm)].pop();
  if (m) return { passed: +m[1], failed: +m[2] };
  const pass = [...output.matchAll(/^ℹ pass (\d+)/gm)].pop();
  const fail = [...output.matchAll(/^ℹ fail (\d+)/gm)].pop();
  if (pass || fail) return { passed: +(pass?.[1] ?? 0), failed: +(fail?.[1] ?? 0) };
  return { passed: 0, failed: 0 };
}

/**
 * What failed, told again at the end of the run (CI shows only its tail): node's "✖ failing tests:" section without
 * the runner's own stack frames, or each "not ok" line of the other runners with the lines after it.
 */
function failures(output) {
  const lines = output.split("\n");
  const start = lines.findIndex((l) => l.startsWith("\u2716 failing tests:"));
  const picked = [];
  if (start >= 0) {
    for (const l of lines.slice(start + 1)) {
      if (l.startsWith("slowest files")) break; // the slowest reporter's lists follow: not a failure's
      if (!/^\s+at (?:.*\(node:|node:)/.test(l)) picked.push(l);
    }
  } else {
    lines.forEach((l, i) => {
      if (/^(?:\S+\s+)?not ok\b/.test(l)) picked.push(...lines.slice(i, i + 8));
      else if (/^FAIL - /.test(l) && !picked.includes(l))
        picked.push(l); // the host suite's own results (test/host/suite/index.main.ts)
      else if (/^\[e2e [\d.]+s\] FAIL /.test(l)) picked.push(...lines.slice(Math.max(0, i - 3), i + 1)); // e2e: the steps before it
    });
  }
  const MAX = 80;
  const kept = picked.filter((l, i) => l.trim() || picked[i - 1]?.trim());
  return kept.length > MAX
    ? [...kept.slice(0, MAX), `… ${kept.length - MAX} more lines in the full output above`]
    : kept;
}

/**
 * Node before 24 can deadlock a worker thread at its end (nodejs/node#54918, fixed in 24.0): a test process whose
 * workers hung so waited forever after its last test passed (a CI rehearsal: 27 minutes, the thread catalog's
 * tests). The CLI turns V8's concurrent recompilation off for the same reason (src/cli/worker-exit.ts); the test
 * processes get it as a flag (node --test passes it on to each file's process).
 */
const WORKER_EXIT_FLAGS = Number(process.versions.node.split(".")[0]) < 24 ? ["--no-concurrent-recompilation"] : [];
/** node's spec reporter, then (scripts/test-slowest.mjs) the stage's slowest files and tests, after its summary. */
const REPORTERS = [
  "--test-reporter=spec",
  "--test-reporter-destination=stdout",
  `--test-reporter=${pathToFileURL(join(root, "scripts/test-slowest.mjs"))}`,
  "--test-reporter-destination=stdout",
];
const nodeTest = (dir, extra = []) => {
  const list = files(dir, /\.test\.js$/);
  // a test that hangs fails after 10 minutes instead of holding the whole run to CI's limit
  const bound = "--test-timeout=600000";
  return list.length ? ["node", [...WORKER_EXIT_FLAGS, "--test", ...REPORTERS, bound, ...extra, ...list]] : null;
};

const stages = [
  { name: "build", cmd: () => ["node", ["scripts/build.mjs"]], gate: true },
  { name: "typecheck", cmd: () => ["node", ["node_modules/typescript/bin/tsc", "-p", "tsconfig.json"]], gate: true },
  {
    name: "lint",
    cmd: () => [
      "sh",
      [
        "-c",
        "node node_modules/eslint/bin/eslint.js . && node node_modules/prettier/bin/prettier.cjs --check . && node scripts/check-imports.mjs",
      ],
    ],
    gate: true,
  },
  // Two unit files at once even on 2 cores (node's default there is one): their time is mostly waiting on the
  // processes they start. Stop 42: 790 s → 512 s on a quiet 2-core machine; at load 13–16 the one failure was a
  // test's assumption, fixed (docs/stop-42/lead.md).
  {
    name: "unit",
    cmd: () => nodeTest("dist-test/unit", [`--test-concurrency=${Math.max(2, availableParallelism() - 1)}`]),
  },
  {
    name: "interop",
    prepare: () => (existsSync("test/agents/install.sh") ? ["bash", ["test/agents/install.sh"]] : null),
    // two files at once, as unit: each file's real agents talk to their own scripted model server on their own
    // port and data home (stop 53: 114/0 at two at once on a 2-core machine at load average 10-15)
    cmd: () => nodeTest("dist-test/interop", ["--test-concurrency=2"]),
  },
  {
    name: "host",
    prepare: () => ["bash", ["test/host/setup.sh"]],
    cmd: () => (existsSync("test/host/run.mjs") ? ["node", ["test/host/run.mjs"]] : null),
  },
  {
    name: "e2e",
    prepare: () => ["bash", ["test/host/setup.sh"]],
    cmd: () => (existsSync("test/e2e/run.mjs") ? ["node", ["test/e2e/run.mjs"]] : null),
  },
  // The oldest VS Code we claim (engines.vscode): code-server 4.96.4 = VS Code 1.96 on Node 20. The host suite, and
  // a smoke e2e (workbench, spawn, permission, answer, sessions view, recall: 04-recall and the specs it needs) on the
  // VSIX the e2e stage packaged. setup-oldest.sh needs setup.sh's apt packages (ripgrep, Chromium).
  {
    name: "host-1.96",
    prepare: () => ["sh", ["-c", "bash test/host/setup.sh && bash test/host/setup-oldest.sh"]],
    cmd: () =>
      existsSync("test/host/run.mjs")
        ? onOldest(`node test/host/run.mjs --timeout 900 --grep ${shellWord(OLDEST_HOST_GREP)}`)
        : null,
  },
  {
    name: "e2e-1.96",
    prepare: () => ["sh", ["-c", "bash test/host/setup.sh && bash test/host/setup-oldest.sh"]],
    cmd: () =>
      existsSync("test/e2e/run.mjs")
        ? onOldest(
            `node test/e2e/run.mjs --spec 04-recall --shots test-results/screenshots-vscode-1.96${packaged ? " --no-package" : ""}`,
          )
        : null,
  },
];
/**
 * The host suite on 1.96 leaves out the suites that test our engine and the agents more than the VS Code API (each
 * runs on 1.139 in the host stage): history import, watchdog/handoff, the registry installs, the real agent, Node
 * runtimes, and the thread host's suites (test/host/suite/host-*.test.ts: the host process, its protocol and its
 * flows, over the API calls the window's own suites make on 1.96 too; src/vscode/host calls no VS Code API the rest of
 * src/vscode does not). One hosted suite stays, the default path a new user takes ("new threads run in the thread
 * host"): the window on 1.96 starts the host on that VS Code's Node and follows its thread. Stop 54: 245 → 180 tests,
 * about 260 s of tests (measured on 1.139) less in the 1.96 stage.
 */
const OLDEST_LEAVES_OUT = [
  "importing history",
  "watchdog, handoff",
  "ACP Registry",
  "spawning a real agent",
  "Node runtimes for agents",
  "runSessions auto, the default: a new user", // a new user's day and turns on a hosted thread
  "the thread host's", // threads in the window, agents served by this window, their terminals, watchdog
  "a hosted ", // Best of N after a reload, panel chrome, exec run whose host dies, modes and config options
  "runSessions host: ", // prompts with context, Run once
  "Best of N in the thread host",
  "a Best of N started from a terminal",
  "a question of the thread host",
  "every entry point honours acpThreads.host.runSessions",
  "exec runs in (a new worktree in )?the thread host",
  "the window's (host sessions|row of the host's sessions)",
  "links, turn starts and notifications of threads the thread host runs",
  "the Sessions view's row of a thread the host runs",
  "renaming a thread the thread host runs",
];
const OLDEST_HOST_GREP = `^(?!${OLDEST_LEAVES_OUT.join("|")})`;
/** `s` as one sh word. */
const shellWord = (s) => `'${s.replaceAll("'", `'\\''`)}'`;
/** Runs a command with NODE24 / CODE_SERVER_DIR pointing at the old host (test/host/host.mjs reads them). */
function onOldest(command) {
  return ["bash", ["-c", `eval "$(bash test/host/setup-oldest.sh --env)" && ${command}`]];
}
/** The e2e stage ran `npm run package:all` in this run: the old host's smoke installs the same VSIX. */
let packaged = false;

let passed = 0;
let failed = 0;
const summary = [];
const told = [];
let ahead; // the set-ups fetched ahead, from the first test stage on
for (const stage of stages) {
  if (!want(stage.name) && !stage.gate) continue;
  if (stage.gate && only.length && !only.includes(stage.name) && stage.name !== "build") continue;
  const main = stage.cmd();
  if (!main) continue;
  // this stage's own set-up goes first in the chain: a set-up is never run beside another one
  if (!stage.gate) ahead ??= fetchAhead(stages.filter((s) => !s.gate && want(s.name) && s.cmd()));
  if (stage.prepare) {
    const prep = stage.prepare();
    if (prep) {
      const fetched = ahead?.get(JSON.stringify(prep));
      const r = fetched ? await fetched.result : await run(prep[0], prep[1]);
      if (fetched) {
        process.stdout.write(fetched.told ? `\n(${stage.name}: its set-up was fetched ahead, above)\n` : r.told);
        fetched.told = true;
      }
      if (r.code !== 0) {
        failed += 1;
        summary.push(`${stage.name}: set-up failed (exit ${r.code})`);
        continue;
      }
    }
  }
  const r = await run(main[0], main[1]);
  if (stage.name === "e2e") packaged = /^\[e2e [\d.]+s\] VSIX /m.test(r.output);
  const c = counts(r.output);
  if (stage.gate) {
    if (r.code !== 0) {
      summary.push(`${stage.name}: FAILED (exit ${r.code})`);
      console.log(`\n${summary.join("\n")}\n${passed} passed, ${failed + 1} failed`);
      process.exit(1);
    }
    summary.push(`${stage.name}: ok`);
    continue;
  }
  if (r.code !== 0 && c.failed === 0) c.failed = 1; // a crash counts as a failure even without counts
  if (c.failed) told.push(`--- ${stage.name}`, ...failures(r.output));
  passed += c.passed;
  failed += c.failed;
  summary.push(`${stage.name}: ${c.passed} passed, ${c.failed} failed${r.code !== 0 ? ` (exit ${r.code})` : ""}`);
}
if (told.length) console.log(`\n== what failed (told above, in full)\n${told.join("\n")}`);
console.log(`\n== summary\n${summary.join("\n")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
