/** Counts the file calls a piece of code makes: every `fs.*Sync` (by name) and the named `fs/promises` calls (paths). */
import fs from "node:fs";
import fsp from "node:fs/promises";

export async function countFsCalls<T>(
  fn: () => Promise<T>,
  promised: readonly string[],
): Promise<{ value: T; paths: string[]; sync: string[] }> {
  const paths: string[] = [];
  const sync: string[] = [];
  const saved: [Record<string, unknown>, string, unknown][] = [];
  const wrap = (table: Record<string, unknown>, name: string, seen: (a: unknown[]) => void) => {
    const f = table[name] as (...a: unknown[]) => unknown;
    saved.push([table, name, f]);
    table[name] = (...a: unknown[]) => (seen(a), f(...a));
  };
  const fsTable = fs as unknown as Record<string, unknown>;
  for (const [name, f] of Object.entries(fsTable))
    if (name.endsWith("Sync") && typeof f === "function") wrap(fsTable, name, () => sync.push(name));
  for (const name of promised) wrap(fsp as unknown as Record<string, unknown>, name, (a) => paths.push(String(a[0])));
  try {
    return { value: await fn(), paths, sync };
  } finally {
    for (const [table, name, f] of saved) table[name] = f;
  }
}
