import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { ThreadStore } from "../../../../src/core/store/thread-store";
import {
  assetsDir,
  imageItem,
  keepImage,
  MAX_IMAGE_BYTES,
  readImageFile,
  sniffImageType,
  thumbnailsOf,
} from "../../../../src/core/prompt/images";

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 1, 2]);

test("image types are read from the bytes, not the name", () => {
  assert.equal(sniffImageType(PNG), "image/png");
  assert.equal(sniffImageType(JPEG), "image/jpeg");
  assert.equal(sniffImageType(Buffer.from("GIF89a....")), "image/gif");
  assert.equal(sniffImageType(Buffer.from("RIFF\0\0\0\0WEBPVP8 ")), "image/webp");
  assert.equal(sniffImageType(Buffer.from("<svg></svg>")), undefined);
  assert.throws(() => imageItem(Buffer.from("hello"), "fake.png"), /fake\.png is not a PNG, JPEG, GIF or WebP/);
  assert.throws(() => imageItem(new Uint8Array(MAX_IMAGE_BYTES + 1).fill(0x89), "huge.png"), /not a PNG/);
});

test("images over the size cap are refused with their size", () => {
  const big = new Uint8Array(MAX_IMAGE_BYTES + 10);
  big.set(PNG);
  assert.throws(() => imageItem(big, "big.png"), /big\.png is 5\.0 MB; images are limited to 5 MB/);
});

test("kept images are written beside the thread, content-addressed, 0600, with their thumbnail", () => {
  const dir = mkdtempSync(join(tmpdir(), "acp-img-"));
  try {
    const src = join(dir, "shot.png");
    writeFileSync(src, PNG);
    const item = readImageFile(src);
    assert.equal(item.uri, `file://${src}`);
    const kept = keepImage({ ...item, thumbData: JPEG }, join(dir, "t1.assets"));
    assert.match(kept.asset!, /^[0-9a-f]{24}\.png$/);
    assert.match(kept.thumb!, /^[0-9a-f]{24}\.thumb\.jpg$/);
    const file = join(dir, "t1.assets", kept.asset!);
    assert.deepEqual(new Uint8Array(readFileSync(file)), PNG);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(keepImage(item, join(dir, "t1.assets")).asset, kept.asset, "same bytes, same name");
    assert.throws(() => readImageFile(join(dir, "missing.png")), /no such image/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a thread's images go to the trash with it and come back on restore", () => {
  const dir = mkdtempSync(join(tmpdir(), "acp-img-"));
  try {
    const store = new ThreadStore(join(dir, "home"));
    const h = store.create({
      agent: { id: "a", name: "A", command: "a" },
      mode: "acp",
      cwd: dir,
      repoRoot: null,
      gitHead: null,
    });
    h.close();
    const kept = keepImage(imageItem(PNG, "shot.png"), assetsDir(store.threadsDir, h.threadId));
    store.delete(h.threadId);
    assert.ok(!existsSync(assetsDir(store.threadsDir, h.threadId)));
    assert.ok(existsSync(join(assetsDir(store.layout.trashDir, h.threadId), kept.asset!)));
    store.restore(h.threadId);
    assert.ok(existsSync(join(assetsDir(store.threadsDir, h.threadId), kept.asset!)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("thumbnails of a transcript's images come from the assets folder as data URLs; odd names are skipped", async () => {
  const dir = mkdtempSync(join(tmpdir(), "acp-img-"));
  try {
    const assets = join(dir, "t1.assets");
    const kept = keepImage({ ...imageItem(PNG, "a.png"), thumbData: JPEG }, assets);
    const whole = keepImage(imageItem(PNG, "b.png"), assets);
    const image = (r: object) => ({ kind: "image" as const, label: "img", ...r });
    const thumbs = await thumbnailsOf(assets, [
      { type: "user_text", text: "look", context: [image({ asset: kept.asset, thumb: kept.thumb })] },
      { type: "user_text", text: "and", context: [image({ asset: whole.asset }), image({ asset: "../x.png" })] },
      { type: "agent_text", text: "ok" },
    ] as never);
    assert.deepEqual(Object.keys(thumbs).sort(), [kept.thumb!, whole.asset!].sort());
    assert.equal(thumbs[kept.thumb!], `data:image/jpeg;base64,${Buffer.from(JPEG).toString("base64")}`);
    assert.equal(thumbs[whole.asset!], `data:image/png;base64,${Buffer.from(PNG).toString("base64")}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
