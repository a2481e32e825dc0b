/**
 * An area's handlers loaded on the area's first request. The agents, registry and agent-import areas bring the agent
 * runtime and with it the ACP SDK, whose schemas take ~100 ms to build when loaded: a one-shot `acp-threads recall`
 * and the window's engine worker (its first recall query) should not pay that for areas they never call. In the
 * bundles, esbuild keeps a module reached only through `import()` unevaluated until the call.
 */
import type { EngineOp } from "./requests";
import type { Handlers } from "./serve-types";

export function lazyOps<O extends EngineOp>(ops: readonly O[], load: () => Promise<Handlers<O>>): Handlers<O> {
  let loaded: Promise<Handlers<O>> | undefined;
  const out: Partial<Record<O, Handlers<O>[O]>> = {};
  for (const op of ops) {
    const handler = async (...args: Parameters<Handlers<O>[O]>) => {
      const area = await (loaded ??= load());
      return await (area[op] as (...a: typeof args) => unknown)(...args);
    };
    out[op] = handler as unknown as Handlers<O>[O];
  }
  return out as unknown as Handlers<O>;
}
