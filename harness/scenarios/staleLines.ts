/**
 * Stale lines: only the newest turn's lines may decide. After a reply that ends with a question,
 * `/compact` starts something new; the old question above it must not keep the terminal waiting. A background
 * subagent's "Waiting for 1 background agent to finish" stays on screen above the follow-up turn it triggers;
 * once that turn is done, the terminal is at rest.
 */
import { type Scenario, atExit, atMark, atStart, quit, screen, submit, wait, waitExit, waitText } from '../scenario';
import { CLAUDE } from './claude-code';

const TODO_TASK = 'List the TODO notes in this project';

export const staleLineScenarios: Scenario[] = [
  {
    id: '25-background-subagent',
    agent: 'claude-code',
    description:
      'The model launches a subagent (Agent tool), which runs in the background; the main turn ends, "Waiting for 1 background agent to finish" shows until it is done, then Claude Code starts the follow-up turn by itself.',
    mock: {
      title: 'TODO notes',
      turns: [
        {
          type: 'tool',
          name: 'Agent',
          text: 'I will hand this to an agent.',
          input: { description: 'Find TODO notes', prompt: TODO_TASK, subagent_type: 'general-purpose' },
        },
        { type: 'text', text: 'An agent is looking for TODO notes now.\n', chunks: 'lines' },
        { type: 'text', text: 'The agent found one note: notes.txt says "remember to write tests". Done.\n', chunks: 'lines' },
      ],
      threads: { [TODO_TASK]: [{ type: 'text', text: 'notes.txt: remember to write tests\n', firstDelayMs: 8000, chunks: 'lines' }] },
    },
    steps: [
      waitText(CLAUDE.ready, 30_000, 'prompt visible'),
      wait(1500),
      ...submit('find the TODO notes'),
      waitText(/background agent/, 30_000, 'background'),
      waitText(/remember to write tests". Done\./, 60_000, 'follow-up done'),
      wait(8000),
      quit(),
      waitExit(15_000, 'exit seen'),
    ],
    tailMs: 500,
    expect: [
      { state: 'idle', from: atStart, cue: 'startup' },
      { state: 'working', from: atMark('submit'), cue: 'first turn launches the agent' },
      {
        state: 'working',
        from: screen(/background agent/),
        cue: '"✻ Waiting for 1 background agent to finish"',
        accept: ['completed', 'stopped'],
      },
      {
        state: 'completed',
        from: screen(/remember to write tests". Done\./, 500),
        cue: 'follow-up turn done; the old "Waiting for…" line is history',
        accept: ['idle', 'stopped'],
      },
      { state: 'exited', from: atExit, cue: 'process exit' },
    ],
  },
  {
    id: '24-compact-after-question',
    agent: 'claude-code',
    description: 'A reply that ends with a question (waiting), then /compact: compaction runs and ends; the old question no longer counts.',
    mock: {
      title: 'Changelog',
      turns: [
        { type: 'text', text: 'I added the entry to CHANGELOG.md.\n\nShall I also update the README?\n', chunks: 'lines' },
        {
          type: 'text',
          text: 'Summary: the user asked for a CHANGELOG entry; it was added. An open question about the README remains.\n',
          chunks: 'lines',
        },
      ],
    },
    steps: [
      waitText(CLAUDE.ready, 30_000, 'prompt visible'),
      wait(1500),
      ...submit('add a changelog entry'),
      waitText(CLAUDE.completed, 30_000, 'reply'),
      wait(8000),
      ...submit('/compact', 'compact'),
      waitText(/Compacted/, 60_000, 'compacted'),
      wait(10_000),
      quit(),
      waitExit(15_000, 'exit seen'),
    ],
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
