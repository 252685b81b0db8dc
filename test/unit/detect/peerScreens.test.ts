import * as assert from 'assert';
import { type Candidate, classify, makeFrame } from '../../../src/detect/classify';
import { replayCast } from '../../../src/replay/replay';
import { signatureOf } from '../../../src/detect/signatures';
import type { AgentKind } from '../../../src/common/agents';
import { recordings } from '../helpers';
import { AGENTS } from '../../../src/agents/registry';
import { UNVERIFIED } from '../../../src/agents/descriptor';
import { AGENT_COMMAND } from '../../../harness/commandLine';

/**
 * Issue 28: the screens other open detectors test themselves with (their shapes, published), and the classes our
 * own recordings found. Each screen is built as Claude Code 2.1.328 draws it around the line under test: the
 * transcript, the prompt box between two rules (its prompt line "❯" and a no-break space), the footer.
 */
const RULE = '─'.repeat(100);
const PROMPT_BOX = [RULE, '❯\u00a0', RULE, '  ⏸ manual mode on · ? for shortcuts'];

function look(agent: AgentKind, rows: string[], title = ''): Candidate {
  const padded = [...Array(Math.max(0, 40 - rows.length)).fill(''), ...rows];
  return classify(makeFrame({ rows: padded, title, altScreen: true, version: 1 }, new Map()), signatureOf(agent));
}

const claude = (rows: string[], title = '✳ Claude Code') => look('claude-code', rows, title);

