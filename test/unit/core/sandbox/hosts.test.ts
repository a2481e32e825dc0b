/** The egress allow-list (#34): entries validated strictly, hosts matched by the name the client asked for. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { hostAllowed, parseAllowedHosts } from "../../../../src/core/sandbox/hosts";
import { buildSandboxPolicy } from "../../../../src/core/sandbox/policy";

test("entries: names, suffix patterns, IP literals, ports; lower-cased; duplicates dropped", () => {
  assert.deepEqual(
    parseAllowedHosts(["API.OpenAI.com", "api.openai.com", "*.Example.com:8443", "10.0.0.1", "[::1]:80"]),
    [
      { host: "api.openai.com", suffix: false, port: undefined },
      { host: "example.com", suffix: true, port: 8443 },
      { host: "10.0.0.1", suffix: false, port: undefined },
      { host: "::1", suffix: false, port: 80 },
    ],
  );
});

test("bad entries are a usage error that names them", () => {
  for (const bad of [
    "*",
    "*.com",
    "a.*.com",
    "http://api.openai.com",
    "api.openai.com/v1",
    "host:0",
    "host:65536",
    "host:x",
    "-bad.com",
    "a b",
    "2130706433",
    "[not-v6]",
    "",
  ]) {
    assert.throws(
      () => parseAllowedHosts([bad]),
      (err: Error & { code?: string }) => err.code === "usage" && err.message.includes(`'${bad}'`),
      bad,
    );
  }
  assert.throws(
    () =>
      buildSandboxPolicy({
        roots: ["/ws"],
        agentId: "x",
        home: "/h",
        env: {},
        tmpDir: "/t",
        settings: { allowedHosts: ["a b"] },
      }),
    /sandbox allowed host 'a b' is not valid/,
  );
});

test("matching: exact names, suffixes below the domain (not the domain), ports, case, a trailing dot", () => {
  const rules = parseAllowedHosts(["api.openai.com", "*.example.com", "pinned.dev:443"]);
  const yes = [
    ["api.openai.com", 443],
    ["API.OPENAI.COM.", 80],
    ["a.example.com", 443],
    ["a.b.example.com", 1],
    ["pinned.dev", 443],
  ] as const;
  const no = [
    ["openai.com", 443],
    ["api.openai.com.evil.com", 443],
    ["evilapi.openai.com", 443],
    ["example.com", 443],
    ["aexample.com", 443],
    ["pinned.dev", 8443],
    ["a.example.com:443", 443],
  ] as const;
  for (const [host, port] of yes) assert.equal(hostAllowed(rules, host, port), true, `${host}:${port}`);
  for (const [host, port] of no) assert.equal(hostAllowed(rules, host, port), false, `${host}:${port}`);
});

test("IP literals only when listed; numeric disguises of an address never pass", () => {
  const rules = parseAllowedHosts(["*.example.com", "127.0.0.1:8080", "[::1]"]);
  assert.equal(hostAllowed(rules, "127.0.0.1", 8080), true);
  assert.equal(hostAllowed(rules, "127.0.0.1", 80), false);
  assert.equal(hostAllowed(rules, "[::1]", 443), true);
  assert.equal(hostAllowed(rules, "::1", 443), true);
  for (const disguise of ["127.1", "2130706433", "0x7f.0.0.1", "10.0.0.1", "1.2.3.4.example.com."]) {
    const expected = disguise === "1.2.3.4.example.com." ? true : false; // a name below the domain is a name
    assert.equal(hostAllowed(rules, disguise, 8080), expected, disguise);
  }
  assert.equal(hostAllowed(parseAllowedHosts(["*.com.evil"]), "2130706433", 1), false);
});
