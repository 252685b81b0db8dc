import * as assert from 'assert';
import fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { stringify } from 'smol-toml';
import { parseTeam, readTeamFile, TeamError, TeamRegistry } from '../../../../src/handoff/team/registry';
import { DEFAULT_STEPS, isValidKey, type Mode, MODES, scanToml, stepsOf, type TeamAgent } from '../../../../src/handoff/team/schema';
import { removeAgentSection, serializeAgent, upsertAgentSection, writeAgentSection } from '../../../../src/handoff/team/writeBack';
import { logTo } from '../../../../src/common/log';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-team-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const FULL = `# the team
[claude]
mode = "embedded"        # background | embedded | standalone | web
display_name = "Claude"
icon = "terminal"
launch = "claude"
args = [ "--model", "x" ]
window_hint = "claude"
process = "claude"
note = "leader's memo"
description = "what it is for"
tmux = "agents:0.1"
[[claude.dispatch_steps]]
tool = "terminal_activate"
with = {}
[[claude.dispatch_steps]]
tool = "__sleep"
with = { ms = 500 }
[[claude.dispatch_steps]]
tool = "terminal_input"
with = { mode = "type", text = "{message}", send = "none" }
[[claude.dispatch_steps]]
tool = "terminal_input"
with = { mode = "hotkey", keys = [ "enter" ] }

[codex]
mode = "web"
`;

const CLAUDE: TeamAgent = {
  ...{
    key: 'claude',
    mode: 'embedded',
    display_name: 'Claude',
    icon: 'terminal',
    launch: 'claude',
    args: ['--model', 'x'],
    window_hint: 'claude',
  },
  ...{ process: 'claude', note: "leader's memo", description: 'what it is for', tmux: 'agents:0.1' },
  dispatch_steps: [
    { tool: 'terminal_activate', with: {} },
    { tool: '__sleep', with: { ms: 500 } },
    { tool: 'terminal_input', with: { mode: 'type', text: '{message}', send: 'none' } },
    { tool: 'terminal_input', with: { mode: 'hotkey', keys: ['enter'] } },
  ],
};

/** Plain objects all the way down: smol-toml tables have no prototype, which deepStrictEqual would flag. */
const plain = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const agentsOf = (text: string): TeamAgent[] => plain(parseTeam(text, 'team.toml').agents);

/** An agent with nothing but a key and a mode. */
const bareAgent = (key: string, mode: Mode = 'web'): TeamAgent => ({ key, mode, dispatch_steps: [] });

