/**
 * The one CLI flag parser, through every command module (in-process): help everywhere, usage errors
 * that name the flag and exit 2, values that never swallow the next flag.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { parseCommand, parseEnvPairs, timerFlag, type CommandSpec } from "../../../src/cli/flags";
import type { CommandMain } from "../../../src/cli/io";
import { runCommand } from "./in-process";

const CLI = join(__dirname, "../../../dist/cli.js");

const MODULES: Record<string, () => Promise<{ main: CommandMain }>> = {
  run: () => import("../../../src/cli/commands/run"),
  doctor: () => import("../../../src/cli/commands/doctor"),
  exec: () => import("../../../src/cli/commands/exec"),
  ps: () => import("../../../src/cli/commands/ps"),
  logs: () => import("../../../src/cli/commands/logs"),
  kill: () => import("../../../src/cli/commands/kill"),
  threads: () => import("../../../src/cli/commands/threads"),
  recall: () => import("../../../src/cli/commands/recall"),
  status: () => import("../../../src/cli/commands/status"),
  "session-archive": () => import("../../../src/cli/commands/session-archive"),
  mcp: () => import("../../../src/cli/commands/mcp"),
  usage: () => import("../../../src/cli/commands/usage"),
  runtime: () => import("../../../src/cli/commands/runtime"),
  attach: () => import("../../../src/cli/commands/attach"),
  answer: () => import("../../../src/cli/commands/answer"),
  retry: () => import("../../../src/cli/commands/retry"),
  events: () => import("../../../src/cli/commands/events"),
  host: () => import("../../../src/cli/commands/host"),
  handoff: () => import("../../../src/cli/commands/handoff"),
};

async function cli(home: string, ...argv: string[]) {
  const [name, ...rest] = argv;
  const { main } = await MODULES[name!]!();
  return runCommand(main, rest, { home, env: { PATH: process.env.PATH, HOME: home } });
}

async function withHome(fn: (home: string) => Promise<void>): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), "acp-flags-"));
  try {
    await fn(home);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Every command and subcommand a user can ask for help on. */
const COMMANDS = [
  ["run"],
  ["doctor"],
  ["exec"],
  ["ps"],
  ["logs"],
  ["kill"],
  ["threads"],
  ["threads", "list"],
  ["threads", "show"],
  ["threads", "export"],
  ["threads", "import"],
  ["threads", "rename"],
  ["threads", "delete"],
  ["threads", "restore"],
  ["recall"],
  ["recall", "bootstrap"],
  ["recall", "sync-claude"],
  ["recall", "sync"],
  ["recall", "install-skill"],
  ["status"],
  ["session-archive"],
  ["mcp"],
  ["usage"],
  ["runtime"],
  ["runtime", "list"],
  ["runtime", "install"],
  ["runtime", "remove"],
  ["attach"],
  ["answer"],
  ["retry"],
  ["events"],
  ["host", "status"],
  ["host", "stop"],
  ["host", "serve"],
];

test("-h and --help print that command's help on stdout and exit 0, everywhere", () =>
  withHome(async (home) => {
    for (const words of COMMANDS) {
      for (const help of ["-h", "--help"]) {
        const r = await cli(home, ...words, help);
        assert.equal(r.code, 0, `${words.join(" ")} ${help}: ${r.err}`);
        assert.match(r.out, new RegExp(`^usage: acp-threads ${words.join(" ")}\\b`), `${words.join(" ")} ${help}`);
        assert.equal(r.err, "", `${words.join(" ")} ${help}`);
      }
    }
  }));

test("--help=VALUE is a usage error, not help", () =>
  withHome(async (home) => {
    for (const words of COMMANDS) {
      const r = await cli(home, ...words, "--help=no");
      assert.equal(r.code, 2, `${words.join(" ")} --help=no: ${r.out}`);
      assert.match(r.err, /option '--help' takes no value/, words.join(" "));
      assert.equal(r.out, "", words.join(" "));
    }
  }));

test("an unknown flag is named in the error and exits 2, everywhere", () =>
  withHome(async (home) => {
    for (const words of COMMANDS) {
      for (const bad of ["--bogus", "-q"]) {
        const r = await cli(home, ...words, bad, "x");
        assert.equal(r.code, 2, `${words.join(" ")} ${bad}: ${r.out}${r.err}`);
        assert.match(r.err, new RegExp(`unknown option '${bad}'`), words.join(" "));
        assert.match(r.err, new RegExp(`acp-threads ${words.join(" ")} --help`), words.join(" "));
      }
    }
  }));

