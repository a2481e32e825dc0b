/**
 * The engine requests of the sandbox's reports (requests-sandbox.ts): the probe of core/sandbox/tool.ts (cached per
 * process, run with the engine's environment) and the allow-list's parse of core/sandbox/hosts.ts.
 */
import { parseAllowedHosts } from "../sandbox/hosts";
import { sandboxAvailability, sandboxReport } from "../sandbox/tool";
import type { Handlers } from "./serve-types";

export const sandboxOps: Handlers<"sandbox.availability" | "sandbox.hosts"> = {
  // only the engine's env: the request names no tool path or PATH (see requests-sandbox.ts)
  "sandbox.availability": async ({ env }) => sandboxReport(await sandboxAvailability({ env })),
  // plain JSON: a rule for any port has no `port` (not `port: undefined`)
  "sandbox.hosts": (_ctx, req) => ({
    rules: parseAllowedHosts(req.hosts).map(({ host, suffix, port }) => ({ host, suffix, ...(port ? { port } : {}) })),
  }),
};
