/**
 * What the translation checks of l10n.test.ts read: the pairs of English and translated bundles, the tokens a
 * translation must keep, the glossary's checked terms, the links of a walkthrough page and the manifest's
 * user-visible fields.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ROOT } from '../helpers';

export const LOCALE = 'zh-cn';
export const GLOSSARY = `l10n/GLOSSARY.${LOCALE}.md`;

/** An English bundle and its translation: `english` maps each key to the English text a user would see. */
export interface BundlePair {
  en: string;
  zh: string;
  /** What makes the English bundle: the first step of adding a string. */
  source: string;
  english: (key: string, value: string) => string;
}

export const PAIRS: BundlePair[] = [
  { en: 'l10n/bundle.l10n.json', zh: `l10n/bundle.l10n.${LOCALE}.json`, source: 'run npm run l10n', english: (k) => k },
  { en: 'package.nls.json', zh: `package.nls.${LOCALE}.json`, source: 'add the key to package.nls.json', english: (_, v) => v },
];

/**
 * English words a translation may keep as they are: names (and the words Chinese developers write in English).
 * Anything else identical to its English is a string someone forgot to translate.
 */
export const SAME_AS_ENGLISH = new Set(['Agent Lens', 'Markdown', 'Webhook', 'shell']);

export function readJson(rel: string): Record<string, string> {
  return JSON.parse(fs.readFileSync(path.join(ROOT, rel), 'utf8')) as Record<string, string>;
}

/**
 * What a translation must carry over unchanged, sorted: `{0}` and `{from_name}` placeholders, `$(codicon)`s,
 * `[…](command:…)` and web links (a command link runs a command), and `#agentLens.x#` setting links.
 */
export function tokens(text: string): string[] {
  const found = [
    ...text.matchAll(/\{[A-Za-z0-9_]+\}/g),
    ...text.matchAll(/\$\([a-z0-9~-]+\)/g),
    ...text.matchAll(/\]\(((?:command|https?):[^)\s]+)\)/g),
    ...text.matchAll(/#agentLens\.[\w.]+#/g),
  ].map((m) => m[1] ?? m[0]);
  return found.sort();
}

/** A glossary row: the English term, its one Chinese rendering, and how it is checked (`=` the string itself, `✓` everywhere). */
export interface Term {
  english: string;
  chinese: string;
  check: '=' | '✓';
}

/** The rows of the glossary's tables whose third column is `=` or `✓`. */
export function glossaryTerms(text: string): Term[] {
  const out: Term[] = [];
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 5 || (cells[3] !== '=' && cells[3] !== '✓')) continue;
    out.push({ english: cells[1], chinese: cells[2], check: cells[3] });
  }
  return out;
}

/**
 * The English with what is not prose removed (code, paths, quoted values, placeholders, names that contain a term),
 * so that a term is looked for only where a reader sees it as a word.
 */
export function prose(english: string): string {
  return english
    .replace(/`[^`]*`/g, ' ')
    .replace(/"[^"]*"/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\]\([^)]*\)/g, ' ')
    .replace(/Agent Lens|Cursor Agent/g, ' ')
    .replace(/\S*[-/._]\S*/g, ' ');
}

/** The term as a pattern: each word but the last may be plural (“needs you”, “need you”), the last is a prefix (“agents”). */
export function termPattern(term: string): RegExp {
  const words = term.split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const body = words.map((w, i) => (i < words.length - 1 ? `${w.replace(/s$/i, '')}s?` : w)).join('\\s+');
  return new RegExp(`\\b${body}`, 'i');
}

/** A walkthrough page's executable and visible links: `command:` links in order, images, and the setting ids it names. */
export function pageLinks(md: string): { commands: string[]; images: string[]; settings: string[] } {
  const uniq = (xs: string[]) => [...new Set(xs)].sort();
  return {
    commands: [...md.matchAll(/\]\((command:[^)\s]+)\)/g)].map((m) => m[1]),
    images: uniq([...md.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1])),
    settings: uniq([...md.matchAll(/\bagentLens\.[a-zA-Z]+\.[a-zA-Z.*]+/g)].map((m) => m[0].replace(/\.$/, ''))),
  };
}

/** Manifest fields a user reads (the Settings editor, the palette, views, walkthroughs, Restricted Mode). */
const SHOWN = new Set([
  'title',
  'shortTitle',
  'category',
  'description',
  'markdownDescription',
  'enumDescriptions',
  'markdownEnumDescriptions',
  'deprecationMessage',
  'markdownDeprecationMessage',
  'patternErrorMessage',
  'name',
  'contextualTitle',
  'contents',
  'label',
  'markdown',
  'altText',
]);

/** Every user-visible string of `contributes` and `capabilities` (and the extension's name), with its JSON path. */
export function shownStrings(pkg: Record<string, unknown>): { at: string; value: string }[] {
  const out: { at: string; value: string }[] = [];
  const visit = (v: unknown, at: string, shown: boolean): void => {
    if (typeof v === 'string') {
      if (shown) out.push({ at, value: v });
    } else if (Array.isArray(v)) v.forEach((x, i) => visit(x, `${at}[${i}]`, shown));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) visit(x, `${at}.${k}`, SHOWN.has(k));
  };
  visit(pkg.contributes, 'contributes', false);
  visit(pkg.capabilities, 'capabilities', false);
  for (const k of ['displayName', 'description']) visit(pkg[k], k, true);
  return out;
}
