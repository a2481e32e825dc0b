// Issue 35, in the real extension host: with acpThreads.host.runSessions host, a new thread's "Run once" starts a
// run in the thread host that takes its one prompt and ends after it, as a window's "Run once" session does. The
// host's status says so (the panel's box takes no input while it runs), a prompt sent meanwhile is refused, and once
// it has ended the next prompt continues the thread as any other.
import assert from "node:assert/strict";
import { api, waitFor } from "./helpers";
import { hostRunSessions, sendNewInHost } from "./host-cli";

describe("runSessions host: Run once in the thread host (#35)", () => {
  hostRunSessions("once-host");

  it("Run once: the host's run takes its one prompt, refuses another meanwhile, and ends after its turn", async () => {
    const { hub } = await api();
    // a turn that runs until it is cancelled: the run is still there while it is looked at, however slow this is
    const id = await sendNewInHost("once-host", [{ type: "text", text: "sleep 60000" }], "run");
    const view = await waitFor("the panel's view (opened on the host's thread)", () => hub.hosted.get(id));
    assert.equal(view.once, true, "the host's row says once: the box takes no input while it runs");
    assert.equal(hub.hosted.link.session(id)?.once, true);
    // before, the draft's mode was dropped: the run stayed open and took this prompt
    await assert.rejects(view.prompt("two"), /Run once/);
    await hub.hosted.cancel(id);
    await waitFor("the run ended after its turn", () => view.ended, 20_000);
    const prompts = hub.threads.read(id).records.flatMap((r) => (r.kind === "user_message" ? [r.text] : []));
    assert.deepEqual(prompts, ["sleep 60000"]);
    assert.equal(hub.live.get(id), undefined, "no session of it in this window");
  });
});