function teamError(fn: () => unknown): TeamError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof TeamError, `expected a TeamError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected a TeamError');
}

describe('team: parseTeam', () => {
  it('reads every field of a full example, in file order', () => {
    assert.deepStrictEqual(plain(parseTeam(FULL, 'team.toml')), { agents: [CLAUDE, bareAgent('codex')], warnings: [] });
  });

  it('keeps the file order for keys that look like numbers', () => {
    assert.deepStrictEqual(
      agentsOf('[b]\nmode = "web"\n[2]\nmode = "web"\n[1]\nmode = "web"\n').map((a) => a.key),
      ['b', '2', '1'],
    );
  });

  it('names the line and field of every type error', () => {
    const cases: [string, number, string, RegExp][] = [
      ['[claude]\nicon = "x"\nmode = "tui"\n', 3, '[claude].mode', /expected one of background, embedded, standalone, web, got "tui"/],
      ['[claude]\nicon = "x"\n', 1, '[claude].mode', /missing: add mode = /],
      ['[claude]\nmode = "web"\n\nargs = "x"\n', 4, '[claude].args', /expected an array of strings.*got "x"/],
      ['[claude]\nmode = "web"\nargs = ["a", 3]\n', 3, '[claude].args[2]', /expected a string, got 3/],
      ['[claude]\nmode = 7\n', 2, '[claude].mode', /got 7/],
      ...['display_name', 'icon', 'launch', 'window_hint', 'process', 'note', 'description', 'tmux'].map(
        (f): [string, number, string, RegExp] => [`[a]\nmode = "web"\n# c\n${f} = true\n`, 4, `[a].${f}`, /expected a string, got true/],
      ),
      ['[a]\nmode = "web"\ndispatch_steps = "x"\n', 3, '[a].dispatch_steps', /expected an array of steps/],
      [
        '[a]\nmode = "web"\n[[a.dispatch_steps]]\ntool = "t"\n[[a.dispatch_steps]]\nwith = {}\n',
        5,
        '[a].dispatch_steps[2].tool',
        /missing: add tool/,
      ],
      [
        '[a]\nmode = "web"\n[[a.dispatch_steps]]\ntool = "t"\n[[a.dispatch_steps]]\ntool = "u"\nwith = 5\n',
        7,
        '[a].dispatch_steps[2].with',
        /expected a table like with = \{ ms = 500 \}, got 5/,
      ],
      ['[a]\nmode = "web"\n[[a.dispatch_steps]]\ntool = ""\n', 4, '[a].dispatch_steps[1].tool', /must not be empty/],
      [
        '[x]\nmode = "web"\n[a]\nmode = "web"\n[[a.dispatch_steps]]\ntool = 1\n',
        6,
        '[a].dispatch_steps[1].tool',
        /expected a string, got 1/,
      ],
    ];
    for (const [text, line, field, problem] of cases) {
      const e = teamError(() => parseTeam(text, 'team.toml'));
      assert.strictEqual(e.line, line, `${e.message}\n${text}`);
      assert.strictEqual(e.field, field, e.message);
      assert.match(e.message, problem);
      assert.ok(e.message.startsWith(`team.toml:${line}: ${field}: `), e.message);
      assert.ok(!e.message.includes('\n'), 'one line');
    }
  });

  it('gives the example message for a bad mode', () => {
    const text = '# team\n\n[codex]\nmode = "web"\n\n[claude]\nmode = "tui"\n';
    const want = 'team.toml:7: [claude].mode: expected one of background, embedded, standalone, web, got "tui"';
    assert.strictEqual(teamError(() => parseTeam(text, 'team.toml')).message, want);
  });

  it('reports a TOML syntax error on its line', () => {
    const e = teamError(() => parseTeam('[a]\nmode = "web"\n\nicon = \n', '/home/u/team.toml'));
    assert.strictEqual(e.line, 4);
    assert.strictEqual(e.file, '/home/u/team.toml');
    assert.match(e.message, /^\/home\/u\/team\.toml:4: TOML syntax error/);
    assert.ok(!e.message.includes('\n'));
    assert.strictEqual(teamError(() => parseTeam('[a]\nmode = "web"\n[a]\n', 'team.toml')).line, 3);
  });

  it('accepts deprecated fields, ignores them and warns once each', () => {
    const text = '[claude]\nmode = "embedded"\ncooldown_secs = 3\nauto_approve = true\n[codex]\nmode = "web"\nconfirm_keywords = ["y"]\n';
    const { agents, warnings } = parseTeam(text, 'team.toml');
    assert.deepStrictEqual(plain(agents), [bareAgent('claude', 'embedded'), bareAgent('codex')]);
    assert.deepStrictEqual(warnings, [
      'team.toml:3: [claude].cooldown_secs is deprecated and ignored',
      'team.toml:4: [claude].auto_approve is deprecated and ignored',
      'team.toml:7: [codex].confirm_keywords is deprecated and ignored',
    ]);
  });

  it('warns about unknown fields instead of failing', () => {
    const { agents, warnings } = parseTeam('[a]\nmode = "web"\ncolour = "red"\n[[a.dispatch_steps]]\ntool = "t"\nretry = 2\n', 'team.toml');
    assert.deepStrictEqual(plain(agents), [{ key: 'a', mode: 'web', dispatch_steps: [{ tool: 't', with: {} }] }]);
    assert.strictEqual(warnings.length, 2);
    assert.match(warnings[0], /^team\.toml:3: \[a\]\.colour is not a known field/);
    assert.match(warnings[1], /^team\.toml:6: \[a\]\.dispatch_steps\[1\]\.retry is not a known step field/);
  });

  it('refuses keys that could escape a folder', () => {
    for (const [header, key] of [
      ['[".."]', '..'],
      ['["a/b"]', 'a/b'],
      ['["/abs"]', '/abs'],
      ['[""]', ''],
      ["['a\\b']", 'a\\b'],
      ['["."]', '.'],
    ]) {
      const e = teamError(() => parseTeam(`# x\n${header}\nmode = "web"\n`, 'team.toml'));
      assert.strictEqual(e.line, 2, e.message);
      assert.match(e.message, /invalid agent key/);
      assert.ok(!isValidKey(key));
    }
    assert.ok(isValidKey('claude-2_b') && isValidKey('9') && !isValidKey('x'.repeat(65)) && !isValidKey('-a'));
  });

  it('refuses a top-level value that is not a table', () => {
    const e = teamError(() => parseTeam('# x\nname = "team"\n[a]\nmode = "web"\n', 'team.toml'));
    assert.strictEqual(e.line, 2);
    assert.match(e.message, /^team\.toml:2: name: expected a table \[name\]/);
  });

  it('reads headers written with quotes and spaces', () => {
    assert.deepStrictEqual(agentsOf('[ "a" ]\nmode = "web"\n[[ a . "dispatch_steps" ]]\ntool = "t"\n'), [
      { key: 'a', mode: 'web', dispatch_steps: [{ tool: 't', with: {} }] },
    ]);
  });

  it('gives agents without steps the default steps', () => {
    const [a] = parseTeam('[a]\nmode = "embedded"\n', 'team.toml').agents;
    assert.deepStrictEqual(stepsOf(a), DEFAULT_STEPS);
    assert.deepStrictEqual(
      DEFAULT_STEPS.map((s) => s.tool),
      ['terminal_activate', '__sleep', 'terminal_input', 'terminal_input'],
    );
    assert.deepStrictEqual(DEFAULT_STEPS[1].with, { ms: 400 });
    stepsOf(a)[1].with.ms = 1;
    assert.deepStrictEqual(DEFAULT_STEPS[1].with, { ms: 400 }, 'a copy');
  });
});

