import assert from "node:assert/strict";
import { test } from "node:test";
import { compareVersions, parseVersion, suggestMajor, satisfies } from "../../../../src/core/runtime/semver";

const CASES: [range: string, yes: string[], no: string[]][] = [
  [">=22", ["22.0.0", "22.11.0", "26.10.0"], ["20.20.2", "21.99.99"]],
  [">=20.19", ["20.19.0", "20.20.2", "24.1.0"], ["20.18.9", "18.0.0"]],
  [">22", ["23.0.0"], ["22.0.1", "22.9.9", "20.0.0"]],
  [">22.1.0", ["22.1.1"], ["22.1.0"]],
  [">22.1", ["22.2.0"], ["22.1.9"]],
  ["<22", ["21.9.9", "0.1.0"], ["22.0.0"]],
  ["<=22", ["22.9.9", "21.0.0"], ["23.0.0"]],
  ["<=22.1.0", ["22.1.0"], ["22.1.1"]],
  ["=20.1.2", ["20.1.2", "v20.1.2"], ["20.1.3"]],
  ["20.1.2", ["20.1.2"], ["20.1.1"]],
  ["^20.19.0", ["20.19.0", "20.99.0"], ["21.0.0", "20.18.0"]],
  ["^0.2.3", ["0.2.3", "0.2.9"], ["0.3.0", "0.2.2"]],
  ["^0.0.3", ["0.0.3"], ["0.0.4"]],
  ["^0.x", ["0.9.9"], ["1.0.0"]],
  ["~20.1.2", ["20.1.2", "20.1.9"], ["20.2.0"]],
  ["~20", ["20.0.0", "20.9.0"], ["21.0.0"]],
  ["~20.1", ["20.1.0"], ["20.2.0"]],
  ["20.x", ["20.0.0", "20.99.1"], ["21.0.0", "19.9.9"]],
  ["20.1.X", ["20.1.7"], ["20.2.0"]],
  ["20", ["20.5.0"], ["21.0.0"]],
  ["*", ["0.0.1", "99.0.0"], []],
  ["", ["1.0.0"], []],
  ["18 - 20", ["18.0.0", "20.99.0"], ["21.0.0", "17.9.9"]],
  ["18.1 - 20.2.3", ["18.1.0", "20.2.3"], ["20.2.4", "18.0.9"]],
  ["^20.19 || >=22.12", ["20.19.1", "22.12.0", "24.0.0"], ["21.5.0", "22.11.0", "20.18.0"]],
  [">=18 <21", ["18.0.0", "20.20.2"], ["21.0.0", "17.0.0"]],
  [">= 18  < 21", ["20.0.0"], ["21.0.0"]],
  [">=20 <20.5 || 22.x", ["20.4.9", "22.1.0"], ["20.5.0", "21.0.0", "23.0.0"]],
];

test("ranges: >=, >, <, <=, =, ^, ~, x-ranges, hyphen ranges, || and AND", () => {
  for (const [range, yes, no] of CASES) {
    for (const v of yes) assert.equal(satisfies(v, range), true, `${v} in '${range}'`);
    for (const v of no) assert.equal(satisfies(v, range), false, `${v} not in '${range}'`);
  }
});

test("what cannot be read is null (callers assume it fits), not false", () => {
  assert.equal(satisfies("20.1.0", "latest"), null);
  assert.equal(satisfies("20.1.0", ">=foo"), null);
  assert.equal(satisfies("twenty", ">=20"), null);
});

test("versions: a leading v, prereleases sort before their release", () => {
  assert.deepEqual(parseVersion("v20.20.2"), { major: 20, minor: 20, patch: 2, prerelease: "" });
  assert.equal(parseVersion("20.1"), null);
  const cmp = (a: string, b: string) => Math.sign(compareVersions(parseVersion(a)!, parseVersion(b)!));
  assert.equal(cmp("22.0.0-rc.1", "22.0.0"), -1);
  assert.equal(cmp("22.0.0-rc.2", "22.0.0-rc.10"), -1);
  assert.equal(cmp("22.0.0-alpha", "22.0.0-beta"), -1);
  assert.equal(cmp("22.10.0", "22.9.0"), 1);
  assert.equal(satisfies("22.0.0-rc.1", ">=22"), false);
});

test("suggestMajor names the release line to install, open-ended ones first", () => {
  assert.deepEqual(suggestMajor(">=22"), { major: 22, open: true });
  assert.deepEqual(suggestMajor(">=22.13.0"), { major: 22, open: true });
  assert.deepEqual(suggestMajor("^20.19 || >=22.12"), { major: 22, open: true });
  assert.deepEqual(suggestMajor("^20.19 || ^22.12"), { major: 20, open: false });
  assert.deepEqual(suggestMajor(">21"), { major: 22, open: true });
  assert.deepEqual(suggestMajor("22.x"), { major: 22, open: false });
  assert.equal(suggestMajor(">=22 <21"), null);
});
