/**
 * Qwen Code 0.24.4 (`@qwen-code/qwen-code`) home: OpenAI-compatible auth chosen by its three environment variables
 * (no login, no auth dialog), pointed at the loopback chat-completions mock; `QWEN_HOME` in the run; no update
 * check, no usage statistics; approvals asked (`tools.approvalMode: "default"`; its own default, `auto`, lets a
 * model classifier decide); the background memory extraction and consolidation off (each is a second model
 * request with tools after a turn, which would take the scenario's next turn); a logging command hook on every
 * hook event (Qwen Code's hooks have Claude Code's shape, recordings/qwen/FACTS.md).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type AgentHome, baseEnv, type HomeOptions, homeResult, makeRun } from './homeBase';
import { shellQuote as q } from '../src/common/shellQuote';

export const QWEN_HOOK_EVENTS = [
  'SessionStart',
  'SessionEnd',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'PermissionDenied',
  'Notification',
  'Stop',
  'StopFailure',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
];

const EMPTY_EXTENSION_STORE = {
  version: 2,
  generation: 0,
  legacyProjectionHash: '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a',
  extensions: {},
};

function baseSettings(approvalMode: string, firstStart: boolean): Record<string, unknown> {
  return {
    // In a VS Code terminal (TERM_PROGRAM=vscode) a first start asks "Do you want to connect IDE to Qwen Code?".
    ...(firstStart ? {} : { ide: { hasSeenNudge: true } }),
    general: { enableAutoUpdate: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false },
    tools: { approvalMode },
  };
}

export function prepareQwenHome(o: HomeOptions & { permissionMode?: string }): AgentHome {
  const r = makeRun('qwen', o, true);
  const dir = path.join(r.home, '.qwen');
  // A first start creates the extension store and its watcher then reports "Extensions changed on disk. Run
  // /reload-plugins to apply updates." on the start screen: the files as that first start leaves them (no extension).
  fs.mkdirSync(path.join(dir, 'extensions'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'extensions', 'extension-enablement.json'), '{}');
  fs.mkdirSync(path.join(dir, 'extension-store'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'extension-store', 'state.json'), JSON.stringify(EMPTY_EXTENSION_STORE, null, 2));
  const apiKey = 'sk-agentlens-mock-key-not-real';
  const settings = baseSettings(o.permissionMode ?? 'default', o.firstStart === true);
  if (o.hooks !== false) {
    const hooks: Record<string, unknown> = {};
    for (const ev of QWEN_HOOK_EVENTS) {
      const command = `${q(process.execPath)} ${q(r.logger)} ${q(r.hooksLog)} ${ev}`;
      hooks[ev] = [{ matcher: '*', hooks: [{ type: 'command', command, timeout: 10 }] }];
    }
    settings.hooks = hooks;
  }
  fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(settings, null, 2));
  const env: Record<string, string> = {
    ...baseEnv(o, r.home, r.runId),
    QWEN_HOME: dir,
    OPENAI_API_KEY: apiKey,
    OPENAI_BASE_URL: `${o.baseUrl.replace(/\/$/, '')}/v1`,
    OPENAI_MODEL: 'mock-model',
    ...(o.env ?? {}),
  };
  return homeResult('qwen', o, r, env, apiKey);
}
