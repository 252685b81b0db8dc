import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ROOT } from '../helpers';
import {
  GLOSSARY,
  glossaryTerms,
  LOCALE,
  pageLinks,
  PAIRS,
  prose,
  readJson,
  SAME_AS_ENGLISH,
  shownStrings,
  termPattern,
  tokens,
} from './translations';

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

describe(`the ${LOCALE} translation (l10n/bundle.l10n.${LOCALE}.json, package.nls.${LOCALE}.json)`, () => {
  for (const p of PAIRS) {
    const how = `${p.source}, then translate it in ${p.zh} with the words of ${GLOSSARY}`;

    it(`${p.zh} has every key of ${p.en}, and no other`, () => {
      const en = readJson(p.en);
      const zh = readJson(p.zh);
      const missing = Object.keys(en).filter((k) => !(k in zh));
      const stale = Object.keys(zh).filter((k) => !(k in en));
      assert.deepStrictEqual(missing, [], `${p.zh} lacks ${missing.length} key(s) of ${p.en}: ${how}`);
      assert.deepStrictEqual(stale, [], `${p.zh} holds key(s) ${p.en} no longer has (its English changed or went): delete them`);
    });

    it(`${p.zh}: each value keeps its English's placeholders, codicons and links, and is translated`, () => {
      const en = readJson(p.en);
      const zh = readJson(p.zh);
      const wrong: string[] = [];
      for (const [k, v] of Object.entries(zh)) {
        if (!(k in en)) continue;
        const english = p.english(k, en[k]);
        const [want, got] = [tokens(english), tokens(v)];
        if (!v.trim()) wrong.push(`${k}: empty`);
        else if (v === english && !SAME_AS_ENGLISH.has(v)) wrong.push(`${k}: still English (a name? add it to SAME_AS_ENGLISH)`);
        if (want.join('\n') !== got.join('\n')) wrong.push(`${k}: keeps ${JSON.stringify(got)}, the English has ${JSON.stringify(want)}`);
        if (/^%[\w.-]+%$/.test(v)) wrong.push(`${k}: a %key% is not a translation`);
        if (/[「」]/.test(v)) wrong.push(`${k}: quotes are “…” (${GLOSSARY})`);
      }
      assert.deepStrictEqual(wrong, [], `fix these values in ${p.zh}`);
    });
  }

  it(`the translations use the renderings of ${GLOSSARY}`, () => {
    const terms = glossaryTerms(fs.readFileSync(path.join(ROOT, GLOSSARY), 'utf8'));
    assert.ok(terms.length >= 20, `only ${terms.length} checked terms read from ${GLOSSARY}: its tables changed shape`);
    const bundle = readJson(PAIRS[0].zh);
    const off: string[] = [];
    for (const t of terms.filter((x) => x.check === '=')) {
      if (bundle[t.english] !== t.chinese)
        off.push(`"${t.english}" is ${JSON.stringify(bundle[t.english])}, the glossary says ${t.chinese}`);
    }
    let seen = 0;
    for (const p of PAIRS) {
      const [en, zh] = [readJson(p.en), readJson(p.zh)];
      for (const t of terms.filter((x) => x.check === '✓')) {
        const re = termPattern(t.english);
        for (const k of Object.keys(en).filter((key) => re.test(prose(p.english(key, en[key]))))) {
          seen++;
          if (!zh[k]?.includes(t.chinese)) off.push(`${p.zh} ${JSON.stringify(k)}: “${t.english}” is ${t.chinese}`);
        }
      }
    }
    assert.ok(seen > 100, `the checked terms were found in only ${seen} strings`);
    assert.deepStrictEqual(off, [], `use the glossary's rendering (or change ${GLOSSARY} and every translation together)`);
  });

  it(`every walkthrough page has a .${LOCALE}.md with the same command links, images and settings, and the manifest names it`, () => {
    const dir = path.join(ROOT, 'media', 'walkthrough');
    const pages = fs.readdirSync(dir).filter((f) => f.endsWith('.md') && !/\.[a-z]{2}(-[a-z]{2})?\.md$/i.test(f));
    assert.ok(pages.length >= 5, `only ${pages.length} walkthrough pages in ${dir}`);
    for (const page of pages) {
      const local = page.replace(/\.md$/, `.${LOCALE}.md`);
      assert.ok(fs.existsSync(path.join(dir, local)), `media/walkthrough/${local} is missing: translate media/walkthrough/${page}`);
      const [en, zh] = [page, local].map((f) => pageLinks(fs.readFileSync(path.join(dir, f), 'utf8')));
      // A command link runs a command: the translation must run exactly the same ones, in the same order.
      assert.deepStrictEqual(zh, en, `media/walkthrough/${local}: keep the command links, images and setting ids of ${page}`);
      for (const img of en.images) assert.ok(fs.existsSync(path.resolve(dir, img)), `media/walkthrough/${page}: image ${img} is missing`);
    }
    // VS Code replaces every manifest string that is exactly %key%, media.markdown included (replaceNLStrings in
    // src/vs/platform/extensionManagement/common/extensionNls.ts; see the last section of the glossary).
    const [nls, zhNls] = [readJson('package.nls.json'), readJson(PAIRS[1].zh)];
    const keys = Object.keys(nls).filter((k) => k.endsWith('.markdown'));
    assert.strictEqual(keys.length, pages.length, 'each walkthrough step names its page through a %…markdown% key of package.nls.json');
    for (const k of keys) assert.strictEqual(zhNls[k], nls[k].replace(/\.md$/, `.${LOCALE}.md`), `${PAIRS[1].zh} ${k}`);
  });

  it('package.json writes no user-visible English inline: each shown string is a %key% of package.nls.json', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    const nls = readJson('package.nls.json');
    const shown = shownStrings(pkg);
    assert.ok(shown.length > 80, `only ${shown.length} user-visible strings found in package.json`);
    const inline = shown.filter((s) => !/^%[\w.-]+%$/.test(s.value) || !(s.value.slice(1, -1) in nls)).map((s) => s.at);
    assert.deepStrictEqual(
      inline,
      [],
      `move each into package.nls.json as "%key%" (the English unchanged), then translate the key in ${PAIRS[1].zh}`,
    );
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