describe('peer screens: Claude Code (issue 28)', () => {
  it('1. a spinner row labelled with the todo in progress (several words) is working', () => {
    const labels = [
      '✶ Fixing the scanner buffer overflow… (1m 16s · ↓ 938 tokens)',
      '✳ Simplifying recompute_tangents… (2m 18s · ↓ 4.8k tokens)',
      '✽ Add GitHub Actions workflow and commit… (50s · ↓ 794 tokens)',
      '* Creating wiki main index… (esc to interrupt · ctrl+t to hide todos · 1m 40s · ↓ 3.0k tokens)',
      '● Delegating edits to worker subagent… (17m 12s · ↓ 64.9k tokens)',
      '✻ Deploying robot army… (thought for 1s)',
      '✢ Writing the migration guide…',
    ];
    for (const label of labels) {
      const c = claude([
        '❯ fix the scanner',
        '● I will fix it step by step.',
        '',
        label,
        '  ⎿  ◻ Fix the scanner buffer overflow',
        ...PROMPT_BOX,
      ]);
      assert.strictEqual(c.state, 'working', `${label}: ${c.ruleId}`);
    }
  });

  it('2. the window title spinner before a conversation topic, and the braille frames of older versions', () => {
    for (const title of ['◐ Fix scanner overflow', '◑ User acknowledgment and confirmation', '⠂ Claude Code', '⠐ Testing Papaorch']) {
      const c = claude(['❯ fix the scanner', '● Looking at the scanner.', ...PROMPT_BOX], title);
      assert.deepStrictEqual([c.state, c.ruleId], ['working', 'cc.title-spinner'], title);
    }
    assert.strictEqual(claude(['❯ hi', '● Hello.', '✻ Worked for 2s', ...PROMPT_BOX], '✳ Greeting').state, 'stopped');
  });

  it('3. error banners that are not "● API Error": failed, with the banner as the reason', () => {
    const banners = [
      '  ⎿  Invalid API key · Fix external API key',
      '  ⎿  Not logged in · Please run /login',
      'Invalid API key · Please run /login',
      '  ⎿  Please run /login · API Error: 401 {"type":"error","error":{"type":"authentication_error"}}',
      '  ⎿  OAuth token revoked · Please run /login',
      '  ⎿  API Error: Unable to connect to API (ECONNREFUSED)',
      '  ⎿  API Error: Connection error.',
      '  ⎿  Request timed out',
      "● There's an issue with the selected model (claude-x). It may not exist or you may not have access to it.",
      '  ⎿  Credit balance too low · Add funds: https://platform.claude.com/settings/billing',
      "  ⎿  You've hit your session limit · resets 3pm (Europe/Paris)",
      '  ⎿  5-hour limit reached ∙ resets 18:00',
      '  ⎿  Context limit reached · /compact or /clear to continue',
    ];
    for (const banner of banners) {
      const c = claude(['❯ summarise the README', banner, ...PROMPT_BOX]);
      assert.deepStrictEqual([c.state, c.ruleId], ['failed', 'cc.error-banner'], banner);
      assert.strictEqual(c.text.trim(), banner.trim(), 'the whole banner is the evidence');
    }
    const retrying = claude(['❯ summarise', '  ⎿  API Error (Connection error.) · Retrying in 3 seconds… (attempt 2/10)', ...PROMPT_BOX]);
    assert.strictEqual(retrying.state, 'working', 'a banner being retried has not failed yet');
    const later = claude([
      '❯ summarise',
      '  ⎿  Invalid API key · Fix external API key',
      '❯ try again',
      '● Done.',
      '✻ Worked for 1s',
      ...PROMPT_BOX,
    ]);
    assert.strictEqual(later.state, 'stopped', 'an earlier turn’s banner is history');
  });

  it('4. a spinner row above a newer reply block is stale', () => {
    const c = claude(['❯ fix it', '✢ Nebulizing… (3s · ↓ 12 tokens)', '● Fixed: the parser now accepts an empty file.', ...PROMPT_BOX]);
    assert.notStrictEqual(c.state, 'working', c.ruleId);
    const live = claude(['❯ fix it', '● Reading the parser.', '✢ Nebulizing… (3s · ↓ 12 tokens)', ...PROMPT_BOX]);
    assert.strictEqual(live.state, 'working', 'the spinner under the newest block is live');
  });

  it('5. working words typed in the prompt box or quoted in a reply are not a cue', () => {
    const draft = claude([
      '❯ hi',
      '● Hello.',
      '✻ Worked for 2s',
      RULE,
      '❯\u00a0press esc to interrupt the build',
      RULE,
      '  ⏸ manual mode on',
    ]);
    assert.strictEqual(draft.state, 'stopped', draft.ruleId);
    const quoted = claude([
      '❯ how do I stop you?',
      '● Press Esc: the footer says esc to interrupt while I work.',
      '✻ Worked for 2s',
      ...PROMPT_BOX,
    ]);
    assert.strictEqual(quoted.state, 'stopped', quoted.ruleId);
    const footer = claude([
      '❯ go',
      '● On it.',
      RULE,
      '❯\u00a0',
      RULE,
      '  ⏵⏵ bypass permissions on (shift+tab to cycle) · esc to interrupt · ctrl+t to hide tasks',
    ]);
    assert.strictEqual(footer.state, 'working', 'the footer’s own cue still counts');
  });

  it('6. dialog footers with more hints than "Esc to cancel · Tab to amend"', () => {
    for (const hint of ['Esc to cancel · Tab to amend · ctrl+e to explain', 'Esc to cancel · ctrl+e to hide', 'Esc to cancel']) {
      const c = claude([' Bash command', '   rm -rf build', ' Do you want to proceed?', ' ❯ 1. Yes', '   2. No', '', ` ${hint}`]);
      assert.deepStrictEqual([c.state, c.waitKind], ['waiting', 'permission'], hint);
    }
    const q = claude([
      ' Which test framework?',
      ' ❯ 1. Vitest',
      '   2. Jest',
      ' Enter to select · Tab/Arrow keys to navigate · Esc to cancel',
    ]);
    assert.deepStrictEqual([q.state, q.waitKind], ['waiting', 'question']);
  });

  it('11. "⎿ Compacted" after /compact: the compaction turn ended (stopped), the question before it is history', () => {
    const c = claude([
      '❯ add a changelog entry',
      '● I added the entry to CHANGELOG.md.',
      '  Shall I also update the README?',
      '✻ Crunched for 0s · done 6:36 PM',
      '❯ /compact',
      '  ⎿  Compacted (ctrl+o to see full summary)',
      ...PROMPT_BOX,
    ]);
    assert.deepStrictEqual([c.state, c.ruleId], ['stopped', 'cc.compacted']);
  });
});

