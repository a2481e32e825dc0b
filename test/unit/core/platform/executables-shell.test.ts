/** Finding programs and starting them per platform: PATHEXT, npm .cmd shims, cmd.exe quoting, shell lines. */
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { splitCommandLine } from "../../../../src/core/acp/agent-registry";
import { findExecutable, findExecutableAsync } from "../../../../src/core/platform/executables";
import { platformOf } from "../../../../src/core/platform/host";
import { launchProgram, npmShimTarget, ptyArgs, quoteCmdArg, shellLine } from "../../../../src/core/platform/shell";
import { receivedArgs } from "../../../fixtures/platform/cmd-received";
import { withTmp } from "../store/helpers";

const NPM = "C:\\Users\\me\\AppData\\Roaming\\npm";
const win = platformOf("win32", {
  Path: `C:\\Windows\\system32;"${NPM}";C:\\Program Files\\nodejs`,
  PATHEXT: ".COM;.EXE;.BAT;.CMD",
  ComSpec: "C:\\Windows\\system32\\cmd.exe",
});
const onDisk = (...files: string[]) => {
  const set = new Set(files.map((f) => f.toLowerCase()));
  return (p: string) => set.has(p.toLowerCase());
};

test("Windows finds a program by PATHEXT, never the extension-less sh script npm writes beside the shim", () => {
  const isRunnable = onDisk(`${NPM}\\codex-acp`, `${NPM}\\codex-acp.cmd`, "C:\\Program Files\\nodejs\\node.exe");
  const find = (command: string, cwd = "C:\\ws") => findExecutable(command, { cwd, platform: win, isRunnable });
  assert.equal(find("codex-acp"), `${NPM}\\codex-acp.cmd`);
  assert.equal(find("node"), "C:\\Program Files\\nodejs\\node.exe");
  assert.equal(find("node.exe"), "C:\\Program Files\\nodejs\\node.exe");
  assert.equal(find("missing"), null);
  assert.equal(find(`${NPM}\\codex-acp`), `${NPM}\\codex-acp.cmd`, "a path without extension");
  assert.equal(find("..\\npm\\codex-acp", `${NPM}\\..\\x`), `${NPM}\\codex-acp.cmd`, "relative to cwd");
});

test("a name is found on PATH, never in a node_modules/.bin of cwd or its parents, on Windows too", () => {
  const isRunnable = onDisk("C:\\proj\\node_modules\\.bin\\agent.cmd", `${NPM}\\agent.cmd`);
  assert.equal(findExecutable("agent", { cwd: "C:\\proj\\pkg\\src", platform: win, isRunnable }), `${NPM}\\agent.cmd`);
  const only = onDisk("C:\\proj\\node_modules\\.bin\\agent.cmd");
  assert.equal(findExecutable("agent", { cwd: "C:\\proj", platform: win, isRunnable: only }), null);
});

test("POSIX needs an executable regular file (real files)", () =>
  withTmp((dir) => {
    const bin = join(dir, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "tool"), "#!/bin/sh\n");
    const env = { PATH: bin };
    assert.equal(findExecutable("tool", { cwd: dir, env }), null, "not executable yet");
    chmodSync(join(bin, "tool"), 0o755);
    assert.equal(findExecutable("tool", { cwd: dir, env }), join(bin, "tool"));
    mkdirSync(join(bin, "dir"), { mode: 0o755 });
    assert.equal(findExecutable("dir", { cwd: dir, env }), null, "a directory is no program");
  }));

test("the async lookup (the extension host's) answers as the sync one: same candidates, same order", async () => {
  const isRunnable = onDisk(`${NPM}\\codex-acp`, `${NPM}\\codex-acp.cmd`, "C:\\Program Files\\nodejs\\node.exe");
  for (const command of ["codex-acp", "node", "node.exe", "missing", `${NPM}\\codex-acp`, "..\\npm\\codex-acp"]) {
    const opts = { cwd: `${NPM}\\..\\x`, platform: win, isRunnable };
    assert.equal(await findExecutableAsync(command, opts), findExecutable(command, opts), command);
  }
  await withTmp(async (dir) => {
    const [first, second] = [join(dir, "a"), join(dir, "b")];
    for (const bin of [first, second]) mkdirSync(bin);
    writeFileSync(join(first, "tool"), "#!/bin/sh\n"); // not executable: the next directory's is the program
    writeFileSync(join(second, "tool"), "#!/bin/sh\n", { mode: 0o755 });
    mkdirSync(join(first, "dir"), { mode: 0o755 });
    const env = { PATH: [first, second].join(":") };
    for (const command of ["tool", "dir", "missing", "./b/tool", "./a/tool"])
      assert.equal(await findExecutableAsync(command, { cwd: dir, env }), findExecutable(command, { cwd: dir, env }));
    assert.equal(await findExecutableAsync("tool", { cwd: dir, env }), join(second, "tool"));
  });
});

