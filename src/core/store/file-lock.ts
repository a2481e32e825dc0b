/**
 * The advisory file lock now lives in core/platform/file-lock.ts (a shared leaf: core/acp's permission rules
 * take it too); this keeps the store's imports working.
 */
export * from "../platform/file-lock";
