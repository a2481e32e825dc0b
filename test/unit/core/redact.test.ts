import assert from "node:assert/strict";
import { test } from "node:test";
import { containsSecret, REDACTED, redactSecrets } from "../../../src/core/redact";

test("key-like strings are redacted while ordinary prose and hashes stay", () => {
  const secrets = [
    "sk-proj-abcdefghijklmnopqrstuvwx1234",
    "sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAA",
    "AKIAIOSFODNN7EXAMPLE",
    "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
    "xoxb-1234567890-abcdefghij",
    "AIzaSyA1234567890abcdefghijklmnopqrstuv",
  ];
  for (const s of secrets) {
    const out = redactSecrets(`use ${s} now`);
    assert.ok(!out.includes(s), s);
    assert.match(out, /use \[REDACTED\] now/);
  }
  const pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nabc\n-----END RSA PRIVATE KEY-----";
  assert.equal(redactSecrets(`key:\n${pem}\nafter`), `key:\n${REDACTED}\nafter`);
  assert.equal(redactSecrets("Authorization: Bearer abc.def.ghi123456789"), "Authorization: Bearer [REDACTED]");
  assert.equal(redactSecrets("api_key=hunter2hunter2"), "api_key=[REDACTED]");
  assert.equal(redactSecrets('{"password": "c0rrect-horse"}'), '{"password": "[REDACTED]"}');
  assert.match(
    redactSecrets("token for the CI: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"),
    /\[REDACTED\]/,
  );
  for (const safe of [
    "commit 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b",
    "the sky is blue",
    "path /src/core/store/redact.ts",
  ]) {
    assert.equal(containsSecret(safe), false, safe);
  }
});

test("a secret right after a line break or tab inside a JSON line is redacted (the escape's letter is no boundary)", () => {
  // the traffic file and the index hold JSON lines: a file an agent read, one secret per line, arrives as
  // `…\nAKIA…\n…`, where the word boundary the patterns start with sees `nAKIA…`
  const secrets = [
    "sk-proj-abcdefghijklmnopqrstuvwx1234",
    "AKIAIOSFODNN7EXAMPLE",
    "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
    "github_pat_11ABCDEFG0123456789_abcdefghijklmnop",
    "xoxb-1234567890-abcdefghij",
    "AIzaSyA1234567890abcdefghijklmnopqrstuv",
    "Bearer abc.def.ghi123456789",
    "token for the CI: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "signature = QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlq==",
  ];
  for (const s of secrets) {
    for (const sep of ["\n", "\t", "\r\n"]) {
      const line = JSON.stringify({ content: `# .env${sep}${s}${sep}done` });
      const out = redactSecrets(line);
      const value = s.replace(/^(Bearer |token for the CI: |signature = )/, "");
      assert.ok(!out.includes(value), `${JSON.stringify(sep)} ${s}: ${out}`);
      assert.ok(out.includes(REDACTED), out);
      assert.doesNotThrow(() => JSON.parse(out), out); // the escapes stay
    }
  }
  // a word that only ends in a key word is still not one (`\n` then `monkey: …` is no key/value pair of `key`)
  assert.equal(
    redactSecrets(JSON.stringify({ t: "a\nmonkey business as usual" })),
    JSON.stringify({ t: "a\nmonkey business as usual" }),
  );
});
