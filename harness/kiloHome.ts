/**
 * Kilo Code CLI 7.7.7 (`@kilocode/cli`, a Bun-compiled fork of OpenCode) home: the OpenCode-style config
 * `~/.config/kilo/kilo.json` with one OpenAI-compatible provider `mock` pointed at the loopback chat-completions mock
 * (the only enabled provider, so the Kilo Gateway is gone), approvals asked for bash, a logging plugin in
 * `~/.config/kilo/plugin/` that appends every bus event as JSONL, and every start-up network call off (the same
 * flags as the PTY test env built into the binary: no daemon, no auto-update, no models.dev fetch, no default npm
 * plugins, no telemetry, no session ingest, no share, no LSP download). Any npm install it still tries goes to the
 * mock (`/npm-registry/`, answered 404).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type AgentHome, baseEnv, type HomeOptions, homeResult, makeRun } from './homeBase';

/** Plugin source: one JSONL line per bus event delivered to plugins, plus its init; prints nothing. */
const KILO_PLUGIN = (logFile: string): string => `// Agent Lens harness: logs every bus event delivered to plugins as JSONL. Prints nothing.
import { appendFileSync } from "node:fs";
const LOG = ${JSON.stringify(logFile)};
function w(o) { try { appendFileSync(LOG, JSON.stringify({ logged_at_ms: Date.now(), ...o }) + "\\n"); } catch (e) {} }
export const AgentLensEventLogger = async (input) => {
  w({ argv_event: "plugin.init", payload: { directory: input && input.directory, worktree: input && input.worktree, pid: process.pid } });
  return {
    event: async ({ event }) => { w({ argv_event: event && event.type, payload: event }); },
  };
};
`;

/** kilo.json: the mock provider only, bash asks, nothing shared or updated. */
function kiloConfig(baseUrl: string, apiKey: string): Record<string, unknown> {
  return {
    $schema: 'https://app.kilo.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    model: 'mock/mock-model',
    small_model: 'mock/mock-model',
    enabled_providers: ['mock'],
    provider: {
      mock: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Mock',
        options: { baseURL: `${baseUrl.replace(/\/$/, '')}/v1`, apiKey },
        models: { 'mock-model': { name: 'Mock Model', tool_call: true, limit: { context: 128000, output: 4096 } } },
      },
    },
    permission: { bash: 'ask' },
    experimental: { openTelemetry: false },
  };
}

export function prepareKiloHome(o: HomeOptions): AgentHome {
  const r = makeRun('kilocode', o, true);
  const cfgDir = path.join(r.home, '.config', 'kilo');
  fs.mkdirSync(cfgDir, { recursive: true });
  const apiKey = 'dummy-not-a-key';
  fs.writeFileSync(path.join(cfgDir, 'kilo.json'), JSON.stringify(kiloConfig(o.baseUrl, apiKey), null, 2));
  if (o.hooks !== false) {
    const pdir = path.join(cfgDir, 'plugin');
    fs.mkdirSync(pdir, { recursive: true });
    fs.writeFileSync(path.join(pdir, 'agentlens-event-logger.js'), KILO_PLUGIN(r.hooksLog));
  }
  // Like OpenCode, Kilo may npm-install plugin dependencies into its config dirs: point npm (and bun) at the mock.
  const registry = `${o.baseUrl.replace(/\/$/, '')}/npm-registry/`;
  fs.writeFileSync(path.join(r.home, '.npmrc'), `registry=${registry}\n`);
  const env: Record<string, string> = {
    ...baseEnv(o, r.home, r.runId),
    npm_config_registry: registry,
    NPM_CONFIG_REGISTRY: registry,
    BUN_CONFIG_REGISTRY: registry,
    KILO_NO_DAEMON: '1',
    KILO_DISABLE_AUTOUPDATE: '1',
    KILO_DISABLE_MODELS_FETCH: '1',
    KILO_DISABLE_PROJECT_CONFIG: '1',
    KILO_DISABLE_DEFAULT_PLUGINS: '1',
    KILO_DISABLE_LSP_DOWNLOAD: '1',
    KILO_DISABLE_SESSION_INGEST: '1',
    KILO_DISABLE_SHARE: '1',
    KILO_TELEMETRY_LEVEL: 'off',
    ...(o.env ?? {}),
  };
  return homeResult('kilocode', o, r, env, apiKey);
}
