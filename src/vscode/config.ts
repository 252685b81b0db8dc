import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { SETTING_POLICY, type SettingKey, settingValue } from '../common/trustedSettings';
import { AGENT_KINDS, type AgentKind } from '../common/agents';
import { AGENTS } from '../agents/registry';
import type { LogLocations } from '../sources/logs/logSources';
import type { UsageThresholds } from '../views/usageText';
import { DESKTOP_MODES, type DesktopMode, TURN_ENDS, type TurnEnds } from '../notify/channelPicks';

/** Mirrors `contributes.configuration` in package.json. */
export interface AgentLensConfig {
  agents: Record<AgentKind, boolean>;
  notificationsEnabled: boolean;
  notificationDelaySeconds: number;
  /** The operating system's notification too, when the window is not focused (see desktopWanted). */
  desktopNotifications: DesktopMode;
  desktopSound: boolean;
  /** Which long turns' ends the window and the desktop tell of, after how many seconds of work, and when the desktop is quiet. */
  turnEnded: TurnEnds;
  turnSeconds: number;
  quietHours: string;
  /** Permission dialogs answered from VS Code through the agent's own hook (the user's settings only). */
  answerFromVSCode: boolean;
  processScanIntervalSeconds: number;
  sessionLogsEnabled: boolean;
  /** Per agent, more session-log locations to watch besides the default (each agent's `logs.setting`). */
  sessionLogPaths: LogLocations;
  /** Where handoff boards live and where team.toml is (empty: the default under the workspace's .agent-lens). */
  handoffRoot: PathSetting;
  handoffTeamFile: PathSetting;
  /** When a row shows its context fill and warns, the budgets, and the user's prices (parsed by src/usage/overrides.ts). */
  usage: UsageThresholds;
  usagePrices: unknown;
}

/** A path setting and the settings layer that gave it: a workspace's choice is held to that workspace's folder. */
export interface PathSetting {
  value: string;
  from: 'user' | 'workspace' | 'default';
}

const DEFAULT_AGENTS: Record<AgentKind, boolean> = Object.fromEntries(AGENT_KINDS.map((a) => [a, true])) as Record<AgentKind, boolean>;

/**
 * One setting, with an untrusted workspace's own values left out where src/common/trustedSettings.ts says so. Read
 * from the layers rather than with `get()`, so a workspace's value never counts just because VS Code applied it.
 */
export function readSetting(key: SettingKey, trusted = vscode.workspace.isTrusted): unknown {
  return settingValue(SETTING_POLICY[key], vscode.workspace.getConfiguration().inspect(key), trusted);
}

export function readConfig(): AgentLensConfig {
  const trusted = vscode.workspace.isTrusted;
  const get = (key: SettingKey) => readSetting(key, trusted);
  const num = (key: SettingKey, def: number, min: number, max: number) => {
    const v = get(key);
    return typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : def;
  };
  const bool = (key: SettingKey, def: boolean) => {
    const v = get(key);
    return typeof v === 'boolean' ? v : def;
  };
  return {
    agents: agentSwitches(get('agentLens.agents')),
    notificationsEnabled: bool('agentLens.notifications.enabled', true),
    notificationDelaySeconds: num('agentLens.notifications.delaySeconds', 15, 0, 3600),
    desktopNotifications: oneOf(get('agentLens.notifications.desktop'), DESKTOP_MODES, 'auto'),
    desktopSound: bool('agentLens.notifications.desktopSound', false),
    turnEnded: oneOf(get('agentLens.notifications.turnEnded'), TURN_ENDS, 'off'),
    turnSeconds: num('agentLens.notifications.turnSeconds', 60, 0, 86_400),
    quietHours: (() => {
      const v = get('agentLens.notifications.quietHours');
      return typeof v === 'string' ? v : '';
    })(),
    answerFromVSCode: bool('agentLens.answer.fromVSCode', false),
    processScanIntervalSeconds: num('agentLens.processScan.intervalSeconds', 2, 0, 60),
    sessionLogsEnabled: bool('agentLens.sessionLogs.enabled', true),
    sessionLogPaths: Object.fromEntries(AGENTS.flatMap((a) => (a.logs ? [[a.id, paths(get(a.logs.setting))]] : []))),
    handoffRoot: pathSetting('agentLens.handoff.root', trusted),
    handoffTeamFile: pathSetting('agentLens.handoff.teamFile', trusted),
    usage: {
      showFrom: num('agentLens.usage.showContextFromPercent', 70, 0, 100) / 100,
      warnFrom: num('agentLens.usage.warnContextPercent', 90, 1, 100) / 100,
      costBudget: num('agentLens.usage.costBudget', 0, 0, 1e9),
      tokenBudget: num('agentLens.usage.tokenBudget', 0, 0, 1e12),
    },
    usagePrices: get('agentLens.usage.prices'),
  };
}

/** A path setting's value and where it came from; in Restricted Mode only the user's own value counts. */
function pathSetting(key: SettingKey, trusted: boolean): PathSetting {
  const v = readSetting(key, trusted);
  const value = typeof v === 'string' ? v.trim() : '';
  if (!value) return { value, from: 'default' };
  const i = vscode.workspace.getConfiguration().inspect<string>(key);
  const fromWorkspace = trusted && (i?.workspaceFolderValue !== undefined || i?.workspaceValue !== undefined);
  return { value, from: fromWorkspace ? 'workspace' : 'user' };
}

/** The agents the configuration switches off. */
export function switchedOff(config: AgentLensConfig): AgentKind[] {
  return (Object.keys(config.agents) as AgentKind[]).filter((a) => !config.agents[a]);
}

/** Every agent on unless the setting switches it off with a boolean. */
function agentSwitches(v: unknown): Record<AgentKind, boolean> {
  const out = { ...DEFAULT_AGENTS };
  if (typeof v !== 'object' || v === null) return out;
  for (const [k, on] of Object.entries(v))
    if (Object.prototype.hasOwnProperty.call(DEFAULT_AGENTS, k) && typeof on === 'boolean') out[k as AgentKind] = on;
  return out;
}

/** A setting that should hold absolute paths: anything else is ignored, `~` means the home folder. */
function paths(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  return v
    .filter((x): x is string => typeof x === 'string' && x.trim() !== '')
    .map((x) => x.trim().replace(/^~(?=\/|$)/, os.homedir()))
    .filter((x) => path.isAbsolute(x));
}

function oneOf<T extends string>(v: unknown, values: readonly T[], def: T): T {
  return values.includes(v as T) ? (v as T) : def;
}