describe('first starts that need the user (issue 28, class 9; screens the real CLIs drew with an empty home)', () => {
  const PI_FRAME = ['─'.repeat(100), '─'.repeat(100), '~/proj', '0.0%/0 (auto)                                                unknown'];
  const PI_START = [
    ' pi v0.73.1',
    ' escape interrupt · ctrl+c/ctrl+d clear/exit · / commands · ! bash · ctrl+o more',
    ' Press ctrl+o to show full startup help and loaded resources.',
    ' Pi can explain its own features and look up its docs. Ask it how to use or extend Pi.',
    ' Warning: No models available. Use /login to log into a provider via OAuth or API key. See:',
    '   /home/u/.npm/pi-coding-agent/docs/providers.md',
    '   /home/u/.npm/pi-coding-agent/docs/models.md',
  ];
  it('pi without a model waits for the user to connect a provider; a row it writes below makes that history', () => {
    const c = look('pi', [...PI_START, ...PI_FRAME]);
    assert.deepStrictEqual([c.state, c.ruleId, c.waitKind], ['waiting', 'pi.no-models', 'prompt']);
    const later = look('pi', [...PI_START, ' Logged in to Anthropic.', ...PI_FRAME]);
    assert.notStrictEqual(later.state, 'waiting');
  });

  it('Codex and Gemini CLI first-start dialogs read waiting; Claude Code that cannot connect reads failed', () => {
    const codex = look('codex', [
      "  Welcome to Codex, OpenAI's command-line coding agent",
      '  Choose how you want to use Codex.',
      '> 1. Sign in with ChatGPT',
      '     Usage included with Plus, Pro, Business, and Enterprise plans',
      '  2. Sign in with Device Code',
      '     Sign in from another device with a one-time code',
      '  3. Sign in another way',
      '     Use an API key or another provider',
      '  Press enter to continue',
    ]);
    assert.strictEqual(codex.state, 'waiting', codex.ruleId);
    const gemini = look('gemini', [
      ' ╭' + '─'.repeat(60) + '╮',
      ' │ Do you trust the files in this folder?' + ' '.repeat(21) + '│',
      ' │ ● 1. Trust folder (proj)' + ' '.repeat(35) + '│',
      ' │   2. Trust parent folder (fr-DTxMvs)' + ' '.repeat(23) + '│',
      " │   3. Don't trust" + ' '.repeat(43) + '│',
      ' ╰' + '─'.repeat(60) + '╯',
    ]);
    assert.strictEqual(gemini.state, 'waiting', gemini.ruleId);
    const cc = claude([
      ' Unable to connect to Anthropic services',
      ' Failed to connect to api.anthropic.com: ENOTFOUND',
      ' Check your internet connection and network settings.',
    ]);
    assert.deepStrictEqual([cc.state, cc.ruleId], ['failed', 'cc.error-banner']);
  });
});

describe('peer screens: Cursor Agent (issue 28, class 7; unverified: built from published screens)', () => {
  const COMPOSER = ['  → Add a follow-up', '  GPT-5.2 Medium', '  ~/code/x · main'];
  it('its approval menu (unnumbered choices, a → cursor, key hints) is waiting', () => {
    const menu = [
      '  $ ls -la /tmp/curdemo Waiting for approval...',
      ' $  ls -la /tmp/curdemo in .',
      ' Run this command?',
      ' Not in allowlist: ls',
      '  → Run (once) (y)',
      '    Add Shell(ls) to allowlist? (tab)',
      '    Run Everything (shift+tab)',
      '    Skip & tell the agent what to do instead (esc or n)',
    ];
    const c = look('cursor', menu);
    assert.deepStrictEqual([c.state, c.waitKind], ['waiting', 'permission'], c.ruleId);
    const boxed = look('cursor', [
      ' │ Write to this file? │',
      ' │ in /src/a.ts │',
      ' │  → Proceed (y) │',
      ' │    Reject & propose changes (esc or n or p) │',
    ]);
    assert.strictEqual(boxed.state, 'waiting', boxed.ruleId);
  });

  it('its working cues: the hexagon or braille spinner with a verb, "ctrl+c to stop"', () => {
    for (const row of ['  ⬡ Grepping..', '  ⬢ Reading...', ' ⠀⠞ Thinking  1.47k tokens'])
      assert.strictEqual(look('cursor', ['● Looking at the code.', row, ...COMPOSER]).state, 'working', row);
    assert.strictEqual(look('cursor', ['● Looking.', '  → Add a follow-up                              ctrl+c to stop']).state, 'working');
    assert.strictEqual(look('cursor', ['● Done: tests pass.', ...COMPOSER]).state, 'idle');
  });
});

describe('streamed replies with numbered plans, from every verified agent (issue 28, class 8)', () => {
  const plans = recordings('live').filter((r) => r.scenario === '28-numbered-plan');
  it('are recorded for every verified agent', () => {
    const verified = AGENTS.filter((a) => a.screen.seenIn !== UNVERIFIED).map((a) => a.id);
    assert.deepStrictEqual(plans.map((p) => p.agent).sort(), verified.sort());
  });
  for (const p of plans) {
    it(`${p.agent}: a plan that quotes a dialog never reads waiting while it streams or after`, () => {
      const res = replayCast(p.cast, { commandLine: AGENT_COMMAND[p.agent] });
      const waits = res.detections.filter((d) => d.state === 'waiting');
      assert.deepStrictEqual(waits, []);
      assert.ok(res.detections.some((d) => d.state === 'working'));
    });
  }
});
