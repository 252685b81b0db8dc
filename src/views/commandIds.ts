/**
 * Every command Agent Lens registers, by one name each. package.json's `contributes.commands` lists the same
 * ids (test/unit/views/commandIds.test.ts checks both ways); `openRow` and `openDetailsRow` are internal: a row's
 * click in the Agents or the Session Details view, never in a menu.
 */
export const COMMAND_IDS = {
  focusTerminal: 'agentLens.focusTerminal',
  showHistory: 'agentLens.showHistory',
  recordTerminal: 'agentLens.recordTerminal',
  replayRecording: 'agentLens.replayRecording',
  showTerminal: 'agentLens.showTerminal',
  answerWait: 'agentLens.answerWait',
  answerInTerminal: 'agentLens.answerInTerminal',
  allowOnce: 'agentLens.allowOnce',
  denyPermission: 'agentLens.denyPermission',
  chooseAnswer: 'agentLens.chooseAnswer',
  installHooks: 'agentLens.installHooks',
  uninstallHooks: 'agentLens.uninstallHooks',
  configureNotifications: 'agentLens.configureNotifications',
  dispatchBrief: 'agentLens.dispatchBrief',
  showHandoffStatus: 'agentLens.showHandoffStatus',
  cancelTask: 'agentLens.cancelTask',
  registerAgent: 'agentLens.registerAgent',
  initHandoff: 'agentLens.initHandoff',
  openReport: 'agentLens.openReport',
  firstHandshake: 'agentLens.firstHandshake',
  openTeamFile: 'agentLens.openTeamFile',
  addRoute: 'agentLens.addRoute',
  removeRoute: 'agentLens.removeRoute',
  openRow: 'agentLens.openRow',
  openDetailsRow: 'agentLens.openDetailsRow',
} as const;

export type CommandName = keyof typeof COMMAND_IDS;
export type CommandId = (typeof COMMAND_IDS)[CommandName];

/** Registered but in no menu or palette: run by a row's click. */
export const INTERNAL_COMMANDS: readonly CommandId[] = [COMMAND_IDS.openRow, COMMAND_IDS.openDetailsRow];
