/**
 * The writers and inputs of the crash runs (soak/crash.ts), shared by the writer process that gets killed and
 * the checker that looks at what it left: every input is deterministic, so the checker can rebuild each
 * version a writer may have written and compare bytes.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Boards } from '../src/handoff/boards';
import { renderBrief } from '../src/handoff/brief';
import { Dispatcher, type HubFacts } from '../src/handoff/dispatch';
import { HandoffPaths } from '../src/handoff/paths';
import { parseTeam } from '../src/handoff/team/registry';
import type { TeamAgent } from '../src/handoff/team/schema';
import { hookEntries } from '../src/integrations/install/hookTable';

export const KINDS = ['boards', 'team', 'settings'] as const;
export type CrashKind = (typeof KINDS)[number];

export const TEAM_TEXT = `# The user's own team file: comments, another agent and its order must survive every write.
[reviewer]
mode = "embedded"
process = "reviewer"
description = "reads every diff"   # the user's note

[worker]
mode = "embedded"
process = "worker"
description = "version 0"
`;

/** A user's Claude Code settings with their own hooks, permissions and formatting. */
export const SETTINGS_TEXT = `{
  "model": "opus",
  "permissions": { "allow": ["Bash(npm test)"], "deny": [] },
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "/home/me/bin/audit-bash" }] }
    ]
  },
  "statusLine": { "type": "command", "command": "~/.claude/statusline.sh" }
}
`;

export const FACTS: HubFacts = {
  port: 4321,
  hubEnv: 'AGENT_LENS_HUB',
  hubFile: '/run/agent-lens/hub.json',
  cli: '/opt/agent-lens/bin/agent-lens',
};

export function teamAgent(key: string, text = TEAM_TEXT): TeamAgent {
  const a = parseTeam(text, 'team.toml').agents.find((x) => x.key === key);
  if (!a) throw new Error(`no [${key}] in the crash fixture`);
  return a;
}

export function taskText(n: number): string {
  return `Task ${n}: ${'make the build green and say how you checked it. '.repeat(40)}`;
}

export function taskId(n: number): string {
  return `t${n}`;
}

/** The bytes dispatch writes for task `n`: what a brief on disk must equal, whole. */
export function expectedBrief(root: string, n: number): string {
  const paths = new HandoffPaths(root);
  const id = taskId(n);
  const briefPath = paths.brief('worker', id);
  return renderBrief(
    { agent: 'worker', taskId: id, task: taskText(n), workspace: root },
    { ...FACTS, agent: 'worker', taskId: id, briefPath, reportPath: paths.report('worker', id) },
  );
}

export function dispatcherFor(root: string): { boards: Boards; dispatcher: Dispatcher; paths: HandoffPaths } {
  const paths = new HandoffPaths(root);
  const boards = new Boards(paths);
  const worker = teamAgent('worker');
  const dispatcher = new Dispatcher({
    agent: (k) => (k === 'worker' ? worker : undefined),
    boards,
    paths,
    facts: () => FACTS,
    finder: {
      find: async () => ({ pid: 1, title: 'worker', id: 'term-1', activate: async () => undefined, write: async () => undefined }),
    },
    sleep: async () => undefined,
    workspace: root,
  });
  return { boards, dispatcher, paths };
}

/** The Claude Code hook entries, for an Agent Lens home inside the run's folder. */
export function claudeEntries(dir: string): ReturnType<typeof hookEntries> {
  return hookEntries('claude-code', path.join(dir, 'home', 'bin', 'agent-lens-report'));
}

export function settingsEnv(dir: string): NodeJS.ProcessEnv {
  return { ...process.env, AGENT_LENS_HOME: path.join(dir, 'home') };
}

export function settingsFile(dir: string): string {
  return path.join(dir, 'claude', 'settings.json');
}

export function teamFile(dir: string): string {
  return path.join(dir, 'team.toml');
}

/** The files a run starts from. */
export function seed(kind: CrashKind, dir: string): void {
  if (kind === 'team') fs.writeFileSync(teamFile(dir), TEAM_TEXT);
  if (kind === 'settings') {
    fs.mkdirSync(path.dirname(settingsFile(dir)), { recursive: true });
    fs.writeFileSync(settingsFile(dir), SETTINGS_TEXT);
  }
}
