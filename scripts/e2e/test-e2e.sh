#!/usr/bin/env bash
# npm run test:e2e: packages the .vsix, installs it into code-server 4.100.3 the way a user would, and runs
# the integration suite (test/e2e/suite) inside code-server's extension host with the real Claude Code CLI.
# Artifacts (results, screenshots, perf.json, logs): artifacts/e2e/.
set -euo pipefail
cd "$(dirname "$0")/../.."

node esbuild.mjs --production
mkdir -p artifacts
npx vsce package --no-dependencies --out artifacts/agent-lens.vsix >/dev/null
echo "vsix: $(stat -c %s artifacts/agent-lens.vsix) bytes" >&2

bash scripts/e2e/setup-code-server.sh
bash scripts/agents/install.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# code-server writes its config under HOME/XDG dirs: keep the user's untouched.
HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" XDG_DATA_HOME="$tmp/home/.local/share" \
  node .e2e/cs/node_modules/code-server/out/node/entry.js \
  --install-extension artifacts/agent-lens.vsix --extensions-dir "$tmp/ext" --user-data-dir "$tmp/ud" >&2
installed=$(ls -d "$tmp"/ext/agent-lens.agent-lens-*/)
for f in extension.js agent-lens-report.js agent-lens-permission.js; do
  test -f "$installed/dist/$f" || { echo "the .vsix installed without dist/$f" >&2; exit 1; }
done

# The suite itself is bundled in development mode (out/test/e2e); the extension under test is the installed .vsix.
node esbuild.mjs
# The whole suite takes about 10 minutes on 2 cores; a later --timeout in "$@" wins.
status=0
node scripts/e2e/run.mjs --extension "$installed" --suite out/test/e2e --artifacts artifacts/e2e --timeout 1500 "$@" || status=$?

# The user-level suite: outside VS Code, driving code-server in Chromium with keys and clicks only (reloads,
# renames, the inline buttons), VS Code's default settings, the .vsix installed as a user installs it, and the
# real Claude Code, OpenCode and Codex against their loopback mocks. desktop.user.test.ts starts a real
# notification server (Xvfb, a D-Bus session, dunst; the screen captured with xwd) for code-server: it skips
# where those are missing, and fails instead when AGENT_LENS_REQUIRE_DESKTOP=1 (.ci/run sets it).
AGENT_LENS_E2E_VSIX="$PWD/artifacts/agent-lens.vsix" AGENT_LENS_E2E_ARTIFACTS="$PWD/artifacts/e2e-user" \
  npx mocha --no-config --timeout 900000 --reporter spec 'out/test/e2e-user/**/*.user.test.js' || status=$?
exit "$status"
