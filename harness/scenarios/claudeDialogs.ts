/**
 * Claude Code scenarios that wait on the user in the middle of a turn: the Bash permission dialog (approved, denied)
 * and AskUserQuestion (answered, dismissed). Listed in claude-code.ts between 03 and 07.
 */
import { type Scenario, atMark, enter, key, screen, submit, wait, waitText } from '../scenario';
import { ASK_FRAMEWORK, BASH_RM, CLAUDE, completed, ready, startup, working } from './claudeCues';

const A = 'claude-code' as const;

export const claudeDialogScenarios: Scenario[] = [
  {
    id: '04-bash-permission-approve',
    agent: A,
    description: 'Bash tool_use `rm -rf build`; the permission dialog is held ~20 s, then approved with Enter (1. Yes); Claude answers.',
    mock: {
      title: 'Clean build output',
      turns: [
        { type: 'tool', name: 'Bash', text: "I'll remove the build directory.", input: BASH_RM },
        { type: 'text', text: 'Done: the build/ directory has been removed.\n', chunks: 'lines' },
      ],
    },
    steps: [
      ready,
      wait(1500),
      ...submit('clean the build output'),
      waitText(CLAUDE.permission, 30_000, 'dialog visible'),
      wait(20_000),
      enter('approve'),
      waitText(CLAUDE.completed, 30_000, 'turn finished'),
      wait(5000),
    ],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      { state: 'waiting', from: screen(CLAUDE.permission), cue: 'permission dialog "Do you want to proceed?"' },
      { state: 'working', from: atMark('approve'), cue: 'dialog closed, command runs' },
      completed(),
    ],
  },
  {
    id: '05-bash-permission-deny',
    agent: A,
    description: 'Like 04, but after ~20 s the dialog is answered with "4. No" (Esc behaves the same): the turn stops.',
    mock: {
      title: 'Clean build output',
      turns: [{ type: 'tool', name: 'Bash', text: "I'll remove the build directory.", input: BASH_RM }],
    },
    steps: [
      ready,
      wait(1500),
      ...submit('clean the build output'),
      waitText(CLAUDE.permission, 30_000, 'dialog visible'),
      wait(20_000),
      key('down', 'select No', 3),
      wait(400),
      enter('deny'),
      waitText(CLAUDE.stopped, 15_000, 'stopped visible'),
      wait(5000),
    ],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      { state: 'waiting', from: screen(CLAUDE.permission), cue: 'permission dialog "Do you want to proceed?"' },
      { state: 'stopped', from: atMark('deny'), cue: '"Interrupted · What should Claude do instead?"', accept: ['idle'] },
    ],
  },
  {
    id: '06-ask-user-question',
    agent: A,
    description: 'AskUserQuestion with 3 options; after ~10 s the 2nd option is chosen; Claude answers.',
    mock: {
      title: 'Pick test framework',
      turns: [
        {
          type: 'tool',
          name: 'AskUserQuestion',
          input: ASK_FRAMEWORK,
        },
        { type: 'text', text: 'Jest it is. I will add a jest config and a first test.\n', chunks: 'lines' },
      ],
    },
    steps: [
      ready,
      wait(1500),
      ...submit('set up unit tests'),
      waitText(CLAUDE.question, 30_000, 'question visible'),
      wait(10_000),
      key('down'),
      wait(300),
      enter('answer'),
      waitText(CLAUDE.completed, 30_000, 'turn finished'),
      wait(5000),
    ],
    tailMs: 0,
    expect: [
      ...startup(),
      working(),
      { state: 'waiting', from: screen(CLAUDE.question), cue: 'AskUserQuestion dialog' },
      { state: 'working', from: atMark('answer'), cue: 'answer submitted' },
      completed(),
    ],
  },
  {
    id: '06b-ask-user-question-dismiss',
    agent: A,
    description: 'AskUserQuestion dismissed with Esc after ~10 s: the turn stops.',
    mock: {
      title: 'Pick test framework',
      turns: [
        {
          type: 'tool',
          name: 'AskUserQuestion',
          input: {
            questions: [
              {
                question: 'Which test framework should I set up for demo-app?',
                header: 'Tests',
                multiSelect: false,
                options: [
                  { label: 'Vitest (Recommended)', description: 'Fast, Vite-native, Jest-compatible API' },
                  { label: 'Jest', description: 'The most widely used JavaScript test runner' },
                ],
              },
            ],
          },
        },
      ],
    },
    steps: [
      ready,
      wait(1500),
      ...submit('set up unit tests'),
      waitText(CLAUDE.question, 30_000, 'question visible'),
      wait(10_000),
      key('esc', 'dismiss'),
      waitText(CLAUDE.declined, 15_000, 'stopped visible'),
      wait(5000),
    ],
    tailMs: 0,
    notes: [
      'Esc on AskUserQuestion shows "● Declined to answer Claude\'s questions:" (no "Interrupted" line); no hook fires, no further API request.',
    ],
    expect: [
      ...startup(),
      working(),
      { state: 'waiting', from: screen(CLAUDE.question), cue: 'AskUserQuestion dialog' },
      { state: 'stopped', from: atMark('dismiss'), cue: '"● Declined to answer Claude\'s questions:"', accept: ['idle'] },
    ],
  },
];
