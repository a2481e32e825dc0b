/** `threads rename ID TITLE...`, `threads delete ID` (to the trash), `threads restore ID` (from the trash). */
import { EXIT } from "../io";
import { shortId, writeJson, type SubContext } from "./common";

export function rename(ctx: SubContext): number {
  const id = ctx.store.resolveId(ctx.args[0]!);
  const title = ctx.args.slice(1).join(" ");
  ctx.store.rename(id, title);
  if (ctx.json) writeJson(ctx.io, { id, title: ctx.store.readMetadata(id).title });
  else ctx.io.stdout.write(`renamed ${shortId(id)}: ${title.trim()}\n`);
  return EXIT.ok;
}

export function remove(ctx: SubContext): number {
  const id = ctx.store.resolveId(ctx.args[0]!);
  const trashed = ctx.store.delete(id);
  if (ctx.json) writeJson(ctx.io, { id, trash: trashed });
  else ctx.io.stdout.write(`moved ${shortId(id)} to the trash (undo: acp-threads threads restore ${id})\n`);
  return EXIT.ok;
}

export function restore(ctx: SubContext): number {
  const id = ctx.store.resolveId(ctx.args[0]!, { trash: true });
  const path = ctx.store.restore(id);
  if (ctx.json) writeJson(ctx.io, { id, path });
  else ctx.io.stdout.write(`restored ${shortId(id)}\n`);
  return EXIT.ok;
}
