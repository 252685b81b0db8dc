/**
 * Isolated per-run homes for the agent CLIs: Claude Code, Codex and OpenCode here, Gemini CLI in geminiHome.ts, pi in
 * piHome.ts, the shared pieces (run folder, environment, hook logger, process cleanup) in homeBase.ts.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { AGENT_VERSIONS, type AgentHome, type AgentName, baseEnv, type HomeOptions, homeResult, makeRun } from './homeBase';
import { shellQuote as q } from '../src/common/shellQuote';
import { prepareGeminiHome } from './geminiHome';
import { preparePiHome } from './piHome';
import { prepareQwenHome } from './qwenHome';
import { prepareContinueHome } from './continueHome';
import { prepareCopilotHome } from './copilotHome';
import { prepareKiloHome } from './kiloHome';
import { prepareDroidHome } from './droidHome';

export * from './homeBase';
export { prepareGeminiHome } from './geminiHome';
export { preparePiHome } from './piHome';

export interface ClaudeHomeOptions extends HomeOptions {
  /** permissions.defaultMode (default 'default' = manual mode, so dialogs appear). */
  permissionMode?: string;
}

// ---------------------------------------------------------------- Claude Code

export const CLAUDE_HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'Notification',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'SessionStart',
  'SessionEnd',
  'Stop',
  'StopFailure',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'PreModelSwitch',
  'PostModelSwitch',
  'PermissionRequest',
  'PermissionDenied',
  'Setup',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
  'Elicitation',
  'ElicitationResult',
  'ConfigChange',
  'InstructionsLoaded',
  'CwdChanged',
  'FileChanged',
  'DirectoryAdded',
  'MessageDisplay',
];

/** Events that take a tool-name matcher in Claude's settings. */
const CLAUDE_MATCHER_EVENTS = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest', 'PermissionDenied']);

export function prepareClaudeHome(o: ClaudeHomeOptions): AgentHome {
  const r = makeRun('claude-code', o, false);
  const apiKey = 'sk-ant-api03-agentlens-mock-key-not-real-0000000000';
  const version = AGENT_VERSIONS['claude-code'];
  const claudeJson = {
    numStartups: 3,
    installMethod: 'npm-local',
    autoUpdates: false,
    theme: 'dark',
    hasCompletedOnboarding: true,
    lastOnboardingVersion: version,
    lastReleaseNotesSeen: version,
    hasSeenAutoDefaultNudge: true,
    hasSeenTasksHint: true,
    hasAvailableSubscription: false,
    hasIdeOnboardingBeenShown: { vscode: true },
    isQualifiedForDataSharing: false,
    shiftEnterKeyBindingInstalled: true,
    customApiKeyResponses: { approved: [apiKey.slice(-20)], rejected: [] },
    tipsHistory: {},
    projects: {
      [r.cwd]: {
        allowedTools: [],
        mcpServers: {},
        hasTrustDialogAccepted: o.untrusted !== true,
        hasCompletedProjectOnboarding: true,
        projectOnboardingSeenCount: 1,
        hasClaudeMdExternalIncludesApproved: false,
        hasClaudeMdExternalIncludesWarningShown: false,
      },
    },
  };
  fs.writeFileSync(path.join(r.home, '.claude.json'), JSON.stringify(claudeJson, null, 2));
  const claudeDir = path.join(r.home, '.claude');
  fs.mkdirSync(claudeDir, { recursive: true });
  const settings: Record<string, unknown> = {
    permissions: { defaultMode: o.permissionMode ?? 'default' },
    autoUpdates: false,
    includeCoAuthoredBy: false,
    env: {},
  };
  if (o.hooks !== false) {
    const hooks: Record<string, unknown> = {};
    for (const ev of CLAUDE_HOOK_EVENTS) {
      const h = { type: 'command', command: `${q(process.execPath)} ${q(r.logger)} ${q(r.hooksLog)} ${ev}`, timeout: 10 };
      hooks[ev] = [CLAUDE_MATCHER_EVENTS.has(ev) ? { matcher: '*', hooks: [h] } : { hooks: [h] }];
    }
    settings.hooks = hooks;
  }
  fs.writeFileSync(path.join(claudeDir, 'settings.json'), JSON.stringify(settings, null, 2));
  const env: Record<string, string> = {
    ...baseEnv(o, r.home, r.runId),
    ANTHROPIC_BASE_URL: o.baseUrl.replace(/\/$/, ''),
    ANTHROPIC_API_KEY: apiKey,
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_BUG_COMMAND: '1',
    DISABLE_NON_ESSENTIAL_MODEL_CALLS: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: '1',
    CLAUDE_CODE_DISABLE_TERMINAL_TITLE: '0',
    CLAUDE_CODE_IDE_SKIP_AUTO_INSTALL: '1',
    // Without this, 2.1.328 clones github.com/anthropics/claude-plugins-official (git + `ssh -T git@github.com`)
    // and resolves downloads.claude.ai at startup.
    CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: '1',
    ...(o.env ?? {}),
  };
  return homeResult('claude-code', o, r, env, apiKey);
}