test("a flag that needs a value never takes the next flag as its value", () =>
  withHome(async (home) => {
    const cases = [
      ["exec", "--timeout", "--pty", "--", "true"],
      ["exec", "--cwd", "--background", "--", "true"],
      ["run", "--agent", "x", "--timeout", "--verbose", "hi"],
      ["recall", "--limit", "--global", "needle"],
      ["threads", "list", "--agent", "--all"],
      ["logs", "--tail", "--follow", "abcd"],
    ];
    for (const argv of cases) {
      const r = await cli(home, ...argv);
      const flag = argv.find((a, i) => a.startsWith("--") && argv[i + 1]?.startsWith("--"))!;
      assert.equal(r.code, 2, `${argv.join(" ")}: ${r.err}`);
      assert.match(r.err, new RegExp(`option '${flag}' needs a value`), argv.join(" "));
    }
    const atEnd = await cli(home, "exec", "--timeout");
    assert.equal(atEnd.code, 2);
    assert.match(atEnd.err, /option '--timeout' needs a value/);
    // a value that starts with '-' is still possible, written with '='
    const dashed = await cli(home, "threads", "list", "--agent=-x");
    assert.equal(dashed.code, 0, dashed.err);
  }));

test("recall reads `-h foo` as help, not as search words", () =>
  withHome(async (home) => {
    for (const argv of [
      ["recall", "-h", "foo"],
      ["recall", "foo", "--help"],
    ]) {
      const r = await cli(home, ...argv);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /^usage: acp-threads recall/);
    }
  }));

test("exec's own flags stop at the command; its flags and -h belong to the command", () =>
  withHome(async (home) => {
    const r = await cli(home, "exec", "--format", "text", "sh", "-c", "echo $0 $1", "-h", "--bogus");
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, "-h --bogus\n");
    const dash = await cli(home, "exec", "--", "sh", "-c", "echo ok");
    assert.equal(dash.out, "ok\n");
    assert.equal((await cli(home, "exec", "--no-pty", "--", "true")).code, 0);
    const none = await cli(home, "exec", "--pty");
    assert.equal(none.code, 2);
    assert.match(none.err, /missing argument/);
  }));

test("values are checked against their type and the command's arguments are counted", () =>
  withHome(async (home) => {
    const checks: Array<[string[], RegExp]> = [
      [["exec", "--timeout", "soon", "--", "true"], /--timeout needs a non-negative number, got 'soon'/],
      [["run", "--agent", "x", "--timeout", "0", "hi"], /--timeout needs a number above 0, got '0'/],
      [
        ["run", "--agent", "x", "--permission", "maybe", "hi"],
        /--permission must be one of approve-all, approve-reads, deny-all, ask; got 'maybe'/,
      ],
      [["run", "hi"], /--agent is required/],
      [["run", "--agent", "x"], /missing argument: PROMPT/],
      [["recall", "--limit", "2.5", "x"], /--limit needs a whole number, got '2.5'/],
      [["recall", "--format", "yaml", "x"], /--format must be one of markdown, json; got 'yaml'/],
      [["threads", "list", "--limit", "lots"], /--limit needs a whole number, got 'lots'/],
      [["ps", "extra"], /unexpected argument 'extra'/],
      [["kill"], /missing argument: ID/],
      [["logs", "a", "b"], /unexpected argument 'b'/],
      [["doctor", "--format=yaml"], /--format must be one of text, json; got 'yaml'/],
      [["exec", "--verbose=1", "--", "true"], /unknown option '--verbose'/],
      [["exec", "--background=yes", "--", "true"], /option '--background' takes no value/],
      [["status", "--format", ""], /--format must be one of text, json; got ''/],
    ];
    for (const [argv, re] of checks) {
      const r = await cli(home, ...argv);
      assert.equal(r.code, 2, `${argv.join(" ")}: ${r.err}`);
      assert.match(r.err, re, argv.join(" "));
    }
  }));

test("a timer flag past the longest timer (about 24.8 days) is a usage error, everywhere", () =>
  withHome(async (home) => {
    const days30 = String(30 * 24 * 3600);
    const checks: string[][] = [
      ["exec", "--timeout", days30, "--", "true"],
      ["exec", "--detach", "--timeout", days30, "--", "true"],
      ["run", "--agent", "x", "--timeout", days30, "hi"],
      ["run", "--agent", "x", "--detach", "--timeout", days30, "hi"],
      ["run", "--agent", "x", "--runs", "2", "--check", "true", "--check-timeout", days30, "hi"],
      ["handoff", "t-1", "--agent", "x", "--timeout", days30],
      ["doctor", "--probe-timeout", days30],
      ["host", "serve", "--idle-minutes", String(30 * 24 * 60)],
      ["kill", "r-1", "--grace", String(30 * 24 * 3600 * 1000)],
      ["recall", "serve", "--idle-seconds", days30],
    ];
    for (const argv of checks) {
      const r = await cli(home, ...argv);
      assert.equal(r.code, 2, `${argv.join(" ")}: ${r.err}`);
      assert.match(
        r.err,
        /--[a-z-]+ must be at most [\d.]+ \(about 24\.8 days, the longest a timer waits\), got '\d+'/,
        argv.join(" "),
      );
    }
  }));