test("arguments quoted for cmd.exe arrive unchanged, also through a batch file's second parse", () => {
  const tricky = [
    "plain",
    "with space",
    'say "hi"',
    "a&b|c>d<e^f",
    "100% (done)!",
    "C:\\path\\ends\\",
    'back\\"slash',
    "",
    "fix the bug; then run `make`",
  ];
  for (const arg of tricky) {
    assert.deepEqual(receivedArgs(quoteCmdArg(arg, false), 1), [arg], `exe: ${arg}`);
    assert.deepEqual(receivedArgs(quoteCmdArg(arg, true), 2), [arg], `batch: ${arg}`);
  }
  assert.match(quoteCmdArg("a&b", false), /\^&/, "cmd's operators are escaped");
});

test("an npm .cmd shim is started as node + its script: no cmd.exe, so newlines in a prompt survive", () => {
  const shim = `${NPM}\\codex-acp.cmd`;
  const text = [
    "@ECHO off",
    "GOTO start",
    ":find_dp0",
    "SET dp0=%~dp0",
    "EXIT /b",
    ":start",
    "SETLOCAL",
    "CALL :find_dp0",
    'IF EXIST "%dp0%\\node.exe" (SET "_prog=%dp0%\\node.exe") ELSE (SET "_prog=node")',
    'endLocal & goto #_undefined_# 2>NUL || title %COMSPEC% & "%_prog%"  "%dp0%\\node_modules\\@zed-industries\\codex-acp\\bin\\codex-acp.js" %*',
  ].join("\r\n");
  assert.equal(npmShimTarget(shim, text, win), `${NPM}\\node_modules\\@zed-industries\\codex-acp\\bin\\codex-acp.js`);
  const launch = launchProgram(shim, ["exec", "line one\nline two"], {
    platform: win,
    readText: () => text,
    findNode: () => "C:\\Program Files\\nodejs\\node.exe",
  });
  assert.deepEqual(launch, {
    file: "C:\\Program Files\\nodejs\\node.exe",
    args: [`${NPM}\\node_modules\\@zed-industries\\codex-acp\\bin\\codex-acp.js`, "exec", "line one\nline two"],
  });
});

test("any other batch file runs through cmd.exe with quoted arguments; .exe files and POSIX run as they are", () => {
  const launch = launchProgram("C:\\tools\\run tests.bat", ["a b", "x&y"], {
    platform: win,
    readText: () => "@echo off",
  });
  assert.equal(launch.file, "C:\\Windows\\system32\\cmd.exe");
  assert.equal(launch.verbatim, true);
  assert.deepEqual(launch.args.slice(0, 3), ["/d", "/s", "/c"]);
  const inner = launch.args[3]!.slice(1, -1); // cmd /s strips the outer quotes
  const program = '"C:\\tools\\run tests.bat" ';
  assert.ok(inner.startsWith(program), inner);
  assert.deepEqual(receivedArgs(inner.slice(program.length), 2), ["a b", "x&y"]);
  assert.deepEqual(launchProgram("C:\\tools\\agent.exe", ["--acp"], { platform: win }), {
    file: "C:\\tools\\agent.exe",
    args: ["--acp"],
  });
  assert.deepEqual(launchProgram("/usr/bin/x.cmd", ["a"], { platform: platformOf("linux") }), {
    file: "/usr/bin/x.cmd",
    args: ["a"],
  });
});

test("shell lines: /bin/sh -c on POSIX, cmd.exe /d /s /c on Windows (one pre-quoted string for node-pty)", () => {
  assert.deepEqual(shellLine("echo hi && ls", platformOf("darwin")), {
    file: "/bin/sh",
    args: ["-c", "echo hi && ls"],
  });
  const line = shellLine("echo hi && dir", win);
  assert.deepEqual(line, {
    file: "C:\\Windows\\system32\\cmd.exe",
    args: ["/d", "/s", "/c", '"echo hi && dir"'],
    verbatim: true,
  });
  assert.equal(ptyArgs(line, win), '/d /s /c "echo hi && dir"');
  assert.deepEqual(launchProgram(line.file, line.args, { platform: win }), line, "cmd.exe keeps its quoting");
  assert.equal(shellLine("x", platformOf("win32")).file, "cmd.exe", "no ComSpec: cmd.exe from PATH");
});

test("agent command lines keep Windows paths whole (a backslash escapes only a quote there)", () => {
  assert.deepEqual(splitCommandLine('C:\\Tools\\agent.exe --acp "a b"', win), ["C:\\Tools\\agent.exe", "--acp", "a b"]);
  assert.deepEqual(splitCommandLine('"C:\\Program Files\\x.exe" say\\"hi', win), [
    "C:\\Program Files\\x.exe",
    'say"hi',
  ]);
  assert.deepEqual(splitCommandLine("a\\ b c", platformOf("linux")), ["a b", "c"]);
});
