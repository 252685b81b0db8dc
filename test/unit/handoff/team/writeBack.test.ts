import * as assert from 'assert';
import fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { stringify } from 'smol-toml';
import { MODES, type TeamAgent } from '../../../../src/handoff/team/schema';
import { removeAgentSection, serializeAgent, upsertAgentSection, writeAgentSection } from '../../../../src/handoff/team/writeBack';
import { agentsOf, bareAgent, CLAUDE, FULL, plain, teamError } from './teamFixture';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-team-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

// ---- write-back --------------------------------------------------------------------------------------------

const text = fc.string({ unit: 'grapheme', maxLength: 12 });
const bareKey = fc.stringMatching(/^[a-z][a-z0-9_-]{0,6}$/);
const withValue = fc.dictionary(
  fc.oneof(bareKey, text).filter((k) => !['__proto__', 'constructor', 'prototype'].includes(k)),
  fc.oneof(text, fc.integer(), fc.boolean(), fc.array(text, { maxLength: 3 }), fc.dictionary(bareKey, fc.integer(), { maxKeys: 2 })),
  { maxKeys: 3 },
);
// launch is one command line: the schema refuses control characters in it (handoffHardening.test.ts).
const launchText = text.filter((t) => !/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(t));
const fields = { display_name: text, icon: text, launch: launchText, args: fc.array(launchText, { maxLength: 3 }), note: text, tmux: text };
const steps = fc.array(fc.record({ tool: text.filter((t) => t !== ''), with: withValue }), { maxLength: 3 });
const agentArb = (key: fc.Arbitrary<string>): fc.Arbitrary<TeamAgent> =>
  fc
    .record({ key, mode: fc.constantFrom(...MODES), ...fields, dispatch_steps: steps }, { requiredKeys: ['key', 'mode', 'dispatch_steps'] })
    .map((a) => a as TeamAgent);

/** Lines a person leaves around sections: comments (some looking like headers) and blank lines. */
const filler = fc.array(fc.constantFrom('', '# a comment', '  # [not.a.header]', '#[[x.dispatch_steps]]', '   '), { maxLength: 3 });
const style = fc.constantFrom('plain', 'quoted', 'spaced');

