#!/usr/bin/env bash
# Installs the pinned agent CLIs used by the recording harness into <repo>/.agents
# (git-ignored; NOT package.json dependencies).
#
#   scripts/agents/install.sh            # all of them
#   scripts/agents/install.sh claude-code codex
#
# Layout: .agents/<agent>/node_modules/... plus .agents/<agent>/.stamp-<pkg>@<version>.
# Idempotent: an agent whose stamp exists and whose binary runs is skipped.
# Quiet: prints one line per agent (pi prints its version on stderr, hence 2>&1). Needs only the npm registry.
# Prints the bin paths at the end; `.agents/bin/<name>` symlinks are created too.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DEST="${AGENTS_DIR:-$ROOT/.agents}"
mkdir -p "$DEST/bin"

# agent | npm spec | bin (relative to the agent dir) | post-install command (run in the agent dir)
declare -A SPEC=(
  [claude-code]="@anthropic-ai/claude-code@2.1.328"
  [codex]="@openai/codex@0.169.0"
  [opencode]="opencode-ai@1.18.33"
  [gemini]="@google/gemini-cli@0.61.0"
  [pi]="@mariozechner/pi-coding-agent@0.73.1"
  [qwen]="@qwen-code/qwen-code@0.24.4"
  [continue-cli]="@continuedev/cli@1.5.47"
  [copilot]="@github/copilot@1.0.102"
  # 7.7.7: the newest version whose linux-x64 binary package is on the registry as well (7.8.1's is not).
  [kilocode]="@kilocode/cli@7.7.7"
  # The wrapper @factory/cli@0.225.1 fetches a binary of its own version, which the registry lacks: its
  # platform package is installed and run directly.
  [droid]="@factory/cli-linux-x64@0.225.2"
)
declare -A BIN=(
  [claude-code]="node_modules/@anthropic-ai/claude-code/bin/claude.exe"
  [codex]="node_modules/@openai/codex/bin/codex.js"
  [opencode]="node_modules/opencode-ai/bin/opencode.exe"
  [gemini]="node_modules/@google/gemini-cli/bundle/gemini.js"
  [pi]="node_modules/@mariozechner/pi-coding-agent/dist/cli.js"
  [qwen]="node_modules/@qwen-code/qwen-code/cli-entry.js"
  [continue-cli]="node_modules/@continuedev/cli/dist/cn.js"
  [copilot]="node_modules/@github/copilot/npm-loader.js"
  [kilocode]="node_modules/@kilocode/cli/bin/kilo"
  [droid]="node_modules/@factory/cli-linux-x64/bin/droid"
)
declare -A POST=(
  # npm 11 may skip lifecycle scripts; both packages ship a placeholder stub in bin/
  # that the postinstall replaces with (a link to) the native binary.
  [claude-code]="cd node_modules/@anthropic-ai/claude-code && node install.cjs"
  [codex]="true"
  [opencode]="cd node_modules/opencode-ai && node postinstall.mjs"
  # Gemini CLI is one bundled JS file; its optional node-pty is not needed (the harness owns the PTY).
  [gemini]="true"
  # pi is plain JS (Node >= 20.6); its optional native image/clipboard helpers are not needed.
  [pi]="true"
  # Qwen Code is plain JS (esbuild chunks); its optional node-pty, clipboard and image helpers are not needed.
  [qwen]="true"
  # Continue CLI is one bundled JS file.
  [continue-cli]="true"
  # Copilot's loader runs the binary of its optional package @github/copilot-linux-x64 (installed with it).
  [copilot]="true"
  # Kilo's shim runs the binary of its optional package @kilocode/cli-linux-x64 (installed with it).
  [kilocode]="true"
  [droid]="true"
)
declare -A LINK=( [claude-code]=claude [codex]=codex [opencode]=opencode [gemini]=gemini [pi]=pi [qwen]=qwen [continue-cli]=cn [copilot]=copilot [kilocode]=kilo [droid]=droid )
declare -A VERSION_RE=( [claude-code]="2\.1\.328" [codex]="0\.169\.0" [opencode]="1\.18\.33" [gemini]="0\.61\.0" [pi]="0\.73\.1" [qwen]="0\.24\.4" [continue-cli]="1\.5\.47" [copilot]="1\.0\.102" [kilocode]="7\.7\.7" [droid]="0\.225\.2" )

# Optional system tools the harness uses: bubblewrap (Codex warns "could not find bubblewrap on PATH"
# on screen without it) and sqlite3 (to dump OpenCode's session DB). Root + apt only; never fatal.
# Set AGENTLENS_NO_APT=1 to skip.
if [ -z "${AGENTLENS_NO_APT:-}" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  missing=()
  command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
  command -v sqlite3 >/dev/null 2>&1 || missing+=(sqlite3)
  if [ ${#missing[@]} -gt 0 ]; then
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1; then
      DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null 2>&1 || true
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 \
        && echo "agents: installed ${missing[*]}" || echo "agents: could not install ${missing[*]} (optional)" >&2
    else
      echo "agents: installed ${missing[*]}"
    fi
  fi
fi

agents=("$@")
[ ${#agents[@]} -eq 0 ] && agents=(claude-code codex opencode gemini pi qwen continue-cli copilot kilocode droid)

rc=0
for a in "${agents[@]}"; do
  spec="${SPEC[$a]:-}"
  if [ -z "$spec" ]; then echo "install.sh: unknown agent '$a'" >&2; rc=2; continue; fi
  dir="$DEST/$a"
  stamp="$dir/.stamp-${spec//\//_}"
  bin="$dir/${BIN[$a]}"
  if [ -f "$stamp" ] && [ -x "$bin" ] && "$bin" --version 2>&1 | grep -q "${VERSION_RE[$a]}"; then
    echo "agents: $a $spec already installed"
    ln -sfn "$bin" "$DEST/bin/${LINK[$a]}"
    continue
  fi
  rm -rf "$dir"
  mkdir -p "$dir"
  printf '{"name":"agentlens-agent-%s","private":true}\n' "$a" > "$dir/package.json"
  log="$dir/install.log"
  if ! (cd "$dir" && npm install --no-save --ignore-scripts --no-audit --no-fund --loglevel=error \
          --include=optional "$spec" >"$log" 2>&1); then
    echo "agents: $a npm install FAILED (see $log)" >&2; tail -20 "$log" >&2; rc=1; continue
  fi
  if ! (cd "$dir" && eval "${POST[$a]}" >>"$log" 2>&1); then
    echo "agents: $a postinstall FAILED (see $log)" >&2; tail -20 "$log" >&2; rc=1; continue
  fi
  if ! v="$("$bin" --version 2>&1)" || ! grep -q "${VERSION_RE[$a]}" <<<"$v"; then
    echo "agents: $a binary does not run or wrong version: '$v' (see $log)" >&2; rc=1; continue
  fi
  date -u +%FT%TZ > "$stamp"
  ln -sfn "$bin" "$DEST/bin/${LINK[$a]}"
  echo "agents: $a $spec installed ($v)"
done
exit $rc
