/**
 * Structure-aware mutation for fast-check: real records (log lines, hook payloads, cast events) with one node
 * replaced, removed or retyped, or the text cut short. Random bytes alone rarely get past a JSON.parse; a real
 * record with a field of the wrong type reaches the code that reads it.
 */
import * as fc from 'fast-check';
import * as fs from 'fs';
import * as path from 'path';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** The repository root: tests run bundled from out/test/unit/fuzz, so walk up to package.json. */
export const ROOT = ((): string => {
  let d = __dirname;
  while (!fs.existsSync(path.join(d, 'package.json')) && path.dirname(d) !== d) d = path.dirname(d);
  return d;
})();

/** Every file called `name` under the live recordings, newest scenario set first. */
export function fixtureFiles(name: string, agent?: string): string[] {
  const base = path.join(ROOT, 'test/fixtures/live');
  const out: string[] = [];
  for (const a of fs.readdirSync(base)) {
    if (agent && a !== agent) continue;
    const dir = path.join(base, a);
    if (!fs.statSync(dir).isDirectory()) continue;
    for (const s of fs.readdirSync(dir)) {
      const f = path.join(dir, s, name);
      if (fs.existsSync(f)) out.push(f);
    }
  }
  return out;
}

/** Non-empty lines of the given files, at most `max` of them, spread over the files. */
export function realLines(files: readonly string[], max = 400): string[] {
  const all = files.flatMap((f) =>
    fs
      .readFileSync(f, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== ''),
  );
  const step = Math.max(1, Math.floor(all.length / max));
  return all.filter((_, i) => i % step === 0).slice(0, max);
}

function nodes(
  v: Json,
  out: { parent: Json[] | { [k: string]: Json } | undefined; key: string | number }[] = [],
  parent?: Json[] | { [k: string]: Json },
  key: string | number = '',
): typeof out {
  out.push({ parent, key });
  if (Array.isArray(v)) v.forEach((x, i) => nodes(x, out, v, i));
  else if (v && typeof v === 'object') for (const k of Object.keys(v)) nodes(v[k], out, v, k);
  return out;
}

type Edit = { at: number; op: 'replace' | 'delete' | 'stringify' | 'huge'; value: Json };

function apply(original: Json, e: Edit): Json {
  const root: { v: Json } = { v: structuredClone(original) };
  const all = nodes(root.v);
  const n = all[e.at % all.length];
  const get = (): Json => (n.parent === undefined ? root.v : (n.parent as Record<string, Json>)[n.key as string]);
  const set = (x: Json) => {
    if (n.parent === undefined) root.v = x;
    else (n.parent as Record<string, Json>)[n.key as string] = x;
  };
  if (e.op === 'replace') set(e.value);
  else if (e.op === 'stringify') set(JSON.stringify(get()) ?? null);
  else if (e.op === 'huge') set(typeof get() === 'string' ? 'x'.repeat(200_000) : [get(), get(), get()]);
  else if (n.parent === undefined) root.v = null;
  else if (Array.isArray(n.parent)) n.parent.splice(n.key as number, 1);
  else delete (n.parent as Record<string, Json>)[n.key as string];
  return root.v;
}

const editArb: fc.Arbitrary<Edit> = fc.record({
  at: fc.nat(),
  op: fc.oneof(
    { weight: 6, arbitrary: fc.constant<'replace'>('replace') },
    { weight: 3, arbitrary: fc.constant<'delete'>('delete') },
    { weight: 1, arbitrary: fc.constantFrom<'stringify' | 'huge'>('stringify', 'huge') },
  ),
  value: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
});

/** A real JSON line, mutated: 1–3 node edits, then sometimes cut short or given stray bytes. */
export function mutatedLine(lines: readonly string[]): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.constantFrom(...lines),
      fc.array(editArb, { minLength: 1, maxLength: 3 }),
      fc.oneof(
        { weight: 8, arbitrary: fc.constant('whole') },
        { weight: 1, arbitrary: fc.constant('cut') },
        { weight: 1, arbitrary: fc.constant('noise') },
      ),
      fc.nat(),
      fc.string({ maxLength: 8 }),
    )
    .map(([line, edits, tail, at, noise]) => {
      let text: string;
      try {
        text = JSON.stringify(edits.reduce<Json>((v, e) => apply(v, e), JSON.parse(line) as Json));
      } catch {
        text = line;
      }
      if (tail === 'cut') return text.slice(0, at % (text.length + 1));
      if (tail === 'noise') return text.slice(0, at % (text.length + 1)) + noise + text.slice(at % (text.length + 1));
      return text;
    });
}

/** A real JSON object (a hook payload), mutated. */
export function mutatedObject(objects: readonly Record<string, unknown>[]): fc.Arbitrary<unknown> {
  return fc
    .tuple(fc.constantFrom(...objects), fc.array(editArb, { minLength: 1, maxLength: 3 }))
    .map(([o, edits]) => edits.reduce<Json>((v, e) => apply(v, e), o as Json));
}

/** What a parser may do with bad input: return, or throw one of its documented errors with a one-line message. */
export function cleanOutcome(f: () => unknown, documented: readonly (new (...a: never[]) => Error)[]): string | undefined {
  try {
    f();
    return undefined;
  } catch (e) {
    if (!documented.some((c) => e instanceof c))
      return `undocumented ${(e as Error)?.constructor?.name}: ${(e as Error)?.message}\n${(e as Error)?.stack?.split('\n').slice(1, 4).join('\n')}`;
    const msg = (e as Error).message;
    if (!msg || msg.includes('\n')) return `error message is not one line: ${JSON.stringify(msg)}`;
    return undefined;
  }
}

/**
 * The seed of a property run: fixed in `npm test` (so CI is repeatable), fresh in `npm run fuzz` (so each run
 * looks somewhere new), or AGENT_LENS_FUZZ_SEED to replay a failure. Printed with every failure by fast-check.
 */
export function fuzzSeed(): number {
  const given = process.env.AGENT_LENS_FUZZ_SEED;
  if (given) return Number(given);
  return process.env.AGENT_LENS_FUZZ === 'fresh' ? Math.floor(Math.random() * 2 ** 31) : 20261204;
}
