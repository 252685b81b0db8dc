/**
 * Factory droid 0.225.2 (`@factory/cli-linux-x64`, the Bun-compiled binary run directly) home: airgap mode
 * (`FACTORY_AIRGAP_ENABLED=1`: no Factory login, only custom models, no Factory API or telemetry), one custom model
 * in `~/.factory/settings.json` pointed at the loopback chat-completions mock, `FACTORY_HOME_OVERRIDE` keeping every
 * file in the run, the project folder pre-trusted, auto-update off, and a logging command hook on every hook event
 * in `~/.factory/hooks.json` (droid's hooks have Claude Code's shape; that file is the map of events, and for each
 * event it has droid ignores the `hooks` of settings.json, so Agent Lens's installer puts its own there beside them).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type AgentHome, baseEnv, type HomeOptions, homeResult, makeRun } from './homeBase';
import { shellQuote as q } from '../src/common/shellQuote';

export const DROID_HOOK_EVENTS = [
  'SessionStart',
  'SessionEnd',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'Notification',
  'Stop',
  'SubagentStop',
  'PreCompact',
];

/** The Factory service URLs droid reads from the environment. */
const FACTORY_URL_VARS = [
  'FACTORY_API_BASE_URL',
  'FACTORY_API_BASE_URL_EU',
  'FACTORY_APP_BASE_URL',
  'FACTORY_TELEMETRY_INGEST_BASE_URL',
  'FACTORY_WORKOS_BASE_URL',
];

/** The custom model's display name; droid names it `custom:<name with spaces as '-'>-<index>`. */
const DISPLAY_NAME = 'Mock Model';
export const DROID_MODEL_ID = 'custom:Mock-Model-0';

function settingsFor(o: HomeOptions, r: ReturnType<typeof makeRun>, apiKey: string): Record<string, unknown> {
  const settings: Record<string, unknown> = {
    sessionDefaultSettings: { model: DROID_MODEL_ID },
    customModels: [
      {
        model: 'mock-model',
        displayName: DISPLAY_NAME,
        baseUrl: `${o.baseUrl.replace(/\/$/, '')}/v1`,
        apiKey,
        provider: 'generic-chat-completion-api',
        maxOutputTokens: 4096,
      },
    ],
    // "Trust this folder?" at start unless the folder is listed (the file is flat: droid reads it as `general.*`).
    trustedFolders: o.untrusted ? {} : { [r.cwd]: { trustedAt: '2026-01-01T00:00:00.000Z' } },
    // With TERM_PROGRAM=vscode a first start asks "Would you like to install the Factory VSCode extension?".
    ...(o.firstStart ? {} : { ideExtensionPromptedAt: { vscode: 1767225600000 } }),
    logoAnimation: 'off',
  };
  return settings;
}

/** The harness's logging hook on every event, as `hooks.json` holds them: the map of events is the file. */
function loggingHooks(r: ReturnType<typeof makeRun>): Record<string, unknown> {
  const hooks: Record<string, unknown> = {};
  for (const ev of DROID_HOOK_EVENTS) {
    const command = `${q(process.execPath)} ${q(r.logger)} ${q(r.hooksLog)} ${ev}`;
    hooks[ev] = [{ matcher: '*', hooks: [{ type: 'command', command, timeout: 10 }] }];
  }
  return hooks;
}

export function prepareDroidHome(o: HomeOptions): AgentHome {
  const r = makeRun('droid', o, true);
  const dir = path.join(r.home, '.factory');
  fs.mkdirSync(dir, { recursive: true });
  const apiKey = 'sk-agentlens-mock-key-not-real';
  fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(settingsFor(o, r, apiKey), null, 2));
  if (o.hooks !== false) fs.writeFileSync(path.join(dir, 'hooks.json'), JSON.stringify(loggingHooks(r), null, 2));
  const factoryApi = `${o.baseUrl.replace(/\/$/, '')}/factory-api`;
  const env: Record<string, string> = {
    ...baseEnv(o, r.home, r.runId),
    FACTORY_HOME_OVERRIDE: r.home,
    FACTORY_AIRGAP_ENABLED: '1',
    FACTORY_DISABLE_KEYRING: '1',
    FACTORY_DROID_AUTO_UPDATE_ENABLED: 'false',
    FACTORY_DISABLE_DYNAMIC_CONFIG: '1',
    // Airgap still lets the daemon sync automations to api.factory.ai (a plain fetch): every Factory URL points at
    // the mock, which answers 404 (logged as kind "unknown"), so nothing leaves loopback, DNS included.
    ...Object.fromEntries(FACTORY_URL_VARS.map((v) => [v, factoryApi])),
    ...(o.env ?? {}),
  };
  return homeResult('droid', o, r, env, apiKey);
}
