/**
 * A small .zip extractor on node:zlib (stored and deflated entries, the unix mode kept when the archive has one).
 * Entries that would land outside the target folder are refused. Zip64 and encryption are not supported.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve, sep } from "node:path";
import { inflateRawSync } from "node:zlib";

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** The folder-relative path an entry may use, or throws when it climbs out or is absolute. */
export function safeEntryPath(root: string, name: string): string {
  const clean = name.replace(/\\/g, "/");
  const target = resolve(root, clean);
  if (clean.startsWith("/") || /^[a-zA-Z]:/.test(clean) || (target !== root && !target.startsWith(root + sep)))
    throw new Error(`archive entry '${name}' points outside the install folder`);
  return target;
}

export function unzipFile(file: string, dest: string): void {
  const buf = readFileSync(file);
  const root = resolve(dest);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error("not a zip archive (no end of central directory)");
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(p) !== CENTRAL) throw new Error("corrupt zip: bad central directory entry");
    const flags = buf.readUInt16LE(p + 8);
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const madeBy = buf.readUInt16LE(p + 4) >> 8;
    const external = buf.readUInt32LE(p + 38);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString("utf8", p + 46, p + 46 + nameLen);
    p += 46 + nameLen + extraLen + commentLen;
    if (flags & 1) throw new Error(`zip entry '${name}' is encrypted`);
    const target = safeEntryPath(root, name);
    if (name.endsWith("/")) {
      mkdirSync(target, { recursive: true });
      continue;
    }
    if (buf.readUInt32LE(local) !== LOCAL) throw new Error(`corrupt zip: bad local header for '${name}'`);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const raw = buf.subarray(start, start + size);
    let data: Buffer;
    if (method === 0) data = raw;
    else if (method === 8) data = inflateRawSync(raw);
    else throw new Error(`zip entry '${name}' uses compression method ${method} (only stored and deflate)`);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, data);
    const mode = (external >>> 16) & 0o777;
    if (madeBy === 3 && mode) chmodSync(target, mode); // 3 = unix
  }
}
