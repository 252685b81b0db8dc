import * as assert from 'assert';
import { main } from '../../../src/cli/cli';
import { flattenSummary } from '../../../src/handoff/board';
import { jsonLine, printable, quoted } from '../../../src/common/printable';
import { cut, markdown, noIcons, plain, shownInput, shownPick } from '../../../src/views/untrusted';
import { hiddenIn, iconsIn, linksIn, markdownProblems, renderMarkdown, visibleText } from '../shownText';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** A done summary that hides a link whose label and hover text say "Open Report" and whose click types a shell line. */
const ARGS = encodeURIComponent(JSON.stringify({ text: 'touch pwned-by-link\r' }));
const PAYLOAD = `All tests pass. [Open Report](command:workbench.action.terminal.sendSequence?${ARGS} "Open Report")`;

const ORDINARY = [
  'Claude Code in “bash” is waiting for approval: Bash: npm test',
  '[info] build (debug) done: 3 files',
  'see docs at https://example.com/a_b',
  'שלום עולם',
  '👨‍👩‍👧 family',
  'x = a[1] (b)',
  '$(sync) 0  $(bell) 1',
  'C:\\Users\\me\\file.md',
];

describe('untrusted text: plain()', () => {
  it('leaves ordinary text as it is', () => {
    for (const s of ORDINARY) assert.strictEqual(plain(s), s);
  });

  it('turns a command link titled like our own button into text VS Code shows as written', () => {
    assert.strictEqual(linksIn(PAYLOAD).length, 1, 'the payload is a link before');
    const shown = plain(PAYLOAD);
    assert.deepStrictEqual(linksIn(shown), []);
    assert.ok(shown.includes('[Open Report] (command:workbench.action.terminal.sendSequence?'), shown);
  });

  it('breaks links of every scheme, nested or with a title, and also when the pair is split by a hidden character', () => {
    const cases = [
      '[a](https://e.example/x)',
      "[a](file:///etc/passwd 'Open')",
      '[[a]](command:x)',
      '[a]](command:x)',
      '[a](command:x "t")',
      ']\u200b(command:x)',
      '[a]\u202e(command:x)',
      '[a]\n(command:x)',
      '[a]\u2028(command:x)',
      '[a](command:x?%5B%5D)',
    ];
    for (const c of cases) {
      const shown = plain(c);
      assert.deepStrictEqual(linksIn(shown), [], `${JSON.stringify(c)} → ${shown}`);
      assert.deepStrictEqual(linksIn(`[${shown}`), [], 'not even with a bracket in front');
      assert.deepStrictEqual(hiddenIn(shown), [], shown);
    }
  });

  it('shows controls, bidi and other invisible characters escaped, and turns line breaks and tabs into spaces', () => {
    assert.strictEqual(plain('evil\u202egnp.exe'), 'evil\\u202egnp.exe');
    assert.strictEqual(plain('a\u2066b\u2069c\u200ed\u061ce'), 'a\\u2066b\\u2069c\\u200ed\\u061ce');
    assert.strictEqual(plain('a\x1b[2Jb\u0085c\u2028d'), 'a\\u001b[2Jb\\u0085c\\u2028d');
    assert.strictEqual(plain('zero\u200bwidth\ufeff\u00adtag\u{e0041}'), 'zero\\u200bwidth\\ufeff\\u00adtag\\u{e0041}');
    assert.strictEqual(plain('line one\r\nline two\tend'), 'line one line two end');
  });

  it('cuts long text visibly, never inside a surrogate pair, and is idempotent', () => {
    const long = '😀'.repeat(10_000);
    const shown = plain(long, 100);
    assert.strictEqual(Array.from(shown).length, 100);
    assert.ok(shown.endsWith('…'));
    assert.deepStrictEqual(hiddenIn(shown), []);
    assert.strictEqual(cut('abc', 3), 'abc');
    for (const s of [PAYLOAD, long, 'a\u202e](command:x)\n', ']'.repeat(50) + '('.repeat(50)])
      assert.strictEqual(plain(plain(s, 80), 80), plain(s, 80));
  });
});

describe('untrusted text: icons, quick picks and input boxes', () => {
  it('escapes $(icon) from outside, keeps our own icon in front', () => {
    assert.strictEqual(noIcons('$(zap) x \\$(ok)'), '\\$(zap) x \\$(ok)');
    assert.strictEqual(noIcons(noIcons('$(a)$(b)')), noIcons('$(a)$(b)'));
    const item = shownPick({
      icon: 'bell-dot',
      label: '$(pass-filled) trusted [x](command:y)',
      description: '$(error) d',
      detail: 'e\u202e',
    });
    assert.deepStrictEqual(iconsIn(item.label), ['bell-dot']);
    assert.deepStrictEqual(iconsIn(item.description!), []);
    assert.deepStrictEqual(linksIn(item.label), []);
    assert.strictEqual(item.detail, 'e\\u202e');
    assert.deepStrictEqual(iconsIn(shownPick({ icon: 'x) $(evil', label: 'l' }).label), [], 'an icon id that is not one is dropped');
  });

  it('an input box’s title, prompt and placeholder are plain, the rest is passed on', () => {
    const o = shownInput({ title: PAYLOAD, prompt: PAYLOAD, placeHolder: PAYLOAD, value: '[keep](command:x)', ignoreFocusOut: true });
    for (const t of [o.title!, o.prompt!, o.placeHolder!]) assert.deepStrictEqual(linksIn(t), []);
    assert.strictEqual(o.value, '[keep](command:x)', 'the editable value is the user’s own text');
    assert.strictEqual(o.ignoreFocusOut, true);
  });
});

