/** Generated settings files and the helpers the install tests share (install.test.ts, installFiles.test.ts). */
import fc from 'fast-check';
import * as fs from 'fs';
import * as path from 'path';
import { OUR_COMMAND_MARK } from '../../../../src/integrations/commands';
import type { JsonHookAgent } from '../../../../src/integrations/install/hookTable';

export const REPORTER = '/home/u/.agent-lens/bin/agent-lens-report';
const AGENTS: JsonHookAgent[] = ['claude-code', 'codex', 'gemini', 'copilot'];
const EVENTS = ['PreToolUse', 'PostToolUse', 'Stop', 'SessionEnd', 'Notification', 'AfterTool', 'BeforeEdit'];

// ---- generated settings files ---------------------------------------------------------------------------------

const key = fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,8}$/).filter((k) => k !== 'hooks');
const leaf = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.boolean(), fc.constant(null));
const value = fc.oneof(leaf, fc.array(leaf, { maxLength: 3 }), fc.dictionary(key, leaf, { maxKeys: 3 }));
const userGroup = fc.record(
  {
    matcher: fc.constantFrom('*', 'Bash', 'Edit|Write'),
    hooks: fc.array(
      fc.record(
        { type: fc.constant('command'), command: fc.stringMatching(/^[a-z ./-]{1,20}$/), timeout: fc.nat(60) },
        { requiredKeys: ['type', 'command'] },
      ),
      { minLength: 1, maxLength: 2 },
    ),
  },
  { requiredKeys: ['hooks'] },
);
// Non-empty when present: a `hooks` object or event array that only ever held ours is dropped on removal.
const userHooks = fc.option(
  fc.dictionary(fc.constantFrom(...EVENTS), fc.array(userGroup, { minLength: 1, maxLength: 3 }), { minKeys: 1, maxKeys: 4 }),
  { nil: undefined },
);

export const settings: fc.Arbitrary<{ text: string; value: Record<string, unknown> }> = fc
  .record({
    pairs: fc.uniqueArray(fc.tuple(key, value), { selector: (p) => p[0], maxLength: 5 }),
    hooks: userHooks,
    at: fc.nat(5),
    indent: fc.constantFrom('  ', '    ', '\t', ''),
    eol: fc.constantFrom('\n', '\r\n'),
    finalNewline: fc.boolean(),
  })
  .map(({ pairs, hooks, at, indent, eol, finalNewline }) => {
    const entries: [string, unknown][] = [...pairs];
    if (hooks) entries.splice(Math.min(at, entries.length), 0, ['hooks', hooks]);
    const v = Object.fromEntries(entries);
    const text = JSON.stringify(v, null, indent).split('\n').join(eol) + (finalNewline ? eol : '');
    return { text, value: JSON.parse(text) as Record<string, unknown> };
  });

/** A file that is the map of events itself (droid's hooks.json), maybe empty, maybe with a key droid ignores. */
export const eventMaps: fc.Arbitrary<{ text: string; value: Record<string, unknown> }> = fc
  .record({
    hooks: userHooks,
    extra: fc.option(fc.tuple(key, value), { nil: undefined }),
    indent: fc.constantFrom('  ', '    ', '\t', ''),
    eol: fc.constantFrom('\n', '\r\n'),
    finalNewline: fc.boolean(),
  })
  .map(({ hooks, extra, indent, eol, finalNewline }) => {
    const v: Record<string, unknown> = { ...(hooks ?? {}), ...(extra ? { [extra[0]]: extra[1] } : {}) };
    const text = JSON.stringify(v, null, indent).split('\n').join(eol) + (finalNewline ? eol : '');
    return { text, value: JSON.parse(text) as Record<string, unknown> };
  });

const agent = fc.constantFrom(...AGENTS);
/** A property over a generated value and an agent whose table is installed. */
export const forAll = <T>(arb: fc.Arbitrary<T>, body: (v: T, a: JsonHookAgent) => void, numRuns?: number): void =>
  fc.assert(fc.property(arb, agent, body), numRuns ? { numRuns } : {});
export const parse = (text: string): Record<string, unknown> => JSON.parse(text) as Record<string, unknown>;
type Groups = Record<string, unknown[]>;
export const hooksOf = (v: Record<string, unknown>): Groups => (v.hooks ?? {}) as Groups;
/** Ours: a POSIX line names the reporter wrapper, a Windows line reads AGENT_LENS_HUB (generated user commands can do neither). */
export const ours = (g: unknown): boolean => JSON.stringify(g).includes(OUR_COMMAND_MARK) || JSON.stringify(g).includes('AGENT_LENS_HUB');

export function write(file: string, text: string, mode = 0o644): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  fs.chmodSync(file, mode);
}
