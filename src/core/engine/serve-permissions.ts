/**
 * The engine requests of the permission rules (requests-permissions.ts): the data home's rules file through its
 * `PermissionStore` (each change re-read and merged under the file's lock), and the gate's decision
 * (permission-decision.ts, the same code path as a live session's request).
 */
import { isAbsolute, resolve } from "node:path";
import { PathGuard } from "../acp/path-guard";
import { decidePermission } from "../acp/permission-decision";
import { PermissionStore } from "../acp/permission-store";
import { ruleText } from "../acp/rule-text";
import { AcpThreadsError } from "../errors";
import { EVERYWHERE } from "../model/permission-rule";
import type { Handlers } from "./serve-types";

type PermissionOp = "permissions.list" | "permissions.add" | "permissions.revoke" | "permissions.clear";

export const permissionOps: Handlers<PermissionOp | "permissions.check"> = {
  "permissions.list": async ({ store }) => {
    const rules = new PermissionStore(store.home);
    return { rules: await rules.rules(), ...(rules.rulesFile ? { file: rules.rulesFile } : {}) };
  },
  "permissions.add": async ({ store }, req) => {
    // the same check as the typed rule's (rule-text.ts): a bad effect, kind or a pattern covering everything throws
    const { effect, kind, pattern } = ruleText(req.effect, req.kind, req.pattern);
    if (req.scope !== EVERYWHERE && !isAbsolute(req.scope))
      throw new AcpThreadsError(
        "usage",
        `a permission rule's scope is ${EVERYWHERE} (everywhere) or a workspace folder's absolute path, not ${JSON.stringify(req.scope)}`,
      );
    if (!req.agentId.trim())
      throw new AcpThreadsError("usage", `a permission rule is for an agent id, or ${EVERYWHERE} for every agent`);
    const scope = req.scope === EVERYWHERE ? EVERYWHERE : resolve(req.scope);
    return await new PermissionStore(store.home).remember({ effect, kind, key: pattern, agentId: req.agentId, scope });
  },
  "permissions.revoke": async ({ store }, req) => await new PermissionStore(store.home).revokeListed(req.ids),
  "permissions.clear": async ({ store }) => {
    const rules = new PermissionStore(store.home);
    return await rules.revokeIds((await rules.rules()).map((r) => r.id));
  },
  "permissions.check": async ({ store }, req) => {
    const { kind, target, cwd } = req;
    const v = await decidePermission({
      store: new PermissionStore(store.home),
      agentId: req.agentId,
      workspace: cwd,
      policy: req.policy,
      guard: new PathGuard([cwd]),
      cwd,
      kind,
      toolCall: {
        toolCallId: "check",
        title: target,
        kind: kind as "other",
        ...(kind === "execute"
          ? { rawInput: { command: target } }
          : { locations: [{ path: isAbsolute(target) || target.startsWith("~") ? target : resolve(cwd, target) }] }),
      },
    });
    return { decision: v.verdict, rule: v.rule ?? null, reason: v.reason, outside: v.outside };
  },
};