describe('untrusted text: markdown()', () => {
  const attacks = [
    '[click](https://evil.example)',
    '![img](https://evil.example/x.png)',
    '<img src=x onerror=alert(1)>',
    '<https://evil.example>',
    'www.evil.example',
    'https://evil.example/a',
    'me@evil.example',
    '&#x202E;txt',
    '&rlm;x',
    '# Heading',
    '**bold** _em_ ~~s~~',
    '    indented code',
    '> quote',
    '1. one',
    '| a | b |\n|---|---|',
    '<!-- c -->',
    '[x][r]\n\n[r]: https://e',
    '\\',
    '`code`',
    'a\u202eb',
    'x\u0000y',
  ];

  it('renders no link, image, HTML, heading, emphasis or entity, and reads as the input did', () => {
    for (const a of attacks) {
      const md = markdown(a);
      assert.deepStrictEqual(markdownProblems(md), [], `${JSON.stringify(a)} → ${md}`);
      const html = renderMarkdown(md);
      assert.ok(html.startsWith('<p>') && !/<(a|img|h\d|em|del|blockquote|pre|table|ol)\b/.test(html), html);
      if (!/[\n\u202e\u0000]/.test(a) && !a.startsWith(' ')) assert.strictEqual(visibleText(html), a, html);
    }
  });

  it('the escaping without it would have let them through (the check can fail)', () => {
    const raw = attacks.slice(0, 4).map(markdownProblems);
    assert.ok(
      raw.every((p) => p.length > 0),
      JSON.stringify(raw),
    );
    assert.ok(markdownProblems('&#x202E;').some((p) => p.includes('entity')));
  });
});

describe('printable(), quoted(), jsonLine() and summaries', () => {
  it('printable escapes bidi and invisible format characters too, keeps joiners and is idempotent', () => {
    assert.strictEqual(printable('a\u202eb\u2067c\u200fd\u200be\u{e0001}'), 'a\\u202eb\\u2067c\\u200fd\\u200be\\u{e0001}');
    assert.strictEqual(printable('a\nb\x1b\u009b'), 'a\\u000ab\\u001b\\u009b', 'the old contract holds');
    assert.strictEqual(printable('👩‍💻 ok'), '👩‍💻 ok');
    const s = 'x\u202e\n\u2028';
    assert.strictEqual(printable(printable(s)), printable(s));
    assert.strictEqual(quoted('a\u202e'), '"a\\u202e"');
  });

  it('jsonLine leaves nothing hidden and parses back to the same value', () => {
    const v = { s: 'a\u202e\u0085\u2028\u{e0041}\u200b\x7f', n: 1 };
    const line = jsonLine(v);
    assert.deepStrictEqual(hiddenIn(line), []);
    assert.deepStrictEqual(JSON.parse(line), v);
  });

  it('flattenSummary drops bidi controls', () => {
    assert.strictEqual(flattenSummary('done \u202eevil\u202c \u2066x\u2069 \u200e\u200f\u061c'), 'done evil x');
  });

  it('agent-lens replay prints what a stranger’s recording holds escaped, like status --json', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'al-untrusted-'));
    try {
      const cast = path.join(dir, 'a.cast');
      fs.writeFileSync(
        cast,
        `${JSON.stringify({ version: 2, width: 80, height: 24 })}\n${JSON.stringify([0.2, 'o', ' Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. No \u202eevil\r\n'])}\n${JSON.stringify([5, 'o', 'x'])}\n`,
      );
      const hooks = path.join(dir, 'h.jsonl');
      fs.writeFileSync(
        hooks,
        `${JSON.stringify({ t: 1, agent: 'claude-code', payload: { hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command: 'rm \u202e\u0085 x' }, session_id: 's', cwd: dir } })}\n`,
      );
      const out: string[] = [];
      assert.strictEqual(
        main(
          ['replay', cast, '--command-line', 'claude', '--hooks', hooks, '--screen'],
          (s) => out.push(s),
          () => undefined,
        ),
        0,
      );
      const text = out.join('\n');
      assert.deepStrictEqual(hiddenIn(text, true), []);
      const hook = out
        .map((l) => (l.startsWith('{') ? (JSON.parse(l) as { source: string; evidence: string }) : undefined))
        .find((o) => o?.source === 'hook');
      assert.ok(hook?.evidence.includes('rm \u202e\u0085 x'), 'the evidence itself is kept, only escaped');
      assert.ok(text.includes('2. No \\u202eevil'), 'the screen is escaped line by line');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
