/**
 * Hostile text for the sink fuzz tests (sinks.fuzz.test.ts, dispatchErrors.fuzz.test.ts): links split by what a
 * renderer might drop, Markdown and HTML, hidden characters, huge runs; and the checks of what the user sees.
 */
import * as assert from 'assert';
import * as fc from 'fast-check';
import { LIMITS, type PickSpec, plain, shownPick } from '../../../src/views/untrusted';
import { hiddenIn, iconsIn, linksIn } from '../shownText';
import { fuzzSeed } from './mutate';

/** Runs per property in `npm test`; `npm run fuzz` sets more (AGENT_LENS_FUZZ_RUNS) and a fresh seed. */
export const RUNS = Number(process.env.AGENT_LENS_FUZZ_RUNS ?? 300);
/** A world renders some 40 tooltips through marked: fewer runs in `npm test`, all of them under `npm run fuzz`. */
export const VIEW_RUNS = process.env.AGENT_LENS_FUZZ_RUNS ? RUNS : 100;
export const SEED = fuzzSeed();

// ---- hostile text -------------------------------------------------------------------------------------------

const ARGS = fc.string({ maxLength: 16 }).map((s) => encodeURIComponent(JSON.stringify({ text: `${s}\r` })));
const COMMANDS = [
  'workbench.action.terminal.sendSequence',
  'agentLens.recordTerminal',
  'agentLens.answerWait',
  'workbench.extensions.installExtension',
  '_workbench.open',
];
const target = fc.oneof(
  fc.tuple(fc.constantFrom(...COMMANDS), ARGS).map(([c, a]) => `command:${c}?${a}`),
  fc.constantFrom(
    'https://evil.example/x',
    'http://127.0.0.1:1/',
    'file:///etc/passwd',
    'command:agentLens.showHistory',
    'HTTPS://E.EXAMPLE',
    'Command:x',
  ),
);
const title = fc.oneof(
  fc.constant(''),
  fc.tuple(fc.constantFrom('"', "'"), fc.constantFrom('Open Report', 'Show Terminal', '')).map(([q, t]) => ` ${q}${t}${q}`),
);
/** What may stand between `]` and `(`: nothing, or a character a renderer might drop or a layer might turn into a space. */
const SPLITS = [
  '',
  '',
  '',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u202e',
  '\u2066',
  '\u061c',
  '\u00ad',
  '\ufeff',
  '\u{e0020}',
  '\n',
  '\r\n',
  '\t',
  '\u2028',
  '\u0085',
  '\x00',
];
export const linkWith = (splits: readonly string[]) =>
  fc
    .tuple(
      fc.constantFrom('', '[', ']', '[[', 'x]'),
      fc.oneof(fc.constantFrom('Open Report', 'Show Terminal', '[x]', 'a]b', '$(pass) OK'), fc.string({ maxLength: 8 })),
      fc.constantFrom(...splits),
      target,
      title,
    )
    .map(([pre, l, sp, t, ti]) => `${pre}[${l}]${sp}(${t}${ti})`);
const link = linkWith(SPLITS);
const MARKUP = [
  '![i](https://evil.example/x.png)',
  '<https://evil.example>',
  '<img src=x onerror=alert(1)>',
  '<a href="command:x">y</a>',
  '<script>x</script>',
  '&#x202E;',
  '&#8238;',
  '&rlm;',
  '&lrm;',
  '&zwj;',
  '&lt;b&gt;',
  '# heading',
  '**bold**',
  '_em_',
  '~~del~~',
  '`code`',
  '    indented',
  '> quote',
  '- item',
  '1. item',
  '| a | b |',
  '---',
  '<!-- c -->',
  'www.evil.example',
  'https://evil.example/p',
  'a@evil.example',
  '[r]: https://evil.example',
  '[x][r]',
  '$(zap)',
  '\\$(zap)',
  '$(sync~spin)',
  '\\',
  '](',
  ']',
  '(',
  '"',
  '{0}',
  '{1}',
];
const HIDDEN = [
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200e',
  '\u200f',
  '\u061c',
  '\x00',
  '\x07',
  '\x1b[2J',
  '\x7f',
  '\u0085',
  '\u009b',
  '\u2028',
  '\u2029',
  '\u200b',
  '\ufeff',
  '\u00ad',
  '\u{e0041}',
  '\u200d',
  '\r',
  '\n',
  '\t',
];
const piece = fc.oneof(
  { weight: 4, arbitrary: link },
  { weight: 2, arbitrary: fc.constantFrom(...MARKUP) },
  { weight: 2, arbitrary: fc.constantFrom(...HIDDEN) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 16 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 16 }) },
);
export const text = fc.array(piece, { maxLength: 8 }).map((a) => a.join(''));
/** 2,000–10,000 characters of one piece repeated. */
const huge = fc.tuple(piece, fc.integer({ min: 2000, max: 10_000 })).map(([p, n]) => (p || 'x').repeat(Math.ceil(n / (p || 'x').length)));
export const hostile = fc.oneof({ weight: 12, arbitrary: text }, { weight: 1, arbitrary: huge });

const FIELDS = [
  'name',
  'name2',
  'question',
  'option',
  'evidence',
  'reason',
  'summary',
  'error',
  'taskId',
  'agentName',
  'key',
  'note',
  'mode',
  'path',
  'route',
  'template',
  'why',
] as const;
export type Hostile = Record<(typeof FIELDS)[number], string>;
export const values = fc.record(
  Object.fromEntries(FIELDS.map((f) => [f, hostile])) as Record<(typeof FIELDS)[number], fc.Arbitrary<string>>,
) as fc.Arbitrary<Hostile>;

// ---- what the user sees -------------------------------------------------------------------------------------

/** A text VS Code shows as a message, prompt, title, placeholder, label or description. */
export function checkPlain(where: string, s: string, max: number = LIMITS.message): void {
  assert.deepStrictEqual(linksIn(s), [], `${where}: a link in ${JSON.stringify(s)}`);
  assert.deepStrictEqual(hiddenIn(s), [], `${where}: raw hidden characters in ${JSON.stringify(s)}`);
  assert.ok(Array.from(s).length <= max, `${where}: ${Array.from(s).length} > ${max} characters`);
  assert.strictEqual(plain(s, max), s, `${where}: the adapter's plain() would change it (not idempotent)`);
}

export function checkPick(where: string, spec: PickSpec): void {
  const p = shownPick(spec);
  checkPlain(`${where} label`, p.label, LIMITS.label + (spec.icon ? spec.icon.length + 4 : 0));
  assert.deepStrictEqual(iconsIn(p.label), spec.icon ? [spec.icon] : [], `${where}: icons in ${JSON.stringify(p.label)}`);
  for (const [k, v] of [
    ['description', p.description],
    ['detail', p.detail],
  ] as const) {
    if (v === undefined) continue;
    checkPlain(`${where} ${k}`, v, k === 'detail' ? LIMITS.detail : LIMITS.description);
    assert.deepStrictEqual(iconsIn(v), [], `${where} ${k}: icons in ${JSON.stringify(v)}`);
  }
}