// ---------------------------------------------------------------- Codex

export const CODEX_HOOK_EVENTS = [
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PreCompact',
  'PostCompact',
  'SessionStart',
  'SessionEnd',
  'UserPromptSubmit',
  'SubagentStart',
  'SubagentStop',
  'Stop',
  'Interrupt',
  'PreModelRequest',
  'PostModelRequest',
];

/**
 * trusted_hash values Codex 0.169.0 writes for our hook handlers
 * ({type:'command', command:`node "$AGENTLENS_HOOK_LOGGER" "$AGENTLENS_HOOK_LOG" <Event>`, timeout}).
 * Captured once via "Hooks need review → 2. Trust all and continue"; identical across runs/paths.
 * If the handler definition changes, recapture them (or pass bypassHookTrust: true).
 */
const CODEX_HOOK_TRUST: Record<string, string> = {
  PreModelRequest: '12be0017986acf43a3e92e23c509ff0743d095241f3048ad279ec120332ca8c8',
  PostModelRequest: 'b47a4164eacaa563c2ca865267ee76949048463c212bac6d9c145e7718c78305',
  PreToolUse: '9630ed1d5ae9af1bbf78d082ce2d52171545fd8c27819b7e25414c964192e48d',
  PermissionRequest: 'e1052ae096c5f57c8e4200231dcd163e74d4a328445913943fc407e3ffc53da4',
  PostToolUse: '1d57ae7a314f3798ab79ff66bb3502731199ef2630bb4fd8fe3464a1b043f44b',
  PreCompact: 'e6f9801eb2ff67c663fdd6db6f86fb60f4dd5628f8dff3521b6bfbc26208d38e',
  PostCompact: 'fd5d157f41a824e57c5db93bb0d52b587fd4d3c91dcae1f329ece0705036eb2b',
  SessionStart: 'ede491822752171396899937bf15fba66c8f4f02254a050851e087d10d004960',
  SessionEnd: 'd82d2589988b09fb1706a680c055ccff7504b88a9807795ad1cac1047c458ff1',
  UserPromptSubmit: 'f447bbaa2412aeb4a79b3486a9160e48014dac1f20605f92744fd9d3d6d7e9b2',
  SubagentStart: 'f06a4a38f94e4c89fcd53da69e83f91b339c789acbc0170bc2e9d539c90b8a55',
  SubagentStop: '95f482aa736c30cde3218a4c2c7b57c0bff0895284d0158f2ea0d6600f8b944e',
  Stop: '2831b902438ac35f9f9d464d58f6662b63e9c14378c176458e536bb61aae5cb4',
  Interrupt: '2eb457ccfed86386b3a8b860c0fce77ee5c2dc5bbfa1a1975a68ae9759eee5e1',
};

export interface CodexHomeOptions extends HomeOptions {
  /** Keep Codex's background app-server daemon (default true, like a real user). */
  daemon?: boolean;
  /**
   * Trust hooks with --dangerously-bypass-hook-trust instead of config entries (default false).
   * NOTE: that flag makes the TUI run its app-server in-process ("ephemeral mode"): no daemon.
   */
  bypassHookTrust?: boolean;
}