/** Escapes for a multi-line basic string: raw newlines stay (that is the point), other controls may not. */
const multiline = (t: string): string =>
  t
    .replace(/[\\"]/g, (c) => `\\${c}`)
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * A hand-written section: header in one of several styles, comments inside, multi-line values (one holding a
 * line that looks like this section's header). Returns the text and the agent it reads as.
 */
function handWritten(a: TeamAgent, s: string, inner: string[]): { body: string; a: TeamAgent } {
  const hdr = (k: string): string => (s === 'quoted' ? `"${k}"` : s === 'spaced' ? ` ${k} ` : k);
  const v = (x: unknown): string => stringify({ v: x }).slice(4).trimEnd();
  const agent = a.note === undefined ? a : { ...a, note: `[${a.key}]\n${a.note}` };
  const out = [`[${hdr(a.key)}]`, ...inner.filter((l) => l.startsWith('#')), `mode = ${v(a.mode)} # inline comment`];
  if (agent.note !== undefined) out.push(`note = """\n${multiline(agent.note)}"""`);
  if (a.args !== undefined) out.push(`args = [\n${a.args.map((x) => `  ${v(x)},`).join('\n')}\n]`);
  for (const f of ['display_name', 'icon', 'launch', 'tmux'] as const) if (a[f] !== undefined) out.push(`${f} = ${v(a[f])}`);
  for (const st of a.dispatch_steps) {
    out.push(`[[${hdr(a.key)}.dispatch_steps]]`, '', `tool = ${v(st.tool)}`);
    if (Object.keys(st.with).length)
      out.push(
        `with = ${serializeAgent({ key: 'x', mode: 'web', dispatch_steps: [st] })
          .split('\n')[4]
          .slice('with = '.length)}`,
      );
  }
  return { body: out.map((l) => `${l}\n`).join(''), a: agent };
}

const fileArb = fc
  .uniqueArray(fc.tuple(agentArb(bareKey), filler, style, filler), { selector: (t) => t[0].key, minLength: 1, maxLength: 4 })
  .chain((secs) => fc.record({ secs: fc.constant(secs), pick: fc.nat(secs.length - 1), trailing: filler }))
  .map(({ secs, pick, trailing }) => {
    const parts = secs.map(([a, lead, s, inner]) => ({ lead: lead.map((l) => `${l}\n`).join(''), ...handWritten(a, s, inner) }));
    const tail = trailing.map((l) => `${l}\n`).join('');
    return { parts, pick, text: parts.map((p) => p.lead + p.body).join('') + tail, tail };
  });

const byKey = (agents: TeamAgent[], key: string): TeamAgent | undefined => agents.find((a) => a.key === key);

describe('team: write-back', () => {
  it('generated files parse to the agents they were made from', () => {
    fc.assert(
      fc.property(fileArb, (f) =>
        assert.deepStrictEqual(
          agentsOf(f.text),
          f.parts.map((p) => plain(p.a)),
        ),
      ),
    );
  });

  it('upserting one section keeps every byte before and after it, and the other sections', () => {
    fc.assert(
      fc.property(fileArb, agentArb(fc.constant('x')), (f, next) => {
        const target = f.parts[f.pick];
        const agent = { ...next, key: target.a.key };
        const before =
          f.parts
            .slice(0, f.pick)
            .map((p) => p.lead + p.body)
            .join('') + target.lead;
        const after =
          f.parts
            .slice(f.pick + 1)
            .map((p) => p.lead + p.body)
            .join('') + f.tail;
        const out = upsertAgentSection(f.text, agent);
        assert.strictEqual(out, before + serializeAgent(agent) + after, 'only the section changed');
        const got = agentsOf(out);
        assert.deepStrictEqual(
          got.map((a) => a.key),
          f.parts.map((p) => p.a.key),
          'order',
        );
        for (const p of f.parts) assert.deepStrictEqual(byKey(got, p.a.key), p === target ? plain(agent) : plain(p.a));
        assert.strictEqual(upsertAgentSection(out, agent), out, 'idempotent');
      }),
    );
  });

  it('appends a new key at the end, after a blank line', () => {
    fc.assert(
      fc.property(fileArb, agentArb(fc.constant('zz-new')), (f, agent) => {
        const out = upsertAgentSection(f.text, agent);
        assert.ok(out.startsWith(f.text));
        assert.match(out.slice(0, out.length - serializeAgent(agent).length), /(^|\n)[ \t]*\n$/);
        const got = agentsOf(out);
        assert.deepStrictEqual(got[got.length - 1], plain(agent));
        assert.deepStrictEqual(got.slice(0, -1), agentsOf(f.text));
      }),
    );
    assert.strictEqual(upsertAgentSection('', bareAgent('a')), '[a]\nmode = "web"\n');
    assert.strictEqual(upsertAgentSection('# x', bareAgent('a')), '# x\n\n[a]\nmode = "web"\n');
  });

  it('removes a section and keeps the others', () => {
    fc.assert(
      fc.property(fileArb, (f) => {
        const key = f.parts[f.pick].a.key;
        const out = removeAgentSection(f.text, key);
        assert.deepStrictEqual(
          agentsOf(out),
          agentsOf(f.text).filter((a) => a.key !== key),
        );
        assert.strictEqual(removeAgentSection(out, key), out);
      }),
    );
    const t = '# team\n\n[a]\nmode = "web"\n\n# about b\n[b]\nmode = "web"\n\n[c]\nmode = "web"\n';
    assert.strictEqual(removeAgentSection(t, 'b'), '# team\n\n[a]\nmode = "web"\n\n[c]\nmode = "web"\n');
    assert.strictEqual(removeAgentSection(t, 'c'), '# team\n\n[a]\nmode = "web"\n\n# about b\n[b]\nmode = "web"\n');
  });

  it('serializes in the documented form, with inline steps and escaped strings', () => {
    // The example is written in that form, but for its comment.
    const section = FULL.slice(FULL.indexOf('[claude]'), FULL.indexOf('\n[codex]')).replace(/ +# background.*/, '');
    assert.strictEqual(serializeAgent(CLAUDE), section);
    const tricky: TeamAgent = {
      key: 'a',
      mode: 'web',
      note: 'a "q"\n\\ \t',
      dispatch_steps: [{ tool: 't', with: { 'odd key': { x: [1, { y: 'z' }] } } }],
    };
    assert.deepStrictEqual(agentsOf(serializeAgent(tricky)), [plain(tricky)]);
  });

  it('keeps CRLF line ends and rewrites only the section in a CRLF file', () => {
    const t = '[a]\r\nmode = "web"\r\n\r\n[b]\r\nmode = "web"\r\n';
    assert.strictEqual(upsertAgentSection(t, bareAgent('a', 'embedded')), '[a]\r\nmode = "embedded"\r\n\r\n[b]\r\nmode = "web"\r\n');
  });

  it('refuses a key defined outside a section rather than guessing', () => {
    assert.match(teamError(() => upsertAgentSection('a = { mode = "web" }\n', bareAgent('a'))).message, /not a \[a\] section/);
    assert.match(teamError(() => upsertAgentSection('', bareAgent('../x'))).message, /invalid agent key/);
  });

  it('writeAgentSection refuses a broken file and leaves its bytes unchanged', () => {
    const file = path.join(tmp, 'team.toml');
    for (const broken of ['[a]\nmode = "web"\n[b\n', '[a]\nmode = "tui"\n']) {
      fs.writeFileSync(file, broken);
      const e = teamError(() => writeAgentSection(file, bareAgent('c')));
      assert.match(e.message, /fix this first/);
      assert.strictEqual(e.line, 2 + (broken.includes('[b') ? 1 : 0));
      assert.strictEqual(fs.readFileSync(file, 'utf8'), broken);
    }
    assert.deepStrictEqual(fs.readdirSync(tmp), ['team.toml'], 'no temp file left');
  });

  it('writeAgentSection refuses an agent that would not read back, writing nothing', () => {
    const file = path.join(tmp, 'team.toml');
    fs.writeFileSync(file, '[a]\nmode = "web"\n');
    teamError(() => writeAgentSection(file, { key: 'b', mode: 'tui' as never, dispatch_steps: [] }));
    teamError(() => writeAgentSection(file, { key: 'b', mode: 'web', dispatch_steps: [{ tool: 't', with: { x: null } }] }));
    assert.strictEqual(fs.readFileSync(file, 'utf8'), '[a]\nmode = "web"\n');
  });

  it('writeAgentSection creates, updates and keeps the file mode', () => {
    const file = path.join(tmp, 'cfg', 'team.toml');
    writeAgentSection(file, bareAgent('a'));
    assert.strictEqual(fs.readFileSync(file, 'utf8'), '[a]\nmode = "web"\n');
    fs.writeFileSync(file, '# mine\n[a]\nmode = "web"\n\n# b\n[b]\nmode = "web"\n');
    fs.chmodSync(file, 0o600);
    writeAgentSection(file, CLAUDE);
    writeAgentSection(file, bareAgent('a', 'background'));
    const out = fs.readFileSync(file, 'utf8');
    assert.ok(out.startsWith('# mine\n[a]\nmode = "background"\n\n# b\n[b]\nmode = "web"\n\n[claude]\n'), out);
    assert.deepStrictEqual(
      agentsOf(out).map((a) => a.key),
      ['a', 'b', 'claude'],
    );
    assert.deepStrictEqual(byKey(agentsOf(out), 'claude'), CLAUDE);
    assert.strictEqual(fs.statSync(file).mode & 0o777, 0o600);
  });
});
