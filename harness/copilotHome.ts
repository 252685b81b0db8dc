/**
 * GitHub Copilot CLI 1.0.102 (`@github/copilot`) home: BYOK against the loopback chat-completions mock
 * (`COPILOT_PROVIDER_BASE_URL`, a dummy `COPILOT_PROVIDER_API_KEY`, `COPILOT_MODEL`), `COPILOT_OFFLINE=true` (no GitHub
 * auth, telemetry, web tools, GitHub MCP server or auto-update), `COPILOT_HOME` in the run, the project folder trusted
 * (`trustedFolders` in settings.json), no banner, and a logging command hook on every hook event
 * (`$COPILOT_HOME/hooks/agentlens-logger.json`, PascalCase keys).
 *
 * The native binary is a Node SEA that unpacks its JS app (~235 MB) into `<pkg cache>/pkg/linux-x64/<version>` on its
 * first start (~1.5 s). All runs share one pre-unpacked cache, `COPILOT_PKG_CACHE_HOME=/tmp/agentlens-copilot-pkg-cache`,
 * filled here on first use; every other cache stays in the run's `XDG_CACHE_HOME`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { type AgentHome, AGENT_VERSIONS, agentBin, baseEnv, type HomeOptions, homeResult, makeRun } from './homeBase';
import { shellQuote as q } from '../src/common/shellQuote';

/**
 * Every hook event, by the PascalCase names Copilot takes from Claude Code: with these keys its payloads are snake_case
 * and name their event (`hook_event_name`, `session_id`), as the reporter reads them; under the camelCase keys
 * (`agentStop`, …) they are camelCase and name none. The 14 it fires or knows (FACTS.md §7).
 */
export const COPILOT_HOOK_EVENTS = [
  'SessionStart',
  'SessionEnd',
  'UserPromptSubmit',
  'PreToolUse',
  'PreMcpToolCall',
  'PostToolUse',
  'PostToolUseFailure',
  'ErrorOccurred',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PermissionRequest',
  'Notification',
];

/** The model id the CLI is told to use: a well-known one, so that its built-in catalog limits apply. */
export const COPILOT_MOCK_MODEL = 'gpt-4.1';

const PKG_CACHE = '/tmp/agentlens-copilot-pkg-cache';

/** The native binary the npm loader would spawn. */
function nativeBin(o: HomeOptions): string {
  const loader = o.bin ?? agentBin('copilot', o.agentsDir);
  return path.resolve(path.dirname(loader), '..', 'copilot-linux-x64', 'copilot');
}

/** Unpack the app into the shared cache once (`copilot --version` does it and exits). */
function ensurePkgCache(o: HomeOptions, home: string): void {
  const done = path.join(PKG_CACHE, 'pkg', 'linux-x64', AGENT_VERSIONS.copilot, '.extraction-complete');
  if (fs.existsSync(done)) return;
  const env = {
    PATH: '/usr/bin:/bin',
    HOME: home,
    COPILOT_PKG_CACHE_HOME: PKG_CACHE,
    COPILOT_AUTO_UPDATE: 'false',
    COPILOT_OFFLINE: 'true',
  };
  execFileSync(nativeBin(o), ['--version', '--no-auto-update'], { env, stdio: 'ignore', timeout: 120_000 });
}

/** Claude Code's nested shape (`{matcher?, hooks: [{type, command, timeout}]}`), as our installer writes it; no matcher: every tool. */
function hooksFile(r: ReturnType<typeof makeRun>): Record<string, unknown> {
  const hooks: Record<string, unknown> = {};
  for (const ev of COPILOT_HOOK_EVENTS) {
    const command = `${q(process.execPath)} ${q(r.logger)} ${q(r.hooksLog)} ${ev}`;
    hooks[ev] = [{ hooks: [{ type: 'command', command, timeout: 10 }] }];
  }
  return { hooks };
}

export function prepareCopilotHome(o: HomeOptions): AgentHome {
  const r = makeRun('copilot', o, true);
  const dir = path.join(r.home, '.copilot');
  fs.mkdirSync(path.join(dir, 'hooks'), { recursive: true });
  ensurePkgCache(o, r.home);
  const settings = { banner: 'never', autoUpdate: false, showTipsOnStartup: false };
  fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(settings, null, 2));
  // The CLI's own state file: folder trust lives here (settings.json ignores `trustedFolders`), and
  // `askedSetupTerminals` stops the first start in VS Code from adding a shift+enter key binding to ~/.config/Code.
  const config = {
    ...(o.untrusted ? {} : { trustedFolders: [r.cwd] }),
    ...(o.firstStart ? {} : { askedSetupTerminals: ['vscode'] }),
  };
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config, null, 2));
  if (o.hooks !== false) fs.writeFileSync(path.join(dir, 'hooks', 'agentlens-logger.json'), JSON.stringify(hooksFile(r), null, 2));
  const apiKey = 'sk-agentlens-mock-key-not-real';
  const env: Record<string, string> = {
    ...baseEnv(o, r.home, r.runId),
    COPILOT_HOME: dir,
    COPILOT_PKG_CACHE_HOME: PKG_CACHE,
    COPILOT_OFFLINE: 'true',
    COPILOT_AUTO_UPDATE: 'false',
    COPILOT_PROVIDER_BASE_URL: `${o.baseUrl.replace(/\/$/, '')}/v1`,
    COPILOT_PROVIDER_API_KEY: apiKey,
    COPILOT_MODEL: COPILOT_MOCK_MODEL,
    ...(o.env ?? {}),
  };
  return homeResult('copilot', o, r, env, apiKey);
}