/** Shared cache of the ~400 MB daemon copy Codex makes into $CODEX_HOME/packages (hard-linked per run). */
export function codexPackagesCache(): string {
  return path.join(os.tmpdir(), 'agentlens-codex-packages-cache');
}

export function prepareCodexHome(o: CodexHomeOptions): AgentHome & { codexHome: string } {
  const r = makeRun('codex', o, true);
  const codexHome = path.join(r.home, '.codex');
  fs.mkdirSync(codexHome, { recursive: true });
  fs.mkdirSync(path.join(r.runDir, 'tmp'), { recursive: true });
  const apiKey = 'mock-key-agentlens-not-real';
  const base = o.baseUrl.replace(/\/$/, '');
  const toml = [
    'model_provider = "mock"',
    'approval_policy = "on-request"',
    'sandbox_mode = "read-only"',
    'check_for_update_on_startup = false',
    'hide_agent_reasoning = false',
    '',
    '[model_providers.mock]',
    'name = "Mock"',
    `base_url = "${base}/v1"`,
    'wire_api = "responses"',
    'env_key = "AGENTLENS_MOCK_API_KEY"',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[feedback]',
    'enabled = false',
    '',
    '[notice]',
    'hide_full_access_warning = true',
    'hide_rate_limit_model_nudge = true',
    '',
    '[tui]',
    'screen_reader_detection_done = true',
    // The tooltips feature fetches announcement_tip.toml from raw.githubusercontent.com at start.
    'show_tooltips = false',
    '',
    '[tui.model_availability_nux]',
    '"gpt-6.1-sol" = 1',
    '',
    // Curated plugin sync contacts github.com / api.github.com / chatgpt.com at start.
    '[features]',
    'plugins = false',
    'remote_plugin = false',
    '',
    ...(o.untrusted ? [] : [`[projects."${r.cwd}"]`, 'trust_level = "trusted"', '']),
  ].join('\n');
  fs.writeFileSync(path.join(codexHome, 'config.toml'), toml);
  if (o.hooks !== false) {
    const hooks: Record<string, unknown> = {};
    for (const ev of CODEX_HOOK_EVENTS) {
      // Path-independent command (paths come from env), so that its trust hash is the same in every run.
      hooks[ev] = [
        {
          hooks: [
            {
              type: 'command',
              command: `node "$AGENTLENS_HOOK_LOGGER" "$AGENTLENS_HOOK_LOG" ${ev}`,
              timeout: ev === 'SessionEnd' || ev === 'Interrupt' ? 3 : 10,
            },
          ],
        },
      ];
    }
    const hooksJson = path.join(codexHome, 'hooks.json');
    fs.writeFileSync(hooksJson, JSON.stringify({ hooks }, null, 2));
    if (o.bypassHookTrust !== true && o.untrustedHooks !== true) {
      // Pre-trust the hooks exactly as "Trust all and continue" would (hashes depend only on the handler definition).
      const lines = ['[hooks.state]', ''];
      for (const ev of CODEX_HOOK_EVENTS) {
        const snake = ev.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
        lines.push(`[hooks.state."${hooksJson}:${snake}:0:0"]`, `trusted_hash = "sha256:${CODEX_HOOK_TRUST[ev]}"`, '');
      }
      fs.appendFileSync(path.join(codexHome, 'config.toml'), lines.join('\n'));
    }
  }
  // Re-use the daemon copy from an earlier run (hard links; Codex copies it otherwise, ~400 MB).
  const cache = codexPackagesCache();
  if (fs.existsSync(cache)) {
    try {
      execFileSync('cp', ['-al', cache, path.join(codexHome, 'packages')]);
      // `current` is an absolute symlink into the home that made the cache: point it at this home.
      const d = path.join(codexHome, 'packages', 'app-server-daemon');
      const rels = fs.readdirSync(path.join(d, 'releases')).filter((x) => x.startsWith(AGENT_VERSIONS.codex));
      if (rels[0]) {
        fs.rmSync(path.join(d, 'current'), { force: true });
        fs.symlinkSync(path.join(d, 'releases', rels[0]), path.join(d, 'current'));
      }
    } catch {
      /* ignore */
    }
  }
  const args = [...(o.args ?? [])];
  if (o.hooks !== false && o.bypassHookTrust === true) args.unshift('--dangerously-bypass-hook-trust');
  if (o.daemon === false) args.unshift('--no-daemon');
  const env: Record<string, string> = {
    ...baseEnv(o, r.home, r.runId),
    CODEX_HOME: codexHome,
    // With TMPDIR=/tmp and CODEX_HOME under /tmp, Codex prints "WARNING: proceeding, even though we could
    // not create PATH aliases: Refusing to create helper binaries under temporary dir" before its TUI.
    TMPDIR: path.join(r.runDir, 'tmp'),
    AGENTLENS_MOCK_API_KEY: apiKey,
    AGENTLENS_HOOK_LOGGER: r.logger,
    AGENTLENS_HOOK_LOG: r.hooksLog,
    ...(o.env ?? {}),
  };
  return { ...homeResult('codex', o, r, env, apiKey, args), codexHome };
}

