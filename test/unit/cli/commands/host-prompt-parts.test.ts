// A prompt with context to a hosted run kept open (#35): the `prompt` request carries the prompt as composed
// (`parts`), the host checks it as it checks a run's first prompt, and the open run's agent gets it, with no new
// agent process and no session opened again. Hostile: a client's chip naming a file outside the run's folders
// (by its path, through a symlink in the folder, by `..`, by a relative path), too many parts or an oversize image
// is refused before anything is queued: the agent never sees it (before the check, the host queued every prompt).
// Real processes: a host in this process with the CLI's run path, the stdio fake agent.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import type { HostConnection } from "../../../../src/core/host/client";
import type { HostEvent } from "../../../../src/core/host/protocol";
import { MAX_PROMPT_PARTS, type WirePromptPart } from "../../../../src/core/host/wire-context";
import type { ContextItem } from "../../../../src/core/model/context";
import { MAX_IMAGE_BYTES } from "../../../../src/core/prompt/images";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import { main as runMain } from "../../../../src/cli/commands/run";
import { contextFolders, withHostedRun } from "../../../fixtures/host/cli-host";
import { waitFor } from "../../../fixtures/spawner/wait";
import { runCommand } from "../in-process";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

const fileChip = (path: string, label = "chip"): ContextItem => ({
  kind: "file",
  label,
  uri: pathToFileURL(path).href,
  path,
});
const image = (bytes: Buffer): WirePromptPart => ({
  type: "context",
  item: { kind: "image", label: "shot.png", base64: bytes.toString("base64") },
});
const withChip = (item: ContextItem): WirePromptPart[] => [
  { type: "text", text: "context see " },
  { type: "context", item },
];

interface World {
  conn: HostConnection;
  home: string;
  ws: string;
  dir: string;
  threadId: string;
  events: HostEvent[];
  pid(): number;
  log: string;
  answers(): string[];
}

/** A run kept open in the folder `ws` (its first turn over, idle), followed by a client that hears every event. */
function world(fn: (w: World) => Promise<void>) {
  const pidFile = (dir: string) => join(dir, "agent.pid");
  const logOf = (dir: string) => join(dir, "protocol.ndjson");
  return withHostedRun(
    "acp-host-parts-",
    (_ws, dir) => ({
      keepOpen: true,
      prompts: ["one"],
      env: { FAKE_AGENT_PIDFILE: pidFile(dir), FAKE_AGENT_PROMPT_CAPS: "image,embeddedContext" },
      protocolLog: logOf(dir),
    }),
    async ({ conn, home, ws, dir, threadId, events, of }) => {
      await waitFor(() => of("turn_ended").length > 0, "the first turn");
      const answers = () =>
        new ThreadStore(home).read(threadId).records.flatMap((x) => (x.kind === "agent_message" ? [x.text] : []));
      const pid = () => Number(readFileSync(pidFile(dir), "utf8"));
      await fn({ conn, home, ws, dir, threadId, events, pid, log: logOf(dir), answers });
    },
    contextFolders,
  );
}

/** Ends the run (its protocol log is written then) and reads the log. */
async function traffic(w: World): Promise<string> {
  await w.conn.request({ t: "stop_thread", threadId: w.threadId });
  await waitFor(() => w.events.some((e) => e.threadId === w.threadId && e.kind === "ended"), "the run ended");
  await waitFor(() => {
    try {
      return readFileSync(w.log, "utf8").length > 0;
    } catch {
      return false;
    }
  }, "the protocol log");
  return readFileSync(w.log, "utf8");
}

