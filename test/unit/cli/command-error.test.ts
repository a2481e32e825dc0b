// A command's error line may carry an agent's words (the host's "no option 'X'; the options are …" lists the agent's
// option ids; an agent's JSON-RPC error message): it reaches the terminal inert, as the agent's other text does
// (terminal-text.ts), its lines kept.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { reportError } from "../../../src/cli/command";
import { EXIT } from "../../../src/cli/io";
import { capturedIO } from "./in-process";

describe("a command's error line", () => {
  it("prints an agent's escape sequences inert and keeps the message's lines", () => {
    const { io, err } = capturedIO({}, process.cwd());
    const code = reportError(
      io,
      { name: "answer", synopsis: "THREAD" },
      new Error(
        "no option 'x'; the options are \u001b]0;pwned\u0007ok (allow_once), \u009b2Kno (reject_once)\n  q1  Write a",
      ),
    );
    assert.equal(code, EXIT.error);
    for (const ch of ["\u001b", "\u0007", "\u009b"]) assert.ok(!err().includes(ch), JSON.stringify(err()));
    assert.equal(
      err(),
      "acp-threads answer: no option 'x'; the options are ␛]0;pwned␇ok (allow_once), \ufffd2Kno (reject_once)\n  q1  Write a\n",
    );
  });
});