describe('team: scanner', () => {
  it('does not take lines inside multi-line strings or arrays for headers', () => {
    const text = '[a]\nnote = """\n[b]\n"""\nargs = [\n  "x",\n]\nm = [\n  [1]\n]\n[c]\n';
    const kinds = ['header', 'keyval', 'inside', 'inside', 'keyval', 'inside', 'inside', 'keyval', 'inside', 'inside', 'header'];
    assert.deepStrictEqual(
      scanToml(text).map((l) => l.kind),
      kinds,
    );
  });
});

describe('team: readTeamFile and TeamRegistry', () => {
  it('reads a missing file as an empty registry, and refuses one it cannot read', () => {
    assert.deepStrictEqual(readTeamFile(path.join(tmp, 'nope', 'team.toml')), { agents: [], warnings: [] });
    const r = new TeamRegistry(path.join(tmp, 'team.toml'));
    assert.strictEqual(r.load(), undefined);
    assert.deepStrictEqual(r.agents(), []);
    fs.mkdirSync(path.join(tmp, 'team.toml'));
    assert.match(teamError(() => readTeamFile(path.join(tmp, 'team.toml'))).message, /cannot read/);
  });

  it('keeps the last good registry on a bad load and warns once per message', () => {
    const file = path.join(tmp, 'team.toml');
    const warned: string[] = [];
    const r = new TeamRegistry(file, { log: logTo((_l, m) => void warned.push(m)) });
    fs.writeFileSync(file, '[a]\nmode = "web"\nauto_approve = true\n');
    assert.strictEqual(r.load(), undefined);
    assert.strictEqual(r.load(), undefined);
    assert.strictEqual(warned.length, 1);
    fs.writeFileSync(file, '[a]\nmode = "tui"\n');
    const e = r.load();
    assert.ok(e instanceof TeamError && r.error() === e);
    assert.strictEqual(r.get('a')?.mode, 'web');
    fs.writeFileSync(file, '[b]\nmode = "embedded"\n');
    assert.ok(r.load() === undefined && r.error() === undefined);
    assert.deepStrictEqual(
      r.agents().map((a) => a.key),
      ['b'],
    );
  });

  it('watches the file: a bad edit keeps the last good registry, a good hand edit takes effect live', async () => {
    const file = path.join(tmp, 'team.toml');
    fs.writeFileSync(file, '[a]\nmode = "web"\n');
    let changed: () => void = () => undefined;
    const r = new TeamRegistry(file);
    r.onDidChange(() => changed());
    r.load();
    const w = r.watch();
    // Resolves on the first change after which `ok` holds; the editor may be seen mid-write.
    const until = (ok: () => boolean): Promise<void> =>
      new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error('no change seen in 20 s')), 20_000);
        changed = () => void (ok() && (clearTimeout(t), resolve()));
      });
    try {
      let seen = until(() => r.error() !== undefined);
      fs.writeFileSync(file, '[a]\nmode = \n');
      await seen;
      assert.strictEqual(r.error()?.line, 2);
      assert.deepStrictEqual(
        r.agents().map((a) => a.key),
        ['a'],
      );

      seen = until(() => r.get('b') !== undefined);
      // Replaced by rename, the way editors and writeFileAtomic save.
      fs.writeFileSync(path.join(tmp, 'new.tmp'), '[a]\nmode = "web"\n[b]\nmode = "embedded"\n');
      fs.renameSync(path.join(tmp, 'new.tmp'), file);
      await seen;
      assert.strictEqual(r.error(), undefined);
      assert.deepStrictEqual(
        r.agents().map((a) => a.key),
        ['a', 'b'],
      );
    } finally {
      w.dispose();
    }
  });
});

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
