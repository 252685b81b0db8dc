/**
 * Start-up dialogs no screen rule names: they must read Waiting through the generic dialog shape
 * (a prompt, numbered choices with a selection cursor, a confirm/cancel hint), not Idle.
 */
import { type Scenario, atExit, atStart, gone, enter, key, quit, screen, wait, waitExit, waitText } from '../scenario';

const MOCK = { title: 'Nothing', turns: [{ type: 'text' as const, text: 'ok\n' }] };

export const dialogScenarios: Scenario[] = [
  {
    id: '22-folder-trust',
    agent: 'claude-code',
    description:
      'Start in a folder not trusted yet: "Quick safety check" for ~10 s ("❯ No, exit" is preselected), then down + Enter on "Yes, I trust this folder", idle, /exit.',
    untrusted: true,
    mock: MOCK,
    steps: [
      waitText(/Yes, I trust this folder/, 60_000, 'dialog'),
      wait(10_000),
      key('down', 'pick'),
      wait(300),
      enter('accept'),
      waitText(/⏸ manual mode on/, 30_000, 'ready'),
      wait(8000),
      quit(),
      waitExit(15_000, 'exit seen'),
    ],
    tailMs: 500,
    expect: [
      { state: 'idle', from: atStart, cue: 'startup' },
      {
        state: 'waiting',
        from: screen(/Yes, I trust this folder/),
        cue: '"Quick safety check" / "❯ No, exit" / "Enter to confirm · Esc to cancel" (no rule names it: the generic shape)',
      },
      { state: 'idle', from: gone(/Yes, I trust this folder/), cue: 'dialog gone: trusted, prompt box', accept: ['working'] },
      { state: 'exited', from: atExit, cue: 'process exit' },
    ],
  },
  {
    id: '22-hooks-review',
    agent: 'codex',
    description: 'User-level hooks not trusted yet: "Hooks need review" for ~10 s, then "2. Trust all and continue", idle, /quit.',
    untrustedHooks: true,
    mock: MOCK,
    steps: [
      waitText(/Hooks need review/, 60_000, 'dialog'),
      wait(10_000),
      key('down', 'pick'),
      wait(300),
      enter('accept'),
      waitText(/Ask Codex to do anything/, 45_000, 'ready'),
      wait(8000),
      quit(),
      waitExit(15_000, 'exit seen'),
    ],
    tailMs: 500,
    expect: [
      { state: 'idle', from: atStart, cue: 'startup' },
      {
        state: 'waiting',
        from: screen(/Hooks need review/),
        cue: '"Hooks need review" / "› 1. Review hooks" / "enter confirm · esc skip" (generic shape)',
      },
      { state: 'idle', from: gone(/Hooks need review/), cue: 'dialog gone: composer' },
      { state: 'exited', from: atExit, cue: 'process exit' },
    ],
  },
  {
    id: '23-folder-access',
    agent: 'codex',
    description: 'An untrusted project folder: "Folder access · Trust this folder?" for ~10 s, accepted with Enter, idle, /quit.',
    untrusted: true,
    mock: MOCK,
    steps: [
      waitText(/Trust this folder\?/, 60_000, 'dialog'),
      wait(10_000),
      enter('accept'),
      waitText(/Ask Codex to do anything/, 45_000, 'ready'),
      wait(8000),
      quit(),
      waitExit(15_000, 'exit seen'),
    ],
    tailMs: 500,
    expect: [
      { state: 'idle', from: atStart, cue: 'startup' },
      { state: 'waiting', from: screen(/Trust this folder\?/), cue: '"Trust this folder?" / "› 1. Trust and continue" (generic shape)' },
      { state: 'idle', from: gone(/Trust this folder\?/), cue: 'dialog gone: composer' },
      { state: 'exited', from: atExit, cue: 'process exit' },
    ],
  },
  {
    id: '22-first-start-vscode',
    agent: 'gemini',
    description:
      'A first start in a VS Code terminal: "Do you want to connect IDE to Gemini CLI?" for ~8 s, answered Esc ("2. No (esc)"); then the keybinding setup consent for ~8 s, answered "2. No"; idle, /quit.',
    firstStart: true,
    mock: MOCK,
    steps: [
      waitText(/Do you want to connect IDE to Gemini CLI\?/, 30_000, 'ide dialog'),
      wait(8000),
      key('esc', 'ide no'),
      waitText(/your terminal keybindings\?/, 15_000, 'keybinding dialog'),
      wait(8000),
      key('down', 'pick'),
      wait(300),
      enter('keybinding no'),
      wait(6000),
      quit(),
      waitExit(15_000, 'exit seen'),
    ],
    tailMs: 500,
    expect: [
      { state: 'idle', from: atStart, cue: 'startup' },
      {
        state: 'waiting',
        from: screen(/Do you want to connect IDE to Gemini CLI\?/),
        cue: '"│ ● 1. Yes │" / "2. No (esc)" / "3. No, don\'t ask again" in a box (generic shape, boxed cursor)',
      },
      // Esc on the IDE dialog brings the keybinding dialog within 0.1 s: one wait, two dialogs.
      {
        state: 'waiting',
        from: screen(/your terminal keybindings\?/),
        cue: '"Do you want to continue?" / "● 1. Yes" / "Enter to select · ↑/↓ to navigate · Esc to cancel"',
      },
      { state: 'idle', from: gone(/your terminal keybindings\?/), cue: 'dialog gone: prompt' },
      { state: 'exited', from: screen(/Agent powering down/), cue: '/quit: goodbye summary, then the exit' },
    ],
  },
];
