import * as os from 'os';
import * as path from 'path';
import type { ReportingAgent } from '../hooks/report';
import { shellWord } from '../common/shellQuote';
import { hostPlatform } from '../common/platform';
import type { HookShell } from './hookShells';
import { type NodeLaunch, windowsHookLine } from './windowsHookLines';

/**
 * Where Agent Lens keeps what outlives one extension version: the reporter (copied here on activation, so hook
 * commands written into agents' settings survive updates), the hub discovery files and the wait markers.
 * `AGENT_LENS_HOME` moves it (tests, portable setups).
 */
export function agentLensHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.AGENT_LENS_HOME || path.join(os.homedir(), '.agent-lens');
}

/**
 * The stable reporter command: a small sh script that starts the bundled reporter with a known Node; on Windows,
 * where hook lines start Node themselves (./windowsHookLines.ts), the script itself.
 */
export function reporterCommandPath(home: string, platform: NodeJS.Platform = hostPlatform()): string {
  return platform === 'win32' ? path.win32.join(home, 'bin', REPORT_SCRIPT) : path.join(home, 'bin', 'agent-lens-report');
}

/** The reporter and answering hook scripts in `<home>/bin` (what the sh wrappers start; what Windows lines name). */
export const REPORT_SCRIPT = 'report.cjs';
export const PERMISSION_SCRIPT = 'permission.cjs';
export const OUR_SCRIPT_NAMES: readonly string[] = [REPORT_SCRIPT, PERMISSION_SCRIPT];

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

/** The stable answering hook command, beside the reporter (on Windows its script, as reporterCommandPath). */
export function permissionCommandPath(home: string, platform: NodeJS.Platform = hostPlatform()): string {
  return platform === 'win32' ? path.win32.join(home, 'bin', PERMISSION_SCRIPT) : path.join(home, 'bin', PERMISSION_COMMAND_NAME);
}

// The wait markers' names are shared with the hub's sources: defined in the hook layer, re-exported for the reporter.
export { markerDir, markerName, SESSION_MARKER_PREFIX } from '../hooks/markers';

/**
 * The command a hook runs in a POSIX shell (macOS, Linux: every agent's hook shell there). A gated one is for events that fire on every tool call and only ever close a wait
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

/** Node as Agent Lens found it for the hooks (src/vscode/hub.ts nodeForHooks): on Windows it is in every line. */
export interface NodeRuntime {
  path: string;
  electron: boolean;
}

/**
 * The command of a hook in `shell`'s syntax (./hookShells.ts says which shell each agent uses): POSIX lines start
 * `reporter`, the sh wrapper; Windows lines start `node` on `reporter`, the script (./windowsHookLines.ts).
 */
export function hookCommandIn(shell: HookShell, reporter: string, agent: ReportingAgent, gated: boolean, node?: NodeRuntime): string {
  if (shell === 'posix') return hookCommand(reporter, agent, gated);
  const launch: NodeLaunch = { node: node?.path ?? 'node', electron: node?.electron ?? false, script: reporter };
  return windowsHookLine(shell, launch, agent, gated);
}
