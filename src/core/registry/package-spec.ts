/**
 * The package specs a registry entry may hand to npm or uv: a registry package's name with an optional version,
 * range or tag, nothing else. No URL, path, git spec or option (`--registry=…`, `-e .`), and none of the characters
 * a shell or cmd.exe would act on: the spec is one argument of the installer's command line.
 */

/** npm: `name` or `@scope/name`, then `@1.2.3`, `@^1.2.0`, `@~1.2`, `@1.x` or `@latest` (a dist-tag). */
const NPM_SPEC =
  /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*(?:@(?:[~^]?\d[0-9A-Za-z.+_-]*|[A-Za-z][0-9A-Za-z._-]*))?$/i;
/** npm's limit on a name's length. */
const NPM_NAME_MAX = 214;

/** PyPI: a PEP 508 name, optional `[extras]`, then `==1.2`, `>=1,<2`, `~=1.4` … or uv's `@1.2.3`. */
const PY_NAME = "[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?";
const PY_EXTRAS = "\\[[A-Za-z0-9._-]+(?:,[A-Za-z0-9._-]+)*\\]";
const PY_CLAUSE = "(?:===?|~=|!=|>=|<=|<|>)[A-Za-z0-9.*+!_-]+";
const PYTHON_SPEC = new RegExp(`^${PY_NAME}(?:${PY_EXTRAS})?(?:${PY_CLAUSE}(?:,${PY_CLAUSE})*|@[A-Za-z0-9.+!_-]+)?$`);

/** Why `spec` is no npm registry package spec, or undefined when it is one. */
export function npmSpecProblem(spec: string): string | undefined {
  if (!NPM_SPEC.test(spec)) return `'${spec}' is not an npm package name (with an optional @version)`;
  const at = spec.indexOf("@", 1);
  if ((at > 0 ? at : spec.length) > NPM_NAME_MAX) return `'${spec}': an npm name is ${NPM_NAME_MAX} characters at most`;
  return undefined;
}

/** Why `spec` is no PyPI package spec, or undefined when it is one. */
export function pythonSpecProblem(spec: string): string | undefined {
  return PYTHON_SPEC.test(spec) ? undefined : `'${spec}' is not a Python package name (with an optional version)`;
}
