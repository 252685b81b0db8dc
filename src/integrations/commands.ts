import * as os from 'os';
import * as path from 'path';
import type { ReportingAgent } from '../hooks/report';
import { shellWord } from '../common/shellQuote';

/**
 * Where Agent Lens keeps what outlives one extension version: the reporter (copied here on activation, so hook
 * commands written into agents' settings survive updates), the hub discovery files and the wait markers.
 * `AGENT_LENS_HOME` moves it (tests, portable setups).
 */
export function agentLensHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.AGENT_LENS_HOME || path.join(os.homedir(), '.agent-lens');
}

/** The stable reporter command (a small sh script that starts the bundled reporter with a known Node). */
export function reporterCommandPath(home: string): string {
  return path.join(home, 'bin', 'agent-lens-report');
}

/**
 * The reporter command's file name, in every hook command and plugin banner Agent Lens writes. Mentioning it
 * does not make a hook ours: the installers match whole commands (src/integrations/install/ownEntries.ts).
 */
export const OUR_COMMAND_MARK = 'agent-lens-report';

/**
 * The answering hook's file name (Claude Code's `PermissionRequest`): it reports as the reporter does, then may
 * hold the dialog for an answer from VS Code and print the decision (src/integrations/reporter/permission.ts).
 */
export const PERMISSION_COMMAND_NAME = 'agent-lens-permission';

/** The programs Agent Lens's hook commands run, by file name. */
export const OUR_PROGRAM_NAMES: readonly string[] = [OUR_COMMAND_MARK, PERMISSION_COMMAND_NAME];

/** The stable answering hook command, beside the reporter. */
export function permissionCommandPath(home: string): string {
  return path.join(home, 'bin', PERMISSION_COMMAND_NAME);
}

/**
 * The wait markers live beside the discovery file the terminal's `AGENT_LENS_HUB` names: `waiting/<agent pid>`
 * exists while that agent process has an open wait the reporter reported.
 */
export function markerDir(discoveryFile: string): string {
  return path.join(path.dirname(discoveryFile), 'waiting');
}

/**
 * The command a hook runs. A gated one is for events that fire on every tool call and only ever close a wait
 * (PostToolUse): with no wait open for this agent process it costs one `test -e` and drains stdin so the CLI
 * never meets a broken pipe; it always exits 0. `$PPID` is the agent process that ran the hook's shell.
 * The installers know Agent Lens's entries by these exact frames: a new frame goes into FRAMES in
 * src/integrations/install/ownEntries.ts beside the old ones.
 */
export function hookCommand(reporter: string, agent: ReportingAgent, gated: boolean): string {
  const run = `${shellWord(reporter)} ${agent}`;
  // exec: the reporter's parent is then the agent itself, which names its wait marker.
  if (!gated) return `exec ${run}`;
  return `if [ -e "\${AGENT_LENS_HUB%/*}/waiting/$PPID" ]; then exec ${run}; else cat >/dev/null; fi; exit 0`;
}
