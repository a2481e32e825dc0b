#!/usr/bin/env bash
# Installs the real agents the interop tests drive (~2.8 GB), separately from the root package.json so a
# contributor's `npm ci` stays light. Cached: skipped when package-lock.json has not changed since the last
# install. Also installs the Debian packages the agents need (bubblewrap for codex's sandbox, ripgrep).
set -euo pipefail
cd "$(dirname "$0")"
need=()
command -v bwrap >/dev/null || need+=(bubblewrap)
command -v rg >/dev/null || need+=(ripgrep)
if ((${#need[@]})); then
  if [ "$(id -u)" = 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  else
    echo "test/agents: please install ${need[*]} (apt-get install ${need[*]})" >&2
  fi
fi
hash=$(cat package.json package-lock.json | sha256sum | cut -c1-16)
if [ -f node_modules/.installed-$hash ]; then
  echo "test/agents: real agents already installed ($hash)"
  exit 0
fi
echo "test/agents: npm install (real agents, ~2.8 GB, about two minutes)"
# npm ci rejects this lock (npm 11 leaves optional platform binaries of opencode-ai and acpx out of it);
# npm install honours the pinned versions in package.json and the lock just the same.
npm install --no-audit --no-fund --loglevel=error
touch node_modules/.installed-$hash
echo "test/agents: installed ($hash)"