test("top level: no command is a usage error, help and version exit 0, an unknown command exits 2", () =>
  withHome(async (home) => {
    const top = (...argv: string[]) => {
      const r = spawnSync(process.execPath, [CLI, ...argv], { env: { ...process.env, ACP_THREADS_HOME: home } });
      return { code: r.status, out: r.stdout.toString(), err: r.stderr.toString() };
    };
    assert.equal(top().code, 2);
    for (const h of ["-h", "--help", "help"]) {
      const r = top(h);
      assert.equal(r.code, 0);
      assert.match(r.out, /^usage: acp-threads <command>/);
    }
    const sub = top("help", "ps");
    assert.equal(sub.code, 0);
    assert.match(sub.out, /^usage: acp-threads ps/);
    const unknown = top("frob");
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /unknown command 'frob'/);
    assert.equal(top("--version").code, 0);
    const bad = top("ps", "--bogus");
    assert.deepEqual([bad.code, /unknown option '--bogus'/.test(bad.err)], [2, true]);
  }));

test("parseCommand: values by type, repeats, negation, short flags, `--` and `rest`", () => {
  const spec = {
    name: "t",
    synopsis: "",
    args: { name: "X" },
    flags: {
      agent: { type: "string", help: "" },
      env: { type: "list", help: "" },
      verbose: { type: "boolean", short: "v", help: "" },
      pty: { type: "boolean", negatable: true, help: "" },
      out: { type: "string", short: "o", help: "" },
      n: { type: "number", min: 0, help: "" },
      format: { type: "enum", values: ["text", "json"], default: "text", help: "" },
    },
  } as const satisfies CommandSpec;
  assert.deepEqual(
    parseCommand(spec, [
      "--agent=x",
      "--env",
      "A=1",
      "--env",
      "B=2=3",
      "-vofile",
      "--no-pty",
      "p1",
      "--n",
      "2",
      "--",
      "--p2",
    ]),
    {
      help: false,
      flags: { agent: "x", env: ["A=1", "B=2=3"], verbose: true, pty: false, out: "file", n: 2, format: "text" },
      args: ["p1", "--p2"],
    },
  );
  assert.deepEqual(parseCommand(spec, ["-v", "-h", "--bogus"]), { help: true });
  // a timer flag takes the longest timer, and not a millisecond more
  const timed = { ...spec, flags: { s: { type: "number", above: 0, ...timerFlag(1000), help: "" } } } as const;
  assert.deepEqual(parseCommand(timed, ["--s", "2147483.647"]), { help: false, flags: { s: 2147483.647 }, args: [] });
  assert.throws(() => parseCommand(timed, ["--s", "2147483.648"]), /--s must be at most 2147483\.647 \(about 24\.8/);
  assert.throws(() => parseCommand(spec, ["--no-verbose"]), /unknown option '--no-verbose'/);
  assert.throws(() => parseCommand(spec, ["-o"]), /option '-o' needs a value/);
  assert.throws(() => parseCommand(spec, ["--agent", "-v"]), /^AcpThreadsError: option '--agent' needs a value$/);
  assert.throws(() => parseCommand(spec, ["--agent", "-x"]), /option '--agent' needs a value \(write --agent=-x/);
  const rest = { ...spec, args: { rest: true, min: 1 } };
  assert.deepEqual(parseCommand(rest, ["--no-pty", "codex", "--model", "x", "-h"]).help, false);
  const r = parseCommand(rest, ["--out", "/w", "codex", "--model", "x", "-h"]);
  assert.deepEqual(r.help === false && [r.flags.out, r.args], ["/w", ["codex", "--model", "x", "-h"]]);
  assert.deepEqual(parseEnvPairs(["A=1", "B=2=3"]), { A: "1", B: "2=3" });
  assert.throws(() => parseEnvPairs(["=x"]), /KEY=VALUE/);
});

test("every command the top-level help lists (new ones too) answers -h and --help=x through the one parser", () =>
  withHome(async (home) => {
    const top = (...argv: string[]) => {
      const r = spawnSync(process.execPath, [CLI, ...argv], { env: { ...process.env, ACP_THREADS_HOME: home } });
      return { code: r.status, out: r.stdout.toString(), err: r.stderr.toString() };
    };
    const names = [...top("--help").out.matchAll(/^ {2}([a-z][a-z-]*) {2,}/gm)].map((m) => m[1]!);
    assert.ok(names.length >= 11, names.join(" "));
    for (const name of names) {
      const help = top(name, "-h");
      assert.equal(help.code, 0, `${name} -h: ${help.err}`);
      assert.match(help.out, new RegExp(`^usage: acp-threads ${name}\\b`), name);
      const bad = top(name, "--help=no");
      assert.equal(bad.code, 2, `${name} --help=no`);
      assert.match(bad.err, /option '--help' takes no value/, name);
    }
  }));
