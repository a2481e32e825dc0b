/** The garbage collection's defaults (gc.ts `GcOptions`), which `acp-threads gc --help` names too. */
export const GC_DEFAULTS = {
  trashDays: 30,
  trafficMaxBytes: 512 * 1024 * 1024,
  trafficMaxAgeDays: 0,
  auditMaxBytes: 8 * 1024 * 1024,
  blobGraceMs: 2 * 24 * 3600 * 1000,
  steerGraceMs: 10 * 60 * 1000,
} as const;
