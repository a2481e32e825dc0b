// How the data home's sizes are written for people (Clear data…, `acp-threads gc`): pure, so a front end may
// share it without reaching the measuring (measure.ts).

/** "1.2 MB" (binary units, one decimal). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)} ${units[i]}`;
}
