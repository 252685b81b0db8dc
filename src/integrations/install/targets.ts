import * as os from 'os';
import * as path from 'path';
import type { HookStatus } from './status';
import {
  CODEX_SYSTEM_HOOKS_FILE,
  codexSystemNote,
  codexUserNote,
  codexUserHooksFile,
  droidNote,
  hermesPlugin,
  hermesPluginTarget,
  installPlugin,
  opencodePlugin,
  opencodePluginFile,
  type Plugin,
  pluginState,
  systemWritable,
  uninstallPlugin,
} from './agents';
import { HOOK_TABLES, hookEntries, type JsonHookAgent } from './hookTable';
import { InstallError } from './jsonHooks';
import { fileState, installInto, uninstallFrom } from './settingsFile';
import type { AgentKind } from '../../common/agents';
import type { NodeRuntime } from '../commands';
import { configDirOf } from '../../agents/registry';
import type { OpenCodeFamily } from '../../agents/opencode/family';

/** What the installers need to know about this machine and this extension. */
export interface InstallContext {
  env: NodeJS.ProcessEnv;
  home: string;
  /** The stable reporter command (src/integrations/reporter/reporterFiles.ts). */
  reporter: string;
  /** The bundled OpenCode plugin (OpenCode's and Kilo's) and Hermes plugin files. */
  opencodePluginSource: string;
  hermesSources: readonly string[];
  /** The Node Windows hook lines start (src/vscode/hub.ts nodeForHooks); POSIX lines leave that to the sh wrapper. */
  node?: NodeRuntime;
  /** hostPlatform() unless a test says: which shell's lines the hooks are written in (src/integrations/hookShells.ts). */
  platform?: NodeJS.Platform;
}

/** One place an agent's hooks can live, with what installing, removing and reading it means. */
export interface HookTarget {
  agent: AgentKind;
  scope: 'user' | 'system';
  path: string;
  note?: string;
  status(): HookStatus;
  /** Returns true when anything was written. Throws InstallError with what to do. */
  install(): boolean;
  uninstall(): boolean;
}

/** A target for a file of JSON hooks (Claude Code, Codex, Gemini CLI, Qwen Code, droid; Copilot's is a hooks file of ours). */
function jsonTarget(agent: JsonHookAgent, scope: 'user' | 'system', file: string, ctx: InstallContext, note?: string): HookTarget {
  // Built when used: a home no hook line can name (a cmd.exe line refuses `%`) is that target's error, not the list's.
  const entries = () => hookEntries(agent, ctx.reporter, { platform: ctx.platform, node: ctx.node });
  const at = HOOK_TABLES[agent].file?.eventsAtTop ? 'top' : 'hooks';
  const status = (): HookStatus => {
    try {
      return { agent, scope, path: file, state: fileState(file, entries(), ctx.env, at), ...(note ? { note } : {}) };
    } catch (e) {
      return { agent, scope, path: file, state: 'error', note: (e as Error).message };
    }
  };
  // No reporter (the vscode:uninstall script): the current home's reporter and the install records still say what is ours.
  const commands = (): string[] => {
    try {
      return ctx.reporter ? entries().map((e) => e.command) : [];
    } catch {
      return [];
    }
  };
  return {
    agent,
    scope,
    path: file,
    note,
    status,
    install: () => installInto(file, entries(), { env: ctx.env, at }),
    uninstall: () => uninstallFrom(file, { env: ctx.env, commands: commands(), at }),
  };
}

function pluginTarget(agent: AgentKind, plugin: Plugin, shownPath: string): HookTarget {
  return {
    agent,
    scope: 'user',
    path: shownPath,
    status: () => {
      try {
        return { agent, scope: 'user', path: shownPath, state: pluginState(plugin) };
      } catch (e) {
        return { agent, scope: 'user', path: shownPath, state: 'error', note: (e as Error).message };
      }
    },
    install: () => installPlugin(plugin),
    uninstall: () => uninstallPlugin(plugin),
  };
}

/**
 * Every place Agent Lens can install hooks. `dir` points one agent at another config folder (an agent
 * started with its own CLAUDE_CONFIG_DIR, CODEX_HOME, OpenCode or Kilo config dir).
 */
export function hookTargets(ctx: InstallContext, dirs: Partial<Record<AgentKind, string>> = {}): HookTarget[] {
  const { env, home } = ctx;
  // The file an agent's hooks live in (its table's, else settings.json): in the folder given for it, else in its own.
  const hooksFileOf = (agent: 'claude-code' | 'gemini' | 'qwen' | 'droid' | 'copilot') =>
    path.join(dirs[agent] ?? configDirOf(agent, env, home), HOOK_TABLES[agent].file?.name ?? 'settings.json');
  const codexFile = dirs.codex ? path.join(dirs.codex, 'hooks.json') : codexUserHooksFile(env, home);
  const opencodeEnv = dirs.opencode ? { ...env, OPENCODE_CONFIG_DIR: dirs.opencode } : env;
  const kiloEnv = dirs.kilocode ? { ...env, KILO_CONFIG_DIR: dirs.kilocode } : env;
  // Kilo loads OpenCode's plugin unchanged; inside Kilo it reports as Kilo (src/integrations/plugins/host.ts).
  const busPlugin = (agent: OpenCodeFamily, agentEnv: NodeJS.ProcessEnv) =>
    pluginTarget(agent, opencodePlugin(ctx.opencodePluginSource, agentEnv, home, agent), opencodePluginFile(agentEnv, home, agent));
  const out: HookTarget[] = [
    jsonTarget('claude-code', 'user', hooksFileOf('claude-code'), ctx),
    jsonTarget('codex', 'user', codexFile, ctx, codexUserNote()),
    busPlugin('opencode', opencodeEnv),
    jsonTarget('gemini', 'user', hooksFileOf('gemini'), ctx),
    jsonTarget('qwen', 'user', hooksFileOf('qwen'), ctx),
    busPlugin('kilocode', kiloEnv),
    jsonTarget('droid', 'user', hooksFileOf('droid'), ctx, droidNote()),
    jsonTarget('copilot', 'user', hooksFileOf('copilot'), ctx),
    pluginTarget(
      'hermes',
      hermesPlugin(ctx.hermesSources, dirs.hermes ? { ...env, HERMES_HOME: dirs.hermes } : env, home),
      dirs.hermes ? path.join(dirs.hermes, 'plugins', 'agent-lens') : hermesPluginTarget(env, home),
    ),
  ];
  if (systemWritable(CODEX_SYSTEM_HOOKS_FILE))
    out.splice(2, 0, jsonTarget('codex', 'system', CODEX_SYSTEM_HOOKS_FILE, ctx, codexSystemNote()));
  return out;
}

export { InstallError };

export function defaultInstallContext(
  reporter: string,
  opencodePluginSource: string,
  hermesSources: readonly string[],
  node?: NodeRuntime,
): InstallContext {
  return { env: process.env, home: os.homedir(), reporter, opencodePluginSource, hermesSources, ...(node ? { node } : {}) };
}
