// #35 item 7, recall on the engine requests: a query full of FTS syntax (quotes, NEAR, column filters, `-`, `*`,
// AND/OR, `a|b`, an unbalanced quote, CJK) gives through `recall.search` exactly the answer the index gives when
// asked directly (the CLI's in-process read before the move), in a repository's scope and globally; and over the
// thread host's socket the same answer as in process. `recall.searchText` is that answer rendered.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { localEngine } from "../../../../src/core/engine/local";
import type { Engine } from "../../../../src/core/engine/requests";
import { connectHost } from "../../../../src/core/host/client";
import { openRecall } from "../../../../src/core/recall/recall";
import { renderSearch } from "../../../../src/core/recall/render";
import type { SearchResult } from "../../../../src/core/recall/search";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { withCliHost } from "../../../fixtures/host/cli-host";
import { threadWith } from "./helpers";

const QUERIES = [
  "question",
  '"question 1" answer',
  "question NEAR(answer) col:3 -answer* AND|OR",
  'answer|quetzal "unbalanced',
  "修复 数据",
  "*",
  "",
];
const untimed = (r: SearchResult) => ({ ...r, elapsed_ms: 0 });

test("recall.search answers FTS-syntax queries exactly as the index does, in process and over the host's socket", () =>
  withCliHost("acp-recall-engine-", async ({ dir, home }) => {
    const store = new ThreadStore(home);
    threadWith(store, dir, 3, "first");
    threadWith(store, dir, 2, "second");
    const env = { ...process.env, ACP_THREADS_RECALL_DAEMON: "0" };
    const engine = localEngine({ home, recall: { env, oneShot: false } });
    const conn = await connectHost({ home, client: "recall test" });
    assert.ok(conn);
    try {
      const ask = (e: Engine, query: string, global: boolean) =>
        e.call({ op: "recall.search", query, ...(global ? { global } : { cwd: join(dir, "sub", "..") }) });
      // the engine first (it builds the index from our threads as any first read does), then the index directly
      const viaEngine: SearchResult[] = [];
      for (const q of QUERIES) for (const global of [false, true]) viaEngine.push(await ask(engine, q, global));
      const direct = openRecall(home);
      try {
        let i = 0;
        for (const q of QUERIES)
          for (const global of [false, true]) {
            const want = direct.search(q, global ? { global } : { repo: dir });
            assert.deepStrictEqual(untimed(viaEngine[i++]!), untimed(want), `${JSON.stringify(q)} global=${global}`);
          }
        assert.equal(viaEngine[0]!.status, "ok");
        const text = await engine.call({ op: "recall.searchText", query: "question", cwd: dir, format: "markdown" });
        assert.equal(
          text.text.replace(/elapsed: .*/, ""),
          renderSearch(direct.search("question", { repo: dir }), "markdown").replace(/elapsed: .*/, ""),
        );
      } finally {
        direct.close();
      }
      for (const q of QUERIES) {
        const there = await ask(conn.asEngine, q, false);
        assert.deepStrictEqual(untimed(there), untimed(await ask(engine, q, false)), `over the socket: ${q}`);
      }
      assert.deepStrictEqual(
        { ...(await conn.asEngine.call({ op: "recall.status" })), size_bytes: 0 },
        { ...(await engine.call({ op: "recall.status" })), size_bytes: 0 },
      );
    } finally {
      engine.close();
      conn.close();
    }
  }));
