/**
 * The version of ACP Threads, from package.json: scripts/build.mjs replaces `__ACP_THREADS_VERSION__` in every
 * bundle (esbuild `define`), so the CLI's `--version`, the ACP client info, the MCP server info and bug bundles
 * all say what was built. Nothing in src/ writes a version number by hand (test/unit/scripts/manifest checks it).
 */
declare const __ACP_THREADS_VERSION__: string;

export const VERSION: string = __ACP_THREADS_VERSION__;
