import * as assert from 'assert';
import { classify, genericDialog, makeFrame } from '../../../src/detect/classify';
import { signatureOf } from '../../../src/detect/signatures';
import { AgentStore } from '../../../src/store/store';
import { obs } from '../obs';

function frame(rows: string[], altScreen = true) {
  const padded = [...Array(Math.max(0, 30 - rows.length)).fill(''), ...rows];
  return makeFrame({ rows: padded, title: '', altScreen, version: 1 }, new Map());
}

/**
 * Dialogs no rule names (issue 10): the shape — choices with a selection cursor, or a confirm/cancel hint
 * beside choices or a question — reads Waiting (prompt) with the matched rows as evidence.
 */
describe('generic dialog shape', () => {
  it('reads the dialogs that exist today without a rule of their own as waiting (prompt)', () => {
    const dialogs: Record<string, string[]> = {
      'Codex "Hooks need review"': [
        '  Hooks need review',
        '  14 hooks are new or changed.',
        '  Hooks can run outside the sandbox after you trust them.',
        '',
        '› 1. Review hooks',
        '  2. Trust all and continue',
        "  3. Continue without trusting (hooks won't run)",
        '',
        '  enter confirm · esc skip',
      ],
      'Codex folder access': [
        '  Folder access',
        '  /tmp/demo',
        '  Trust this folder? Codex can read, edit, and run files here.',
        '› 1. Trust and continue',
        '  2. Back to Agent Command Center',
        '  enter continue · esc back',
      ],
      'Claude folder trust (2.1.328, recorded)': [
        ' Accessing workspace:',
        ' /tmp/demo-app',
        ' Quick safety check: Is this a project you created or one you trust? (Like your own code, a well-known open source',
        " Claude Code'll be able to read, edit, and execute files here.",
        ' Security guide',
        ' ❯ No, exit',
        '   Yes, I trust this folder',
        ' Enter to confirm · Esc to cancel',
      ],
      'a numbered trust dialog': [
        ' Do you trust the files in this folder?',
        ' /tmp/demo',
        ' ❯ 1. Yes, proceed',
        '   2. No, exit',
        ' Enter to confirm · Esc to exit',
      ],
      'an MCP server approval': [
        ' New MCP server found in .mcp.json: github',
        ' ❯ 1. Use this and all future MCP servers in this project',
        '   2. Use this MCP server',
        '   3. Continue without using this MCP server',
      ],
      'a y/n prompt': ['Overwrite the existing config?', 'Continue? (y/n)'],
    };
    for (const [name, rows] of Object.entries(dialogs)) {
      for (const agent of ['claude-code', 'codex', 'opencode'] as const) {
        const c = classify(frame(rows), signatureOf(agent));
        assert.strictEqual(`${c.state}/${c.waitKind}`, 'waiting/prompt', `${name} on ${agent}: ${JSON.stringify(c)}`);
      }
      assert.ok(genericDialog(frame(rows))!.text.length > 0, name);
    }
  });

  it('reads Gemini CLI’s first-start dialogs in VS Code (boxed, ● cursor) as waiting (prompt)', () => {
    const dialogs: Record<string, string[]> = {
      // Gemini CLI 0.61.0 in a VS Code terminal, first start (test/fixtures/live/gemini/22-first-start-vscode).
      'Gemini "connect IDE" (boxed, ● cursor, no hint)': [
        ' ╭────────────╮',
        ' │ > Do you want to connect IDE to Gemini CLI? │',
        " │ If you select Yes, we'll install an extension │",
        ' │ ● 1. Yes  │',
        ' │   2. No (esc) │',
        " │   3. No, don't ask again │",
        ' ╰────────────╯',
      ],
      'Gemini keybinding setup (boxed)': [
        '╭────╮',
        '│  Do you want to continue?   │',
        '│  ● 1. Yes   │',
        '│    2. No    │',
        '│  Enter to select · ↑/↓ to navigate · Esc to cancel   │',
        '╰────╯',
      ],
    };
    for (const [name, rows] of Object.entries(dialogs)) {
      const c = classify(frame(rows, false), signatureOf('gemini'));
      assert.deepStrictEqual([c.state, c.waitKind, c.ruleId], ['waiting', 'prompt', 'generic.dialog'], `${name}: ${JSON.stringify(c)}`);
    }
  });

  it('never fires on ordinary output: numbered lists, questions, prompts with text, footers', () => {
    const ordinary: Record<string, string[]> = {
      'a reply with a numbered list': ['Here is the plan:', '1. Move the helper', '2. Update the imports', '3. Run the tests', '', '❯ '],
      'a reply that asks': ['I changed the parser.', 'Shall I also update the docs?', '', '❯ '],
      'a typed prompt that starts with 1.': ['❯ 1. fix the bug'],
      'a footer with esc to interrupt': ['✻ Working… (esc to interrupt)', '❯ '],
      'a question with a numbered list but no hint or cursor': ['Which file?', '1. a.ts', '2. b.ts'],
      // Claude Code starts a reply with "● ": a reply that opens with a numbered list is not a cursor.
      'a Claude reply that starts with a numbered list': [
        '● 1. Move the helper',
        '  2. Update the imports',
        '  3. Run the tests',
        '',
        '❯ ',
      ],
      'a boxed tool result with a numbered list': ['│ ✓  Shell cat steps.txt │', '│ 1. build │', '│ 2. test │'],
    };
    for (const [name, rows] of Object.entries(ordinary)) assert.strictEqual(genericDialog(frame(rows)), undefined, name);
  });

  it('an agent’s own dialog rule still names its dialog (the shape is only the fallback)', () => {
    const c = classify(
      frame([' Bash command', '   rm -rf build', ' Do you want to proceed?', ' ❯ 1. Yes', '   2. No', ' Esc to cancel · Tab to amend']),
      signatureOf('claude-code'),
    );
    assert.strictEqual(c.waitKind, 'permission');
    assert.notStrictEqual(c.ruleId, 'generic.dialog');
  });

  it('stays bounded on adversarial rows', () => {
    const long = `❯ 1. ${'x'.repeat(200_000)}`;
    assert.ok(genericDialog(frame([long, '  2. y', `${'?'.repeat(50_000)} enter to confirm`])));
    assert.strictEqual(genericDialog(frame([`  2. ${' '.repeat(100_000)}y`, `${' '.repeat(100_000)}?`])), undefined);
  });
});

