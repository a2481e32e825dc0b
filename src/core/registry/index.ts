/** The registry core: read the ACP Agent Registry, install / update / remove its agents, start them like presets. */
export * from "./types";
export { DEFAULT_REGISTRY_URL, REGISTRY_URL_ENV, resolveRegistryUrl } from "./url";
export { fetchRegistry, REGISTRY_TIMEOUT_MS } from "./fetch";
export { validateAgent, validateIndex } from "./validate";
export { compareSemver, isSemver } from "./semver";
export { installKindOf, registryPlatformOf } from "./platform";
export {
  findInstalled,
  installedAgentSpec,
  installedSpecForAsync,
  listInstalled,
  listInstalledAsync,
} from "./installed";
export { hostRegistryPlatform, installAgent, installKindFor, uninstallAgent, type InstallOptions } from "./install";
export { updateAgent, updateFor } from "./update";
export { agentsLayout } from "./layout";
export { AUTH_PROBE_TIMEOUT_MS, authKindsOf, authKindsOfMethods, authLabel, probeAuthKinds } from "./auth";
export {
  currentFirst,
  DEPRECATED_PACKAGES,
  deprecationOf,
  deprecationOfInstalled,
  packageName,
  registryPackage,
  type Deprecation,
} from "./deprecated";
export { presetDisagreements, presetPackage } from "./preset-check";
