#!/usr/bin/env bash
# Installs code-server (VS Code server + web workbench) into .e2e/cs so that
# scripts/e2e/run.mjs can run integration tests inside a real extension host
# without downloading VS Code. Idempotent: exits early when the stamp file
# says the install is complete for this code-server version and Node ABI.
#
#   scripts/e2e/setup-code-server.sh          # install if needed
#   scripts/e2e/setup-code-server.sh --force  # wipe .e2e/cs and reinstall
#
# Needs: Debian 12 (apt-get) as root or with sudo, Node 20 + npm, the npm
# registry. Progress goes to stderr; tool output goes to .e2e/setup.log.
set -euo pipefail

CODE_SERVER_VERSION="${CODE_SERVER_VERSION:-4.100.3}"
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
E2E_DIR="$REPO_ROOT/.e2e"
CS_PREFIX="$E2E_DIR/cs"
CS_PKG="$CS_PREFIX/node_modules/code-server"
VSCODE_DIR="$CS_PKG/lib/vscode"
STAMP="$CS_PREFIX/.install-complete"
LOG="$E2E_DIR/setup.log"

say() { printf '[e2e-setup] %s\n' "$*" >&2; }
die() { say "ERROR: $*"; exit 1; }

mkdir -p "$E2E_DIR"
: >"$LOG"

# Run a command with its output sent to the log; on failure show the tail.
run() {
  if ! "$@" >>"$LOG" 2>&1; then
    say "command failed: $*"
    say "last lines of $LOG:"
    tail -n 40 "$LOG" >&2
    exit 1
  fi
}

command -v node >/dev/null || die "node not found (Node 20 required)"
command -v npm >/dev/null || die "npm not found"
NODE_MAJOR="$(node -p 'process.versions.node.split(".")[0]')"
[ "$NODE_MAJOR" = "20" ] || die "code-server $CODE_SERVER_VERSION requires Node 20, found $(node -v)"
NODE_ABI="$(node -p process.versions.modules)"
STAMP_TEXT="code-server=$CODE_SERVER_VERSION node-abi=$NODE_ABI arch=$(uname -m)"

if [ "${1:-}" = "--force" ]; then
  rm -f "$STAMP"
fi

# ---------------------------------------------------------------- apt ------
need_pkgs=()
command -v chromium >/dev/null || need_pkgs+=(chromium)
command -v rg >/dev/null || need_pkgs+=(ripgrep)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_pkgs+=(libkrb5-dev)
# A CJK font: the Chinese-interface test (test/e2e/user/chinese.user.test.ts) screenshots Agent Lens in Chinese.
dpkg -s fonts-wqy-microhei >/dev/null 2>&1 || need_pkgs+=(fonts-wqy-microhei)
if [ ! -f "$STAMP" ] || [ "$(cat "$STAMP" 2>/dev/null)" != "$STAMP_TEXT" ]; then
  # Only needed when we are going to compile native modules.
  { command -v make >/dev/null && command -v g++ >/dev/null; } || need_pkgs+=(build-essential)
  command -v python3 >/dev/null || need_pkgs+=(python3)
