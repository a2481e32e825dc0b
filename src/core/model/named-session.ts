/**
 * Named sessions (`acp-threads run --session NAME`, as in acpx): a thread tagged `session:NAME`; the newest such
 * thread of the workspace (and agent, when given) is the session (the engine's `threads.named` request).
 */
export const namedSessionTag = (name: string): string => `session:${name}`;
