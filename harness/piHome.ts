/**
 * pi 0.73.1 (`@mariozechner/pi-coding-agent`) home: a custom OpenAI-compatible provider `mock` in
 * `~/.pi/agent/models.json` pointed at the loopback chat-completions mock and chosen in `settings.json`, every
 * startup network call off (`PI_OFFLINE`, no version check, no install telemetry), and a logging extension that
 * appends pi's lifecycle events as JSONL (pi has no hooks; extensions are its event API, docs/extensions.md).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type AgentHome, agentBin, baseEnv, type HomeOptions, homeResult, makeRun } from './homeBase';

/** The events the logging extension records: prompts, turns, tools and the session's start and end. */
export const PI_EVENTS = [
  'session_start',
  'session_shutdown',
  'input',
  'agent_start',
  'agent_end',
  'turn_start',
  'turn_end',
  'tool_call',
  'tool_result',
  'user_bash',
];

/** Env var that holds the fake key: models.json names the variable, so the key itself is in no file. */
const KEY_VAR = 'AGENTLENS_MOCK_API_KEY';

/** Extension source: one JSONL line per event (a bounded summary, never whole message histories); prints nothing. */
function loggerExtension(logFile: string): string {
  return `// Agent Lens harness event logger for pi: appends {logged_at_ms, argv_event, pid, payload} to the run's hooks.jsonl.
import * as fs from 'node:fs';
const FILE = ${JSON.stringify(logFile)};
const EVENTS = ${JSON.stringify(PI_EVENTS)};
function summary(e: any) {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e || {})) {
    if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) out[k] = typeof v === 'string' ? v.slice(0, 200) : v;
    else if (k === 'input') out[k] = JSON.stringify(v).slice(0, 300);
  }
  return out;
}
export default function (pi: any) {
  for (const ev of EVENTS) {
    pi.on(ev, (event: unknown) => {
      try { fs.appendFileSync(FILE, JSON.stringify({ logged_at_ms: Date.now(), argv_event: ev, pid: process.pid, payload: summary(event) }) + '\\n'); } catch (e) {}
      return undefined;
    });
  }
};
`;
}

/** Copy one of pi's own example extensions (e.g. `permission-gate`, which asks before `rm -rf`) into the home. */
function copyExample(name: string, extDir: string, o: HomeOptions): void {
  const pkg = path.resolve(path.dirname(o.bin ?? agentBin('pi', o.agentsDir)), '..');
  const src = path.join(pkg, 'examples', 'extensions', `${name}.ts`);
  if (!fs.existsSync(src))
    throw new Error(`pi example extension ${name} not found at ${src}: reinstall pi with scripts/agents/install.sh pi`);
  fs.copyFileSync(src, path.join(extDir, `${name}.ts`));
}

export function preparePiHome(o: HomeOptions): AgentHome {
  const r = makeRun('pi', o, true);
  const dir = path.join(r.home, '.pi', 'agent');
  const extDir = path.join(dir, 'extensions');
  fs.mkdirSync(extDir, { recursive: true });
  const apiKey = 'sk-agentlens-mock-key-not-real';
  const models = {
    providers: {
      mock: {
        baseUrl: `${o.baseUrl.replace(/\/$/, '')}/v1`,
        api: 'openai-completions',
        apiKey: KEY_VAR,
        compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
        models: [{ id: 'mock-model', name: 'Mock Model', contextWindow: 128_000, maxTokens: 8192 }],
      },
    },
  };
  fs.writeFileSync(path.join(dir, 'models.json'), JSON.stringify(models, null, 2));
  fs.writeFileSync(
    path.join(dir, 'settings.json'),
    JSON.stringify({ defaultProvider: 'mock', defaultModel: 'mock-model', enableInstallTelemetry: false }, null, 2),
  );
  if (o.hooks !== false) fs.writeFileSync(path.join(extDir, 'agentlens-logger.ts'), loggerExtension(r.hooksLog));
  for (const name of o.piExtensions ?? []) copyExample(name, extDir, o);
  const env: Record<string, string> = {
    ...baseEnv(o, r.home, r.runId),
    [KEY_VAR]: apiKey,
    PI_OFFLINE: '1',
    PI_SKIP_VERSION_CHECK: '1',
    PI_TELEMETRY: '0',
    ...(o.env ?? {}),
  };
  return homeResult('pi', o, r, env, apiKey);
}
