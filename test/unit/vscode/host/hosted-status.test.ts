// The header's status of a thread the thread host runs (#35, host parity rows 6-7): the running turn's start as
// `since`, none between turns; a run the host ended with an error is `failed` with the error as its detail.
import assert from "node:assert/strict";
import { test } from "node:test";
import { hostedStatusPost } from "../../../../src/vscode/host/hosted-status";

test("a running turn's status carries its prompt's time; between turns none", () => {
  assert.deepEqual(hostedStatusPost({ status: "working", since: 1_700_000_000_000, failure: undefined }), {
    type: "status",
    status: "working",
    since: 1_700_000_000_000,
  });
  assert.deepEqual(hostedStatusPost({ status: "idle", since: undefined, failure: undefined }), {
    type: "status",
    status: "idle",
  });
});

test("a run the host ended with an error shows failed, the error as its detail, no timer", () => {
  assert.deepEqual(hostedStatusPost({ status: "closed", since: undefined, failure: "the agent exited (code 7)" }), {
    type: "status",
    status: "failed",
    detail: "the agent exited (code 7)",
  });
  assert.deepEqual(hostedStatusPost({ status: "closed", since: undefined, failure: undefined }), {
    type: "status",
    status: "closed",
  });
});
