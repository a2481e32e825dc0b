import assert from "node:assert/strict";
import { test } from "node:test";
import { platformOf } from "../../../../src/core/platform/host";
import { encodeKeys, expandCommand, keyBytes } from "../../../../src/core/exec";

test("a preset id expands to the CLI's non-interactive mode", () => {
  assert.deepEqual(expandCommand(["codex", "fix the bug"]).args, [
    "exec",
    "--sandbox",
    "workspace-write",
    "fix the bug",
  ]);
  assert.deepEqual(expandCommand(["claude", "hi"]).args, ["--print", "--permission-mode", "acceptEdits", "hi"]);
  assert.deepEqual(expandCommand(["claude", "hi"], { claudePermissionMode: "plan" }).args, [
    "--print",
    "--permission-mode",
    "plan",
    "hi",
  ]);
  assert.deepEqual(expandCommand(["gemini", "hi"]).args, ["-p", "hi"]);
  assert.deepEqual(expandCommand(["opencode", "hi"]).args, ["run", "hi"]);
  assert.equal(expandCommand(["codex", "hi"]).presetId, "codex");
  assert.equal(expandCommand(["codex", "hi"]).closeStdin, true);
});

test("a command line that already names the mode is left alone", () => {
  assert.deepEqual(expandCommand(["codex", "exec", "--json", "hi"]).args, ["exec", "--json", "hi"]);
  assert.deepEqual(expandCommand(["claude", "--model", "x", "-p", "hi"]).args, ["--model", "x", "-p", "hi"]);
  // A subcommand word later in the prompt is not the subcommand.
  assert.deepEqual(expandCommand(["opencode", "please", "run", "tests"]).args, ["run", "please", "run", "tests"]);
});

test("custom commands run as given and one word with shell syntax runs through the platform's shell", () => {
  assert.deepEqual(expandCommand(["ls", "-la"]), { command: "ls", args: ["-la"] });
  const linux = platformOf("linux");
  assert.deepEqual(expandCommand(["make && make test"], {}, linux), {
    command: "/bin/sh",
    args: ["-c", "make && make test"],
  });
  const windows = platformOf("win32", { ComSpec: "C:\\Windows\\system32\\cmd.exe" });
  assert.deepEqual(expandCommand(["make && make test"], {}, windows), {
    command: "C:\\Windows\\system32\\cmd.exe",
    args: ["/d", "/s", "/c", '"make && make test"'],
  });
  assert.throws(() => expandCommand([]), /no command given/);
});

test("named keys map to terminal bytes and unknown names are literal text", () => {
  assert.equal(keyBytes("C-c"), "\x03");
  assert.equal(keyBytes("c-d"), "\x04");
  assert.equal(keyBytes("Enter"), "\r");
  assert.equal(keyBytes("Up"), "\x1b[A");
  assert.equal(keyBytes("Escape"), "\x1b");
  assert.equal(keyBytes("M-x"), "\x1bx");
  assert.equal(keyBytes("hello"), undefined);
  assert.equal(encodeKeys(["ls", "Space", "-l", "Enter"]), "ls -l\r");
});