describe('stale lines: only the newest turn decides', () => {
  it('a "Waiting for 1 background agent" line above a later completion line is history, not work', () => {
    const rows = [
      '✻ Waiting for 1 background agent to finish',
      '',
      '● The agent finished: all 12 tests pass.',
      '',
      '✻ Worked for 8s',
      '',
      '❯ ',
      '  ⏵⏵ accept edits on (shift+tab to cycle)',
    ];
    const c = classify(frame(rows), signatureOf('claude-code'));
    assert.strictEqual(c.state, 'stopped', JSON.stringify(c));
    const live = classify(
      frame(['✻ Worked for 8s', '', '● Starting the review agent.', '✻ Waiting for 1 background agent to finish', '❯ ']),
      signatureOf('claude-code'),
    );
    assert.strictEqual(live.state, 'working', 'below the last completion it is the newest turn');
  });
});

describe('stale outcomes: a turn start is remembered after its source moves on', () => {
  it('the log’s outcome of an earlier turn does not come back when the screen goes from working to idle (harness 24)', () => {
    const store = new AgentStore({ clock: { now: () => 20_000 } });
    store.openTerminal('t', 'T');
    const at = { locator: { terminalId: 't' } };
    store.observe({ ...obs('jsonl-watcher', 2_800, 'working'), ...at });
    store.observe({ ...obs('jsonl-watcher', 3_671, 'completed'), ...at });
    store.observe({ ...obs('pty-scrape', 3_820, 'waiting', { wait: 'reply-question', question: 'Shall I?' }), ...at });
    store.observe({ ...obs('pty-scrape', 12_076, 'working'), ...at });
    store.observe({ ...obs('pty-scrape', 13_924, 'idle'), ...at });
    const s = store.terminal('t')!;
    assert.deepStrictEqual([s.state, s.source], ['idle', 'pty-scrape']);
  });
});
