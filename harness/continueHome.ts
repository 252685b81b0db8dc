/**
 * Continue CLI 1.5.47 (`@continuedev/cli`, bin `cn`) home: `~/.continue/config.yaml` with one OpenAI-compatible model
 * pointed at the loopback chat-completions mock (so the user's bare `cn` loads it as its `local-config-yaml`; no
 * `--config` on the command line), the first-run onboarding flag set, no telemetry, no auto-update, and a logging
 * command hook on every event of its Claude Code-compatible hooks system (`~/.continue/settings.json`).
 *
 * The version check (`https://api.continue.dev/cn/info?id=<machine id>`) is a hard-coded fetch made when the bundle
 * is imported, in every mode, with no setting to turn it off: a preload (`NODE_OPTIONS=--require`) makes every
 * fetch and DNS lookup of a host off loopback fail as on a machine without network (the CLI then treats the
 * latest version as unknown), so nothing leaves loopback and `npm i -g @continuedev/cli` can never be started.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type AgentHome, baseEnv, type HomeOptions, homeResult, makeRun } from './homeBase';
import { shellQuote as q } from '../src/common/shellQuote';

/** The hook events of `src/hooks/types.ts` (HOOK_EVENT_NAMES). */
export const CONTINUE_HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'UserPromptSubmit',
  'SessionStart',
  'SessionEnd',
  'Stop',
  'Notification',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'ConfigChange',
  'TeammateIdle',
  'TaskCompleted',
  'WorktreeCreate',
  'WorktreeRemove',
];

/** Node preload: fetch / dns.lookup of any host that is not loopback fails at once (ENOTFOUND), as offline. */
const OFFLINE_GUARD = `'use strict';
// Agent Lens harness: keeps the CLI on loopback (its version check fetches api.continue.dev unconditionally).
const dns = require('dns');
const LOOP = /^(localhost|127\\.[0-9.]+|\\[?::1\\]?|::ffff:127\\.[0-9.]+)$/i;
const LOG = process.env.AGENTLENS_OFFLINE_LOG;
function offline(host, via) {
  try { if (LOG) require('fs').appendFileSync(LOG, JSON.stringify({ epoch_ms: Date.now(), pid: process.pid, host, via }) + '\\n'); } catch (e) {}
  const e = new Error('getaddrinfo ENOTFOUND ' + host);
  e.code = 'ENOTFOUND'; e.errno = -3008; e.syscall = 'getaddrinfo'; e.hostname = host;
  return e;
}
const lookup = dns.lookup;
dns.lookup = function (host, opts, cb) {
  if (typeof opts === 'function') { cb = opts; opts = {}; }
  if (typeof host === 'string' && !LOOP.test(host)) { process.nextTick(() => cb(offline(host, 'dns.lookup'))); return {}; }
  return lookup.call(dns, host, opts, cb);
};
const plookup = dns.promises.lookup;
dns.promises.lookup = function (host, opts) {
  if (typeof host === 'string' && !LOOP.test(host)) return Promise.reject(offline(host, 'dns.promises.lookup'));
  return plookup.call(dns.promises, host, opts);
};
if (typeof globalThis.fetch === 'function') {
  const realFetch = globalThis.fetch;
  globalThis.fetch = function (input, init) {
    let host = '';
    try { host = new URL(typeof input === 'string' || input instanceof URL ? String(input) : input.url).hostname; } catch (e) {}
    if (host && !LOOP.test(host)) return Promise.reject(new TypeError('fetch failed', { cause: offline(host, 'fetch') }));
    return realFetch.call(this, input, init);
  };
}
`;

function configYaml(baseUrl: string, apiKey: string): string {
  return [
    'name: Agent Lens mock',
    'version: 1.0.0',
    'schema: v1',
    'models:',
    '  - name: mock-model',
    '    provider: openai',
    // A name cn counts as capable (utils/modelCapability.ts: /gpt/ …); "mock-model" draws a "Model Capability Warning".
    '    model: gpt-4.1-mock',
    `    apiKey: ${apiKey}`,
    `    apiBase: ${baseUrl.replace(/\/$/, '')}/v1/`,
    '    roles:',
    '      - chat',
    '    capabilities:',
    '      - tool_use',
    '',
  ].join('\n');
}

function hookSettings(r: ReturnType<typeof makeRun>): Record<string, unknown> {
  const hooks: Record<string, unknown> = {};
  for (const ev of CONTINUE_HOOK_EVENTS) {
    const command = `${q(process.execPath)} ${q(r.logger)} ${q(r.hooksLog)} ${ev}`;
    hooks[ev] = [{ matcher: '*', hooks: [{ type: 'command', command, timeout: 10 }] }];
  }
  return { hooks };
}

export function prepareContinueHome(o: HomeOptions): AgentHome {
  const r = makeRun('continue-cli', o, true);
  const dir = path.join(r.home, '.continue');
  fs.mkdirSync(path.join(dir, 'index'), { recursive: true });
  const apiKey = 'sk-agentlens-mock-key-not-real';
  fs.writeFileSync(path.join(dir, 'config.yaml'), configYaml(o.baseUrl, apiKey));
  fs.writeFileSync(path.join(dir, '.onboarding_complete'), '2026-01-01T00:00:00.000Z');
  fs.writeFileSync(path.join(dir, 'index', 'globalContext.json'), JSON.stringify({ autoUpdateCli: false }, null, 2));
  if (o.hooks !== false) fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(hookSettings(r), null, 2));
  const guard = path.join(r.runDir, 'harness', 'offline-guard.cjs');
  fs.writeFileSync(guard, OFFLINE_GUARD);
  const env: Record<string, string> = {
    ...baseEnv(o, r.home, r.runId),
    CONTINUE_GLOBAL_DIR: dir,
    CONTINUE_API_BASE: `${o.baseUrl.replace(/\/$/, '')}/continue-api/`,
    CONTINUE_METRICS_ENABLED: '0',
    CONTINUE_CLI_ENABLE_TELEMETRY: '0',
    CONTINUE_CLI_AUTO_UPDATED: '1',
    NODE_OPTIONS: `--require=${guard}`,
    AGENTLENS_OFFLINE_LOG: path.join(r.runDir, 'harness', 'blocked-hosts.jsonl'),
    ...(o.env ?? {}),
  };
  return homeResult('continue-cli', o, r, env, apiKey);
}
