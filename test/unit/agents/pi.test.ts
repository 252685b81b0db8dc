import * as assert from 'assert';
import { classify, genericDialog, makeFrame, transcriptEndRow } from '../../../src/detect/classify';
import { signatureOf } from '../../../src/detect/signatures';

const RULE = '─'.repeat(120);
const HEAD = [
  'fd not found. Offline mode enabled, skipping download.',
  ' pi v0.73.1',
  ' escape interrupt · ctrl+c/ctrl+d clear/exit · / commands · ! bash · ctrl+o more',
  ' Press ctrl+o to show full startup help and loaded resources.',
  ' Pi can explain its own features and look up its docs. Ask it how to use or extend Pi.',
];
const FOOT = [RULE, RULE, '/tmp/demo-app (main)', '↑1.4k ↓13 1.1%/128k (auto)                                mock-model'];

/** A pi 0.73.1 screen as recorded (test/fixtures/live/pi): header, transcript, the editor between two rules, footer. */
function piScreen(transcript: string[], editor: string[] = []) {
  const rows = [...HEAD, ...transcript, FOOT[0], ...editor, ...FOOT.slice(1)];
  return makeFrame(
    { rows: [...rows, ...Array(Math.max(0, 36 - rows.length)).fill('')], title: 'π - demo-app', altScreen: false, version: 1 },
    new Map(),
  );
}
const state = (transcript: string[], editor: string[] = []) => {
  const c = classify(piScreen(transcript, editor), signatureOf('pi'));
  return `${c.state}${c.waitKind ? `/${c.waitKind}` : ''} ${c.ruleId}`;
};

describe('pi signature (0.73.1)', () => {
  it('locates the transcript end above the editor, however many rows the editor holds', () => {
    const f = piScreen([' What is the capital of France?', ' The capital is Paris.'], [' a draft', ' on two rows']);
    assert.strictEqual(f.view.rows[transcriptEndRow(f, /^─{20,}\s*$/)], ' The capital is Paris.');
    const none = makeFrame({ rows: ['$ ls', 'a b c'], title: '', altScreen: false, version: 1 }, new Map());
    assert.strictEqual(transcriptEndRow(none, /^─{20,}\s*$/), -1);
  });

  it('reads the start screen as idle, the spinner as working and each outcome from the row above the editor', () => {
    assert.strictEqual(state([]), 'idle pi.default-idle');
    assert.strictEqual(state(['[Extensions]', '  agentlens-logger.ts, permission-gate.ts']), 'idle pi.default-idle');
    assert.strictEqual(state([' What is the capital of France?', ' ⠦ Working...']), 'working pi.spinner');
    assert.strictEqual(
      state([' go', ' Error: 500 Internal server error', ' ⠋ Retrying (2/3) in 2s... (escape to cancel)']),
      'working pi.spinner',
    );
    assert.strictEqual(state([' What is the capital of France?', ' The capital of France is Paris.']), 'stopped pi.last-words');
    assert.strictEqual(state([' write a long essay', ' Operation aborted']), 'stopped pi.aborted');
    assert.strictEqual(state([' go', ' Error: Retry failed after 3 attempts: 500 Internal server error']), 'failed pi.error');
  });

  it('reads a reply that ends with a question as waiting, and not a question above the last row', () => {
    assert.strictEqual(
      state([' Set up tests.', ' I can use Vitest or Jest. Which one would you like me to use?']),
      'waiting/reply-question pi.last-words+reply-question',
    );
    assert.strictEqual(state([' Which is best?', ' Vitest, because it is fast.']), 'stopped pi.last-words');
  });

  it('lets only the newest turn decide: an old error above a later reply is history', () => {
    assert.strictEqual(state([' go', ' Error: 400 Invalid request', ' try again', ' Done: all good.']), 'stopped pi.last-words');
    assert.strictEqual(state([' go', ' Operation aborted', ' again', ' ⠋ Working...']), 'working pi.spinner');
  });

  it("reads an extension's selector in place of the editor as waiting (prompt), by pi's rule and by the generic shape", () => {
    const dialog = [
      ' ⚠️ Dangerous command:',
      '',
      '   rm -rf build',
      '',
      ' Allow?',
      '',
      ' → Yes',
      '   No',
      '',
      ' ↑↓ navigate  enter select  escape/ctrl+c cancel',
    ];
    assert.strictEqual(state([' clean the build output', ' $ rm -rf build', ' ⠋ Working...'], dialog), 'waiting/prompt pi.selector');
    assert.ok(genericDialog(piScreen([' $ rm -rf build', ' ⠋ Working...'], dialog)), 'the generic dialog shape catches it as well');
  });
});
