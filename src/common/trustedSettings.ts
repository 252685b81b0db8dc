/**
 * Which Agent Lens settings a workspace may choose, and the value a setting has once an untrusted workspace's
 * own choices are left out. Pure: src/vscode/config.ts hands in what `WorkspaceConfiguration.inspect()` reports
 * and `workspace.isTrusted`.
 *
 * A repository's `.vscode/settings.json` applies as soon as the folder is opened, trusted or not. Settings that
 * point Agent Lens at files on this machine, or switch off what tells the user an agent needs them, must not
 * come from a repository the user has not trusted: the log readers would parse transcripts the repository ships
 * (their "completed" closes waits and fires routes), and detection or notifications could be turned off.
 * package.json declares the same thing to VS Code (`scope`, `restrictedConfigurations`; a unit test keeps the
 * two equal); this does not rely on VS Code alone honouring it.
 */

/**
 * `application`: from the user's own settings only, as VS Code's `application` scope does (what lets VS Code
 * answer an agent's dialog: no workspace or remote may turn it on). `machine`: paths on this machine, from user
 * (or remote) settings only, trusted or not, as VS Code's `machine` scope does. `trusted`: a workspace's value counts once the workspace is trusted. `workspace`: any
 * workspace may set it (nothing is, today).
 */
export type SettingPolicy = 'application' | 'machine' | 'trusted' | 'workspace';

export const SETTING_POLICY = {
  // Switching an agent off means no detection and so no Needs-you for it.
  'agentLens.agents': 'trusted',
  'agentLens.notifications.enabled': 'trusted',
  // Up to an hour: as good as off.
  'agentLens.notifications.delaySeconds': 'trusted',
  // Programs run on this machine to show it.
  'agentLens.notifications.desktop': 'trusted',
  'agentLens.notifications.desktopSound': 'trusted',
  'agentLens.notifications.turnEnded': 'trusted',
  'agentLens.notifications.turnSeconds': 'trusted',
  // A repository could otherwise silence the desktop around the clock.
  'agentLens.notifications.quietHours': 'trusted',
  // 0 turns the scan off; terminals whose output is not read then show no agent.
  'agentLens.processScan.intervalSeconds': 'trusted',
  'agentLens.sessionLogs.enabled': 'trusted',
  'agentLens.sessionLogs.claudeConfigDirs': 'machine',
  'agentLens.sessionLogs.codexHomes': 'machine',
  'agentLens.sessionLogs.opencodeDatabases': 'machine',
  'agentLens.sessionLogs.geminiDirs': 'machine',
  'agentLens.sessionLogs.copilotDirs': 'machine',
  'agentLens.sessionLogs.qwenDirs': 'machine',
  'agentLens.sessionLogs.kiloDatabases': 'machine',
  'agentLens.sessionLogs.droidDirs': 'machine',
  'agentLens.sessionLogs.continueDirs': 'machine',
  // The registry's launch lines and steps decide what is typed where; the root is where boards are written.
  'agentLens.handoff.teamFile': 'trusted',
  'agentLens.handoff.root': 'trusted',
  // A repository could raise the warning marks out of reach, or make a session look cheap.
  'agentLens.usage.showContextFromPercent': 'trusted',
  'agentLens.usage.warnContextPercent': 'trusted',
  'agentLens.usage.costBudget': 'trusted',
  'agentLens.usage.tokenBudget': 'trusted',
  'agentLens.usage.prices': 'trusted',
  // What lets a click in VS Code allow an agent's tool call.
  'agentLens.answer.fromVSCode': 'application',
} as const satisfies Record<string, SettingPolicy>;

export type SettingKey = keyof typeof SETTING_POLICY;

/** One setting's value per layer, as `WorkspaceConfiguration.inspect()` reports them (language layers aside). */
export interface SettingLayers {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A later layer wins; objects are merged key by key, as VS Code merges them (Agent Lens's one object setting is flat). */
function over(below: unknown, above: unknown): unknown {
  if (above === undefined) return below;
  // fromEntries defines keys, so a "__proto__" key in a settings file stays a plain key.
  return isRecord(below) && isRecord(above) ? Object.fromEntries([...Object.entries(below), ...Object.entries(above)]) : above;
}

/** Whether a workspace's own values (workspace and folder settings) count for a setting of `policy`. */
export function workspaceMayChoose(policy: SettingPolicy, trusted: boolean): boolean {
  return policy === 'workspace' || (policy === 'trusted' && trusted);
}

/** The value to use: default, then user settings, then (when the workspace may choose) workspace and folder settings. */
export function settingValue(policy: SettingPolicy, layers: SettingLayers | undefined, trusted: boolean): unknown {
  if (!layers) return undefined;
  const user = over(layers.defaultValue, layers.globalValue);
  return workspaceMayChoose(policy, trusted) ? over(over(user, layers.workspaceValue), layers.workspaceFolderValue) : user;
}
