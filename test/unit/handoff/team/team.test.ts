import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseTeam, readTeamFile, TeamError, TeamRegistry } from '../../../../src/handoff/team/registry';
import { DEFAULT_STEPS, isValidKey, scanToml, stepsOf } from '../../../../src/handoff/team/schema';
import { logTo } from '../../../../src/common/log';
import { agentsOf, bareAgent, CLAUDE, FULL, plain, teamError } from './teamFixture';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-team-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

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
