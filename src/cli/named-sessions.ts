/**
 * Named sessions (`acp-threads run --session NAME`, as in acpx): a thread tagged `session:NAME`, scoped to the
 * workspace (repository root, else folder) and, when given, the agent. The newest such thread wins (the engine's
 * `threads.named` request, core/host/run-target.ts).
 */
export { namedSessionTag } from "../core/model/named-session";
