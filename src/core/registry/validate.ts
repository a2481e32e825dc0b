/**
 * Validation of `registry.json`: each entry is checked on its own and a bad one is set aside with the reason
 * (`rejected`), so one broken agent never hides the others. Unknown fields are dropped.
 */
import {
  REGISTRY_PLATFORMS,
  type BinaryTarget,
  type PackageDistribution,
  type RegistryAgent,
  type RegistryDistribution,
  type RegistryIndex,
} from "./types";
import { downloadUrlProblem } from "./download-url";
import { npmSpecProblem, pythonSpecProblem } from "./package-spec";
import { isSemver } from "./semver";

export const AGENT_ID = /^[a-z][a-z0-9-]*$/;
/** Installers need a person at the keyboard: the registry does not allow them and neither do we. */
const INSTALLER = /\.(dmg|pkg|deb|rpm|msi|appimage)$/i;

class Invalid extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

function str(o: Record<string, unknown>, key: string, where = ""): string {
  const v = o[key];
  if (typeof v !== "string" || !v.trim()) throw new Invalid(`${where}${key} must be a non-empty string`);
  return v;
}

function optStr(o: Record<string, unknown>, key: string): string | undefined {
  return typeof o[key] === "string" && o[key] ? (o[key] as string) : undefined;
}

function strings(v: unknown, what: string): string[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || !v.every((s) => typeof s === "string"))
    throw new Invalid(`${what} must be a list of strings`);
  return v as string[];
}

function envOf(v: unknown, what: string): Record<string, string> | undefined {
  if (v === undefined) return undefined;
  if (!isObject(v) || !Object.values(v).every((s) => typeof s === "string"))
    throw new Invalid(`${what} must map names to strings`);
  return v as Record<string, string>;
}

function pkg(v: unknown, kind: "npx" | "uvx"): PackageDistribution {
  if (!isObject(v)) throw new Invalid(`distribution.${kind} must be an object`);
  const out: PackageDistribution = { package: str(v, "package", `distribution.${kind}.`) };
  const refused = (kind === "npx" ? npmSpecProblem : pythonSpecProblem)(out.package);
  if (refused) throw new Invalid(`distribution.${kind}.package: ${refused}`);
  if (v.cmd !== undefined) out.cmd = str(v, "cmd", `distribution.${kind}.`);
  const args = strings(v.args, `distribution.${kind}.args`);
  if (args) out.args = args;
  const env = envOf(v.env, `distribution.${kind}.env`);
  if (env) out.env = env;
  return out;
}

function target(v: unknown, platform: string): BinaryTarget {
  const where = `distribution.binary.${platform}.`;
  if (!isObject(v)) throw new Invalid(`${where.slice(0, -1)} must be an object`);
  const archive = str(v, "archive", where);
  const path = archive.replace(/[?#].*$/, "");
  if (INSTALLER.test(path))
    throw new Invalid(`${where}archive is an installer (${archive}); installers are not allowed`);
  const refused = downloadUrlProblem(archive);
  if (refused) throw new Invalid(`${where}archive: ${refused}`);
  const out: BinaryTarget = { archive, cmd: str(v, "cmd", where) };
  const args = strings(v.args, `${where}args`);
  if (args) out.args = args;
  const env = envOf(v.env, `${where}env`);
  if (env) out.env = env;
  if (v.sha256 !== undefined) {
    if (typeof v.sha256 !== "string" || !/^[0-9a-fA-F]{64}$/.test(v.sha256))
      throw new Invalid(`${where}sha256 must be 64 hex digits`);
    out.sha256 = v.sha256.toLowerCase();
  }
  return out;
}

function distribution(v: unknown): RegistryDistribution {
  if (!isObject(v)) throw new Invalid("distribution must be an object");
  const out: RegistryDistribution = {};
  if (v.npx !== undefined) out.npx = pkg(v.npx, "npx");
  if (v.uvx !== undefined) out.uvx = pkg(v.uvx, "uvx");
  if (v.binary !== undefined) {
    if (!isObject(v.binary)) throw new Invalid("distribution.binary must be an object");
    const binary: RegistryDistribution["binary"] = {};
    for (const [platform, t] of Object.entries(v.binary)) {
      if (!(REGISTRY_PLATFORMS as readonly string[]).includes(platform))
        throw new Invalid(`distribution.binary: unknown platform '${platform}'`);
      binary[platform as (typeof REGISTRY_PLATFORMS)[number]] = target(t, platform);
    }
    if (Object.keys(binary).length) out.binary = binary;
  }
  if (!out.npx && !out.uvx && !out.binary) throw new Invalid("distribution names no npx, uvx or binary");
  return out;
}

/** One entry → a clean RegistryAgent, or throws with the reason. */
export function validateAgent(v: unknown): RegistryAgent {
  if (!isObject(v)) throw new Invalid("entry is not an object");
  const id = str(v, "id");
  if (!AGENT_ID.test(id)) throw new Invalid(`id '${id}' must match ${AGENT_ID.source}`);
  const version = str(v, "version");
  if (!isSemver(version)) throw new Invalid(`version '${version}' is not semver`);
  const agent: RegistryAgent = {
    id,
    name: str(v, "name"),
    version,
    description: str(v, "description"),
    distribution: distribution(v.distribution),
  };
  for (const key of ["repository", "website", "license", "icon"] as const) {
    const s = optStr(v, key);
    if (s) agent[key] = s;
  }
  const authors = Array.isArray(v.authors) ? v.authors.filter((a): a is string => typeof a === "string") : [];
  if (authors.length) agent.authors = authors;
  return agent;
}

/** The whole document: throws only when it is not a registry at all; bad entries go to `rejected`. */
export function validateIndex(raw: unknown): { index: RegistryIndex; rejected: { id: string; reason: string }[] } {
  if (!isObject(raw) || !Array.isArray(raw.agents)) throw new Error("not a registry: no 'agents' list");
  const agents: RegistryAgent[] = [];
  const rejected: { id: string; reason: string }[] = [];
  const seen = new Set<string>();
  raw.agents.forEach((entry, i) => {
    const id = isObject(entry) && typeof entry.id === "string" ? entry.id : `#${i}`;
    try {
      const agent = validateAgent(entry);
      if (seen.has(agent.id)) throw new Invalid("duplicate id");
      seen.add(agent.id);
      agents.push(agent);
    } catch (err) {
      if (!(err instanceof Invalid)) throw err;
      rejected.push({ id, reason: err.message });
    }
  });
  return { index: { version: typeof raw.version === "string" ? raw.version : "1.0.0", agents }, rejected };
}