// ---------------------------------------------------------------- OpenCode

const OPENCODE_PLUGIN = (
  logFile: string,
): string => `// Agent Lens harness: logs every bus event delivered to plugins as JSONL. Prints nothing.
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

export function prepareOpencodeHome(o: HomeOptions): AgentHome {
  const r = makeRun('opencode', o, true);
  const cfgDir = path.join(r.home, '.config', 'opencode');
  fs.mkdirSync(cfgDir, { recursive: true });
  const apiKey = 'dummy-not-a-key';
  const config = {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    model: 'mock/mock-model',
    small_model: 'mock/mock-model',
    enabled_providers: ['mock'],
    provider: {
      mock: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Mock',
        options: { baseURL: `${o.baseUrl.replace(/\/$/, '')}/v1`, apiKey },
        models: { 'mock-model': { name: 'Mock Model', tool_call: true, limit: { context: 128000, output: 4096 } } },
      },
    },
    permission: { bash: 'ask' },
  };
  fs.writeFileSync(path.join(cfgDir, 'opencode.json'), JSON.stringify(config, null, 2));
  if (o.hooks !== false) {
    const pdir = path.join(cfgDir, 'plugin');
    fs.mkdirSync(pdir, { recursive: true });
    fs.writeFileSync(path.join(pdir, 'agentlens-event-logger.js'), OPENCODE_PLUGIN(r.hooksLog));
  }
  // OpenCode npm-installs @opencode-ai/plugin into each config dir at every start (not switchable off).
  // Point its npm client at the loopback mock (answers 404) so that nothing leaves the machine.
  const registry = `${o.baseUrl.replace(/\/$/, '')}/npm-registry/`;
  fs.writeFileSync(path.join(r.home, '.npmrc'), `registry=${registry}\n`);
  const env: Record<string, string> = {
    ...baseEnv(o, r.home, r.runId),
    npm_config_registry: registry,
    NPM_CONFIG_REGISTRY: registry,
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    ...(o.env ?? {}),
  };
  return homeResult('opencode', o, r, env, apiKey);
}

export function prepareHome(agent: AgentName, o: HomeOptions & ClaudeHomeOptions & CodexHomeOptions): AgentHome {
  switch (agent) {
    case 'claude-code':
      return prepareClaudeHome(o);
    case 'codex':
      return prepareCodexHome(o);
    case 'opencode':
      return prepareOpencodeHome(o);
    case 'gemini':
      return prepareGeminiHome(o);
    case 'pi':
      return preparePiHome(o);
    case 'qwen':
      return prepareQwenHome(o);
    case 'continue-cli':
      return prepareContinueHome(o);
    case 'copilot':
      return prepareCopilotHome(o);
    case 'kilocode':
      return prepareKiloHome(o);
    case 'droid':
      return prepareDroidHome(o);
  }
}
