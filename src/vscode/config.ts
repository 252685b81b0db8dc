import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { AGENT_IDS, type AgentKind } from '../detect/types';

/** Mirrors `contributes.configuration` in package.json. */
export interface AgentLensConfig {
  agents: Record<AgentKind, boolean>;
  notificationsEnabled: boolean;
  notificationDelaySeconds: number;
  processScanIntervalSeconds: number;
  sessionLogsEnabled: boolean;
  /** Extra Claude Code config folders and Codex homes to watch, besides the defaults. */
  claudeConfigDirs: string[];
  codexHomes: string[];
  opencodeDatabases: string[];
}

const DEFAULT_AGENTS: Record<AgentKind, boolean> = Object.fromEntries(AGENT_IDS.filter((a) => a !== 'shell').map((a) => [a, true])) as Record<AgentKind, boolean>;

export function readConfig(): AgentLensConfig {
  const c = vscode.workspace.getConfiguration('agentLens');
  const agents = { ...DEFAULT_AGENTS, ...(c.get<Partial<Record<AgentKind, boolean>>>('agents') ?? {}) };
  const num = (key: string, def: number, min: number, max: number) => {
    const v = c.get<number>(key);
    return typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : def;
  };
  return {
    agents,
    notificationsEnabled: c.get<boolean>('notifications.enabled') ?? true,
    notificationDelaySeconds: num('notifications.delaySeconds', 15, 0, 3600),
    processScanIntervalSeconds: num('processScan.intervalSeconds', 2, 0, 60),
    sessionLogsEnabled: c.get<boolean>('sessionLogs.enabled') ?? true,
    claudeConfigDirs: paths(c.get('sessionLogs.claudeConfigDirs')),
    codexHomes: paths(c.get('sessionLogs.codexHomes')),
    opencodeDatabases: paths(c.get('sessionLogs.opencodeDatabases')),
  };
}

/** A setting that should hold absolute paths: anything else is ignored, `~` means the home folder. */
function paths(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  return v
    .filter((x): x is string => typeof x === 'string' && x.trim() !== '')
    .map((x) => x.trim().replace(/^~(?=\/|$)/, os.homedir()))
    .filter((x) => path.isAbsolute(x));
}
