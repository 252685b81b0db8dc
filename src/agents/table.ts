import type { AgentDescriptor } from './descriptor';
import { UNVERIFIED } from './descriptor';

const HOOKS: Record<NonNullable<AgentDescriptor['hooks']>, string> = { settings: 'hooks in its settings file', plugin: 'a plugin' };
const LOGS: Record<NonNullable<AgentDescriptor['logs']>['format'], string> = {
  jsonl: 'JSON lines per session',
  sqlite: 'its SQLite database',
  'json-snapshot': 'one JSON file per session, rewritten whole',
};

/**
 * How a dialog of this agent is answered from VS Code: a hook or plugin held open until the answer comes, the
 * dialog's own keys (typed only when the dialog on screen is about the command its hook reported), or its
 * selector's arrow keys and Enter; `—` where none of these is there, with the reason the agent's folder gives.
 */
function answering(a: AgentDescriptor): string {
  if (a.hookRows?.rows.some((r) => r.program === 'answer')) return 'its permission hook, held';
  if (a.pluginAnswers) return 'its plugin, held';
  if (a.dialogKeys) return 'the dialog’s keys, checked against its hook’s report';
  if (a.menu) return 'the selector’s arrow keys and Enter';
  return a.doc.notAnswered ? `— (${a.doc.notAnswered})` : '—';
}

/** The README's table of agents, one row per descriptor, in the registry's order. */
export function agentTable(agents: readonly AgentDescriptor[]): string {
  const rows = agents.map((a) => {
    // seenIn may go on to say what was seen ("0.61.0 (idle, answer, …)"): the table shows the version.
    const version = a.screen.seenIn === UNVERIFIED ? '—' : a.screen.seenIn.split(' ')[0];
    return `| ${a.screen.displayName} | ${a.doc.identifiedBy} | ${a.doc.verified} | ${a.hooks ? HOOKS[a.hooks] : '—'} | ${a.logs ? LOGS[a.logs.format] : '—'} | ${answering(a)} | ${version} |`;
  });
  return [
    '| agent | identified by | states verified against the real CLI | tells Agent Lens through | session logs read | answered from VS Code | CLI version |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}
