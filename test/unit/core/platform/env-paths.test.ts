/** Environment blocks and path containment per platform (Windows values injected; no Windows machine needed). */
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { childEnv, envGet, mergeEnv } from "../../../../src/core/platform/env";
import { platformOf } from "../../../../src/core/platform/host";
import { isInside, probeCaseInsensitive, stripLongPathPrefix } from "../../../../src/core/platform/paths";
import { withTmp } from "../store/helpers";

const win = platformOf("win32");
const linux = platformOf("linux");
const mac = platformOf("darwin");

test("Windows environment names ignore case; POSIX ones do not", () => {
  assert.equal(envGet({ Path: "C:\\bin" }, "PATH", win), "C:\\bin");
  assert.equal(envGet({ Path: "/bin" }, "PATH", linux), undefined);
  const merged = mergeEnv(win, { Path: "C:\\old", HOME: "h" }, { PATH: "C:\\new" });
  assert.deepEqual(merged, { HOME: "h", PATH: "C:\\new" }, "one PATH, not Path next to PATH");
  assert.deepEqual(mergeEnv(linux, { Path: "a" }, { PATH: "b" }), { Path: "a", PATH: "b" });
});

test("PWD is set to the child's cwd on POSIX only", () => {
  assert.equal(childEnv(linux, "/ws", { PWD: "/elsewhere" }).PWD, "/ws");
  assert.equal(childEnv(win, "C:\\ws", { A: "1" }).PWD, undefined);
});

test("containment on Windows: drive letters, case, UNC shares, long-path prefixes, sibling names", () => {
  const o = { platform: win };
  assert.ok(isInside("C:\\ws", "C:\\ws\\src\\a.ts", o));
  assert.ok(isInside("C:\\ws", "c:\\WS\\Src\\a.ts", o), "case is ignored");
  assert.ok(isInside("C:\\ws", "C:\\ws", o));
  assert.ok(!isInside("C:\\ws", "D:\\ws\\a.ts", o), "another drive");
  assert.ok(!isInside("C:\\ws", "C:\\wsx\\a.ts", o), "a sibling that shares the prefix");
  assert.ok(!isInside("C:\\ws", "C:\\ws\\..\\secret.txt", o));
  assert.ok(isInside("\\\\srv\\share\\ws", "\\\\srv\\share\\ws\\a.ts", o));
  assert.ok(!isInside("\\\\srv\\share\\ws", "\\\\srv\\other\\ws\\a.ts", o), "another share");
  assert.ok(!isInside("\\\\srv\\share\\ws", "\\\\evil\\share\\ws\\a.ts", o), "another server");
  assert.ok(isInside("C:\\ws", "\\\\?\\C:\\ws\\a.ts", o), "long-path prefix");
  assert.ok(isInside("\\\\srv\\share", "\\\\?\\UNC\\srv\\share\\a.ts", o));
  assert.equal(stripLongPathPrefix("\\\\?\\UNC\\srv\\share\\a", win), "\\\\srv\\share\\a");
  assert.equal(stripLongPathPrefix("\\\\?\\C:\\a", linux), "\\\\?\\C:\\a");
});

test("containment on POSIX: case-sensitive on Linux, case-insensitive by default on macOS", () => {
  assert.ok(!isInside("/Users/me/Proj", "/Users/me/proj/a.ts", { platform: linux }));
  assert.ok(isInside("/Users/me/Proj", "/Users/me/proj/a.ts", { platform: mac }));
  assert.ok(!isInside("/Users/me/Proj", "/Users/me/proj/a.ts", { platform: mac, caseInsensitive: false }));
  assert.ok(!isInside("/ws", "/ws2/a", { platform: mac }));
  assert.ok(!isInside("/ws", "/etc/passwd", { platform: linux }));
});

test("the case sensitivity of a real folder is probed, not assumed", () =>
  withTmp(async (dir) => {
    const folder = join(dir, "Workspace");
    mkdirSync(folder);
    assert.equal(await probeCaseInsensitive(folder), false, "this Linux file system keeps case");
    const digits = join(dir, "2024");
    mkdirSync(digits);
    assert.equal(await probeCaseInsensitive(digits), undefined, "no letters to swap");
  }));
