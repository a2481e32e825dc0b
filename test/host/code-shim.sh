#!/usr/bin/env bash
# Stands in for the VS Code desktop executable, so @vscode/test-electron's
#   runTests({ vscodeExecutablePath: "test/host/code-shim.sh", extensionDevelopmentPath, extensionTestsPath })
# runs the suite in code-server's real extension host (desktop VS Code cannot be downloaded here).
# Keeps the flags that matter, drops desktop-only ones, hands the rest to test/host/run.mjs (one pass).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
args=(--pass "${ACP_HOST_PASS:-main}")
for a in "$@"; do
  case "$a" in
    --extensionDevelopmentPath=*) args+=(--ext "${a#*=}") ;;
    --extensionTestsPath=*)       args+=(--tests "${a#*=}") ;;
    --*) ;;                        # --no-sandbox, --disable-updates, --user-data-dir=…: desktop only
    *)   args+=(--folder "$a") ;;  # a workspace folder from launchArgs
  esac
done
exec node "$HERE/run.mjs" "${args[@]}"
