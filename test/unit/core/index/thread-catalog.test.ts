// The in-memory thread catalog behind the Sessions tree never answers with metadata it knows is out of date.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { ThreadCatalog } from "../../../../src/core/index/thread-catalog";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { startInput, withTmp } from "../store/helpers";

test("a thread whose file changed reads as unknown until the next list reads it again", () =>
  withTmp(async (dir) => {
    const store = new ThreadStore(join(dir, "home"));
    const handle = store.create(startInput(dir));
    const id = handle.threadId;
    handle.close();
    const catalog = new ThreadCatalog(store, { throttleMs: 10 });
    try {
      await catalog.list();
      assert.deepEqual(catalog.get(id)?.handedOffTo, []);
      store.patchMetadata(id, { handedOffTo: ["01a2152e-1d84-72b4-94dc-93f096049bf2"] });
      assert.equal(catalog.get(id), undefined, "a changed thread is not answered from the old read");
      await catalog.list();
      assert.deepEqual(catalog.get(id)?.handedOffTo, ["01a2152e-1d84-72b4-94dc-93f096049bf2"]);
    } finally {
      catalog.dispose();
    }
  }));
