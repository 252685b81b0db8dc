/**
 * Gemini CLI 0.61.0 home (recordings/gemini/FACTS.md §9): `~/.gemini/settings.json` with API-key auth selected,
 * no update check, no usage statistics, no telemetry (so nothing but the loopback mock is contacted, §8), the
 * project folder trusted in `trustedFolders.json`, and a logging command hook on every hook event (§5).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type AgentHome, baseEnv, type HomeOptions, homeResult, makeRun } from './homeBase';
import { shellQuote as q } from '../src/common/shellQuote';

export const GEMINI_HOOK_EVENTS = [
  'SessionStart',
  'SessionEnd',
  'BeforeAgent',
  'AfterAgent',
  'BeforeModel',
  'AfterModel',
  'BeforeToolSelection',
  'BeforeTool',
  'AfterTool',
  'PreCompress',
  'Notification',
];

/** What a fresh home writes to `~/.gemini/settings.json` before any hooks. */
function baseSettings(firstStart: boolean): Record<string, unknown> {
  return {
    // In a VS Code terminal (TERM_PROGRAM=vscode) a first start asks "Do you want to connect IDE to Gemini CLI?".
    ...(firstStart ? {} : { ide: { hasSeenNudge: true } }),
    security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: true } },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
  };
}

export function prepareGeminiHome(o: HomeOptions): AgentHome {
  const r = makeRun('gemini', o, true);
  const dir = path.join(r.home, '.gemini');
  const tmp = path.join(r.runDir, 'tmp');
  fs.mkdirSync(dir, { recursive: true });
  fs.mkdirSync(tmp, { recursive: true });
  const apiKey = 'AIzaAgentLensMockKeyNotReal000000000000';
  const settings = baseSettings(o.firstStart === true);
  if (o.hooks !== false) {
    const hooks: Record<string, unknown> = {};
    for (const ev of GEMINI_HOOK_EVENTS) {
      // `name` is what the status row shows while the hook runs ("Executing Hook: log-BeforeAgent").
      const command = `${q(process.execPath)} ${q(r.logger)} ${q(r.hooksLog)} ${ev}`;
      hooks[ev] = [{ matcher: '*', hooks: [{ name: `log-${ev}`, type: 'command', command, timeout: 10_000 }] }];
    }
    settings.hooks = hooks;
  }
  fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(settings, null, 2));
  // persistentState (~/.gemini/state.json): without terminalSetupPromptShown a VS Code terminal gets the keybinding dialog.
  const state = o.firstStart === true ? { tipsShown: 1 } : { tipsShown: 1, terminalSetupPromptShown: true };
  fs.writeFileSync(path.join(dir, 'state.json'), JSON.stringify(state));
  if (o.untrusted !== true) fs.writeFileSync(path.join(dir, 'trustedFolders.json'), JSON.stringify({ [r.cwd]: 'TRUST_FOLDER' }, null, 2));
  const env: Record<string, string> = {
    ...baseEnv(o, r.home, r.runId),
    GEMINI_API_KEY: apiKey,
    GOOGLE_GEMINI_BASE_URL: o.baseUrl.replace(/\/$/, ''),
    // API error reports go to os.tmpdir() (`gemini-client-error-….json`): keep them in the run.
    TMPDIR: tmp,
    ...(o.env ?? {}),
  };
  return homeResult('gemini', o, r, env, apiKey);
}
