// An agent's permission option name as a thread keeps it (stop 47): env assignments keep their names and lose their
// values wherever they stand (quoted values too), key-like strings are redacted, everything else is the name as is.
import assert from "node:assert/strict";
import { test } from "node:test";
import { optionLabel } from "../../../../src/core/text/option-label";

test("env values are left out wherever an assignment stands; keys are redacted; other names are untouched", () => {
  // each option name, and the label the thread keeps of it
  const labels = new Map<string, string>()
    .set("Allow", "Allow")
    .set("Yes, and don't ask again for `npm test`", "Yes, and don't ask again for `npm test`")
    .set("FOO=bar npm test", "FOO=… npm test")
    .set("Always allow `A=1 B=two npm run build`", "Always allow `A=… B=… npm run build`")
    .set('Yes for DATABASE_URL="postgres://u:hunter22@db/x y" psql', "Yes for DATABASE_URL=… psql")
    .set("Yes for X='a b c' cmd", "Yes for X=… cmd")
    .set("Yes (TOKEN=abc123456789);", "Yes (TOKEN=…);")
    .set("Yes for OPENAI_API_KEY=sk-proj-Zq8vR2mN4xT6yW1bC3dF5gH7 cmd", "Yes for OPENAI_API_KEY=… cmd")
    .set("Yes for cmd --key sk-ant-api03-Lp9Ks8Jd7Hf6Gg5Aa4", "Yes for cmd --key [REDACTED]")
    .set("Yes for cmd --flag=value", "Yes for cmd --flag=value")
    .set("Edit a==b", "Edit a=…");
  for (const [name, label] of labels) assert.equal(optionLabel(name), label, name);
});

test("a label read back is kept as it is (idempotent)", () => {
  for (const name of ["FOO=bar cmd", 'Yes X="a b" sk-ant-api03-Lp9Ks8Jd7Hf6Gg5Aa4', "Allow"])
    assert.equal(optionLabel(optionLabel(name)), optionLabel(name));
});