test("a prompt to an open run with context outside its folders, too many parts or an oversize image is refused", () =>
  world(async (w) => {
    const secret = join(w.dir, "secret.txt");
    const forged: [string, WirePromptPart[], RegExp][] = [
      ["a file by its absolute path", withChip(fileChip("/etc/passwd")), /outside the run's folders/],
      ["a secret by its path", withChip(fileChip(secret)), /outside the run's folders/],
      ["a symlink out of the folder", withChip(fileChip(join(w.ws, "up", "secret.txt"))), /outside the run's folders/],
      ["../ out of the folder", withChip(fileChip(join(w.ws, "..", "secret.txt"))), /outside the run's folders/],
      [
        "a relative path",
        withChip({ kind: "file", label: "rel", uri: "acp-threads://x", path: "../secret.txt" }),
        /outside the run's folders/,
      ],
      [
        "a selection whose URI only names the file",
        withChip({ kind: "selection", label: "sel", uri: pathToFileURL(secret).href, range: { start: 1, end: 1 } }),
        /outside the run's folders/,
      ],
      ["an oversize image", [{ type: "text", text: "context " }, image(Buffer.alloc(MAX_IMAGE_BYTES + 1, PNG))], /MB/],
      ["not an image", [{ type: "text", text: "context " }, image(Buffer.from("GIF? no"))], /not a PNG/],
      [
        "too many parts",
        Array.from({ length: MAX_PROMPT_PARTS + 1 }, () => ({ type: "text", text: "context " })),
        /at most/,
      ],
    ];
    for (const [what, parts, refused] of forged)
      await assert.rejects(
        w.conn.request({ t: "prompt", threadId: w.threadId, text: "context forged", parts }),
        refused,
        what,
      );
    // a plain prompt after them: it is the open run's second turn (nothing refused was queued before it)
    await w.conn.request({ t: "prompt", threadId: w.threadId, text: "two" });
    await waitFor(() => w.answers().length === 2, "the second turn answered");
    assert.deepEqual(w.answers(), ["echo: one", "echo: two"]);
    const log = await traffic(w);
    assert.doesNotMatch(log, /SECRET|passwd|forged/, "nothing refused reached the agent");
    assert.equal(log.match(/"method":"session\/prompt","params"/g)?.length, 2);
  }));

test("a file, a selection and an image reach the agent of the same open run", () =>
  world(async (w) => {
    const pid = w.pid();
    const a = join(w.ws, "src", "a.ts");
    await w.conn.request({
      t: "prompt",
      threadId: w.threadId,
      text: "context see @a.ts and @a.ts:1 and @shot.png",
      parts: [
        { type: "text", text: "context see " },
        { type: "context", item: fileChip(a, "a.ts") },
        { type: "text", text: " and " },
        { type: "context", item: { ...fileChip(a, "a.ts:1"), kind: "selection", range: { start: 1, end: 1 } } },
        { type: "text", text: " and " },
        image(PNG),
      ],
    });
    await waitFor(() => w.answers().length === 2, "the second turn answered");
    const resource = `resource ${pathToFileURL(a).href} "inside line"`;
    assert.deepEqual(w.answers()[1]!.trim().split("\n"), [
      'text "context see "',
      resource,
      'text " and "',
      resource, // the selection: its line of the file
      'text " and "',
      `image image/png ${PNG.length} bytes`,
    ]);
    assert.equal(w.pid(), pid, "the same agent process");
    const log = await traffic(w);
    assert.equal(log.match(/"method":"session\/(new|load|resume)"/g), null, "no session opened again");
    assert.equal(new Set(log.match(/"sessionId":"[^"]+"/g)).size, 1, "one agent session");
  }));

test("run --thread ID --file / --image on a thread the host holds sends them with the prompt, checked by the host", () =>
  world(async (w) => {
    const a = join(w.ws, "src", "a.ts");
    writeFileSync(join(w.ws, "shot.png"), PNG);
    const sent = await runCommand(
      runMain,
      ["--thread", w.threadId, "--file", "src/a.ts", "--image", "shot.png", "context via cli"],
      { home: w.home, cwd: w.ws },
    );
    assert.equal(sent.code, 0, sent.err);
    await waitFor(() => w.answers().length === 2, "the second turn answered");
    assert.deepEqual(w.answers()[1]!.trim().split("\n"), [
      'text "context via cli "',
      `resource ${pathToFileURL(a).href} "inside line"`,
      `image image/png ${PNG.length} bytes`,
    ]);
    // before, --file and --image were dropped silently for a held thread: the agent got the text alone
    const outside = await runCommand(runMain, ["--thread", w.threadId, "--file", "../secret.txt", "context leak"], {
      home: w.home,
      cwd: w.ws,
    });
    assert.notEqual(outside.code, 0);
    assert.match(outside.err, /outside the run's folders/);
    const log = await traffic(w);
    assert.doesNotMatch(log, /SECRET|leak/, "the refused prompt never reached the agent");
  }));
