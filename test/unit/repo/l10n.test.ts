import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ROOT } from '../helpers';

/**
 * Localisable strings: everything user-visible goes through `vscode.l10n.t` (the adapter) or `@vscode/l10n`'s
 * `t` (the pure view model), and `l10n/bundle.l10n.json` is what `npm run l10n` extracts from them.
 */
const BUNDLE = path.join(ROOT, 'l10n', 'bundle.l10n.json');

function walk(rel: string, out: string[]): string[] {
  const abs = path.join(ROOT, rel);
  if (fs.statSync(abs).isDirectory()) for (const e of fs.readdirSync(abs)) walk(path.join(rel, e), out);
  else if (/\.ts$/.test(rel)) out.push(rel.split(path.sep).join('/'));
  return out;
}

describe('localisable strings', function () {
  this.timeout(120_000);

  it('l10n/bundle.l10n.json is what npm run l10n extracts from src (run it after changing a string)', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-l10n-'));
    try {
      const cli = path.join(ROOT, 'node_modules', '@vscode', 'l10n-dev', 'dist', 'cli.js');
      execFileSync(process.execPath, [cli, 'export', '--outDir', tmp, './src'], { cwd: ROOT, stdio: 'pipe' });
      const fresh = JSON.parse(fs.readFileSync(path.join(tmp, 'bundle.l10n.json'), 'utf8')) as Record<string, unknown>;
      const stored = JSON.parse(fs.readFileSync(BUNDLE, 'utf8')) as Record<string, unknown>;
      const missing = Object.keys(fresh).filter((k) => !(k in stored));
      const stale = Object.keys(stored).filter((k) => !(k in fresh));
      assert.deepStrictEqual({ missing, stale }, { missing: [], stale: [] }, 'l10n/bundle.l10n.json is stale: run `npm run l10n`');
      assert.deepStrictEqual(stored, fresh);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('the bundle holds the strings of the adapter and of the view model', () => {
    const stored = JSON.parse(fs.readFileSync(BUNDLE, 'utf8')) as Record<string, unknown>;
    for (const key of [
      'Agent Lens: that terminal is gone.',
      'Show Terminal',
      '{0} in “{1}” asks',
      'Needs you',
      'waiting for approval',
      'Agent hooks',
    ]) {
      assert.ok(key in stored, `missing from the bundle: ${key}`);
    }
  });

  it('every t() call has a literal message (the extractor skips anything else, which would then never be translated)', () => {
    const offenders: string[] = [];
    for (const f of walk('src', [])) {
      const text = fs.readFileSync(path.join(ROOT, f), 'utf8');
      for (const m of text.matchAll(/\bl10n\.t\((?!\s*['"`])/g)) offenders.push(`${f}:${text.slice(0, m.index).split('\n').length}`);
      // A template literal with ${…} inside t() would be extracted with the placeholder's source text.
      for (const m of text.matchAll(/\bl10n\.t\(\s*`[^`]*\$\{/g))
        offenders.push(`${f}:${text.slice(0, m.index).split('\n').length} (template literal)`);
    }
    assert.deepStrictEqual(offenders, []);
  });

  it('no module renames t() or spells a message with \\u escapes (the extractor misses the first and misreads the second)', () => {
    const offenders: string[] = [];
    for (const f of walk('src', [])) {
      const text = fs.readFileSync(path.join(ROOT, f), 'utf8');
      const at = (i: number) => `${f}:${text.slice(0, i).split('\n').length}`;
      // `const t = vscode.l10n.t` or `{ t }`: calls through the alias never reach the bundle, so they are never translated.
      for (const m of text.matchAll(/=\s*(?:vscode\.)?l10n\.t\b(?!\s*\()|\{\s*t\s*\}\s*(?:=|from)/g))
        offenders.push(`${at(m.index)} (alias)`);
      for (const m of text.matchAll(/\bl10n\.t\(\s*'(?:[^'\\]|\\[^u])*\\u/g))
        offenders.push(`${at(m.index)} (\\u escape: write the character)`);
    }
    assert.deepStrictEqual(offenders, [], 'call vscode.l10n.t(…) / l10n.t(…) by that name, with a literal message');
  });

  it('each message has as many arguments as its {0}…{n} placeholders ask for', () => {
    const offenders: string[] = [];
    for (const f of walk('src', [])) {
      const text = fs.readFileSync(path.join(ROOT, f), 'utf8');
      for (const m of text.matchAll(/\bl10n\.t\(\s*'((?:[^'\\]|\\.)*)'\s*([,)])/g)) {
        const indices = [...m[1].matchAll(/\{(\d+)\}/g)].map((x) => Number(x[1]));
        const needed = indices.length ? Math.max(...indices) + 1 : 0;
        const args = m[2] === ')' ? 0 : countArgs(text, m.index + m[0].length);
        if (args !== needed)
          offenders.push(`${f}:${text.slice(0, m.index).split('\n').length}: ${needed} placeholder(s), ${args} argument(s): ${m[1]}`);
      }
    }
    assert.deepStrictEqual(offenders, []);
  });
});

/** The number of top-level arguments from `start` (just after the message's comma) to the call's closing parenthesis. */
function countArgs(text: string, start: number): number {
  // A trailing comma (a call laid out one argument per line) starts no argument.
  const trailing = (at: number) => /^\s*\)/.test(text.slice(at, at + 200));
  if (trailing(start)) return 0;
  let depth = 0;
  let args = 1;
  let quote: string | undefined;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0) return args;
      depth--;
    } else if (c === ',' && depth === 0 && !trailing(i + 1)) args++;
  }
  return args;
}
