import type { AgentDescriptor } from './descriptor';
import { UNVERIFIED } from './descriptor';

const HOOKS: Record<NonNullable<AgentDescriptor['hooks']>, string> = { settings: 'hooks in its settings file', plugin: 'a plugin' };
const LOGS: Record<NonNullable<AgentDescriptor['logs']>['format'], string> = {
  jsonl: 'JSON lines per session',
  sqlite: 'its SQLite database',
};

/** The README's table of agents, one row per descriptor, in the registry's order. */
export function agentTable(agents: readonly AgentDescriptor[]): string {
  const rows = agents.map((a) => {
    // seenIn may go on to say what was seen ("0.61.0 (idle, answer, …)"): the table shows the version.
    const version = a.screen.seenIn === UNVERIFIED ? '—' : a.screen.seenIn.split(' ')[0];
    return `| ${a.screen.displayName} | ${a.doc.identifiedBy} | ${a.doc.verified} | ${a.hooks ? HOOKS[a.hooks] : '—'} | ${a.logs ? LOGS[a.logs.format] : '—'} | ${version} |`;
  });
  return [
    '| agent | identified by | states verified against the real CLI | tells Agent Lens through | session logs read | CLI version |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}
