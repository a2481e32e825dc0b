/** Which registry to read: `--registry` flag > ACP_THREADS_REGISTRY_URL > the editor/home setting > the official CDN. */
export const DEFAULT_REGISTRY_URL = "https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json";
export const REGISTRY_URL_ENV = "ACP_THREADS_REGISTRY_URL";

export function resolveRegistryUrl(opts: { flag?: string; env: NodeJS.ProcessEnv; setting?: string }): string {
  const pick = [opts.flag, opts.env[REGISTRY_URL_ENV], opts.setting].find((v) => v && v.trim());
  return pick ? pick.trim() : DEFAULT_REGISTRY_URL;
}