fi
if [ "${#need_pkgs[@]}" -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || die "need root or sudo to apt-get install: ${need_pkgs[*]}"
    SUDO="sudo"
  fi
  say "apt-get install ${need_pkgs[*]}"
  run $SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
  run $SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
    install -y -qq --no-install-recommends "${need_pkgs[@]}"
fi

# -------------------------------------------------------- stamp check ------
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$STAMP_TEXT" ]; then
  say "code-server $CODE_SERVER_VERSION already installed in ${CS_PREFIX#"$REPO_ROOT"/} (stamp ok)"
  exit 0
fi

start_ts=$(date +%s)
say "installing code-server $CODE_SERVER_VERSION into ${CS_PREFIX#"$REPO_ROOT"/} (log: ${LOG#"$REPO_ROOT"/})"
rm -rf "$CS_PREFIX"
mkdir -p "$CS_PREFIX"
cat >"$CS_PREFIX/package.json" <<EOF
{ "name": "agent-lens-e2e-code-server", "private": true, "dependencies": { "code-server": "$CODE_SERVER_VERSION" } }
EOF

NPM_FLAGS=(--ignore-scripts --no-audit --no-fund --loglevel=warn)

# node-gyp: npm's bundled copy, headers from the local Node install if present
# (no download from nodejs.org needed then).
NPM_DIR="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
NODE_GYP_JS="$NPM_DIR/node_modules/node-gyp/bin/node-gyp.js"
if [ -f "$NODE_GYP_JS" ]; then NODE_GYP=(node "$NODE_GYP_JS"); else NODE_GYP=(npx --yes node-gyp); fi
NODE_PREFIX="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"
GYP_FLAGS=(-j "$(nproc 2>/dev/null || echo 2)")
if [ -f "$NODE_PREFIX/include/node/node.h" ]; then
  GYP_FLAGS+=("--nodedir=$NODE_PREFIX")
  export npm_config_nodedir="$NODE_PREFIX"
fi

say "npm install code-server@$CODE_SERVER_VERSION (scripts off)"
(cd "$CS_PREFIX" && run npm install "${NPM_FLAGS[@]}")
[ -d "$VSCODE_DIR" ] || die "code-server package layout unexpected: $VSCODE_DIR missing"

say "npm install lib/vscode dependencies"
(cd "$VSCODE_DIR" && run npm install --omit=dev "${NPM_FLAGS[@]}")

for mod in node-pty @vscode/spdlog @parcel/watcher native-watchdog @vscode/deviceid kerberos; do
  say "node-gyp rebuild $mod"
  (cd "$VSCODE_DIR/node_modules/$mod" && run "${NODE_GYP[@]}" rebuild "${GYP_FLAGS[@]}")
done

# argon2 (code-server's password hashing, loaded even with --auth none) uses
# node-pre-gyp; build it from source with the variables node-pre-gyp would pass
# (equivalent to `npm rebuild argon2 --build-from-source`, without relying on
# npm's install-script policy or a download from GitHub).
say "node-gyp rebuild argon2"
ARGON2_DIR="$CS_PREFIX/node_modules/argon2"
(cd "$ARGON2_DIR" && run "${NODE_GYP[@]}" rebuild "${GYP_FLAGS[@]}" \
  --module_name=argon2 --module_path="$ARGON2_DIR/lib/binding/napi-v3" --napi_build_version=3)

say "ripgrep binary, node_modules.asar and bin links"
mkdir -p "$VSCODE_DIR/node_modules/@vscode/ripgrep/bin"
cp "$(command -v rg)" "$VSCODE_DIR/node_modules/@vscode/ripgrep/bin/rg"
ln -sfn node_modules "$VSCODE_DIR/node_modules.asar"
(cd "$VSCODE_DIR/bin/remote-cli" && ln -sfn code-linux.sh code-server)
(cd "$VSCODE_DIR/bin/helpers" && ln -sfn browser-linux.sh browser.sh)

say "npm install built-in extensions' dependencies"
(cd "$VSCODE_DIR/extensions" && run npm install --omit=dev "${NPM_FLAGS[@]}")

say "smoke test: native modules load, code-server --version"
(cd "$VSCODE_DIR" && run node -e '
  for (const m of ["node-pty", "@vscode/spdlog", "@parcel/watcher", "native-watchdog", "@vscode/deviceid", "kerberos"]) require(m);
')
(cd "$CS_PREFIX" && run node -e 'require("argon2")')
# code-server writes a default config.yaml under $XDG_CONFIG_HOME on any start.
SMOKE_HOME="$(mktemp -d)"
run env XDG_CONFIG_HOME="$SMOKE_HOME" XDG_DATA_HOME="$SMOKE_HOME" node "$CS_PKG/out/node/entry.js" --version
rm -rf "$SMOKE_HOME"

printf '%s\n' "$STAMP_TEXT" >"$STAMP"
say "done in $(( $(date +%s) - start_ts ))s"
