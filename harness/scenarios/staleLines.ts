/**
 * Stale lines (issue 10): only the newest turn's lines may decide. After a reply that ends with a question,
 * `/compact` starts something new; the old question above it must not keep the terminal waiting.
 */
import { type Scenario, atExit, atMark, atStart, quit, screen, submit, wait, waitExit, waitText } from '../scenario';
import { CLAUDE } from './claude-code';

export const staleLineScenarios: Scenario[] = [
  {
    id: '24-compact-after-question',
    agent: 'claude-code',
    description: 'A reply that ends with a question (waiting), then /compact: compaction runs and ends; the old question no longer counts.',
    mock: {
      title: 'Changelog',
      turns: [
        { type: 'text', text: 'I added the entry to CHANGELOG.md.\n\nShall I also update the README?\n', chunks: 'lines' },
        { type: 'text', text: 'Summary: the user asked for a CHANGELOG entry; it was added. An open question about the README remains.\n', chunks: 'lines' },
      ],
    },
    steps: [waitText(CLAUDE.ready, 30_000, 'prompt visible'), wait(1500), ...submit('add a changelog entry'), waitText(CLAUDE.completed, 30_000, 'reply'), wait(8000), ...submit('/compact', 'compact'), waitText(/Compacted/, 60_000, 'compacted'), wait(10_000), quit(), waitExit(15_000, 'exit seen')],
    tailMs: 500,
    expect: [
      { state: 'idle', from: atStart, cue: 'startup' },
      { state: 'working', from: screen(CLAUDE.working), cue: 'first turn' },
      { state: 'waiting', from: screen(CLAUDE.completed), cue: 'reply ends with "Shall I also update the README?"', accept: ['stopped'] },
      { state: 'working', from: atMark('compact'), cue: '/compact runs', accept: ['waiting', 'idle'] },
      { state: 'idle', from: screen(/Compacted/), cue: '"⎿ Compacted": the old question is history', accept: ['stopped', 'completed'] },
      { state: 'exited', from: atExit, cue: 'process exit' },
    ],
  },
];
