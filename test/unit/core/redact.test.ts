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
