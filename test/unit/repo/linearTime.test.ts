// What the linear-time benchmark (bench/linear.ts, npm run soak) found, kept fixed: each rewrite of a
// backtracking regex or a quadratic loop still gives the answers the old code gave, on the shapes that were slow.
import * as assert from 'assert';
import { agentFromProcess } from '../../../src/detect/commandLine';
import { addHooks, InstallError } from '../../../src/integrations/install/jsonHooks';
import { shellQuote } from '../../../src/common/shellQuote';
import { parseTeam, TEAM_FILE_MAX, TeamError, WARNINGS_MAX } from '../../../src/handoff/team/registry';
import { splice, upsertAgentSection } from '../../../src/handoff/team/writeBack';
import { parsePs } from '../../../src/sources/process/processTree';
import { parseAliases } from '../../../src/sources/terminal/readPolicy';

describe('linear-time fixes', () => {
  it('agentFromProcess: trailing slashes are cut, a long run of them is no name', () => {
    assert.strictEqual(agentFromProcess('/usr/local/bin/claude//')?.agent, 'claude-code');
    assert.strictEqual(agentFromProcess('C:\\tools\\codex.exe')?.agent, 'codex');
    assert.strictEqual(agentFromProcess(`${'/'.repeat(20000)}x`), undefined);
  });

  it('parseAliases: a one-line function body loses its closing brace and ";", an unclosed one reads on', () => {
    const m = parseAliases(`f() { claude --x; }  ;  \ng() { codex }\nh() { ${' '.repeat(5000)}x\n  opencode\n}\n`);
    assert.strictEqual(m.get('f'), ' claude --x; ');
    assert.strictEqual(m.get('g'), ' codex ');
    assert.strictEqual(m.get('h'), ` ${' '.repeat(5000)}x\n  opencode`);
  });

  it('parsePs: a line with a carriage return in its arguments is read, not skipped', () => {
    // The old pattern ended in (.*)$, which a \r (not matched by ".") made fail after backtracking through comm.
    const [p] = parsePs(`    7     1     7    0 ??       node             node /x/claude\r --flag\n`);
    assert.deepStrictEqual([p.pid, p.ppid, p.name, p.args], [7, 1, 'node', ['node', '/x/claude', '--flag']]);
    assert.deepStrictEqual(parsePs('    9     1     9    0 ??       zsh\n')[0].args, ['zsh']);
  });

  it('splice: many edits in one pass give what one edit at a time gave', () => {
    const text = 'abcdefghij'.repeat(50);
    const edits = Array.from({ length: 40 }, (_, i) => ({ start: i * 12, end: i * 12 + 3, with: `<${i}>` }));
    let slow = text;
    for (const e of [...edits].reverse()) slow = slow.slice(0, e.start) + e.with + slow.slice(e.end);
    assert.strictEqual(
      splice(
        text,
        [...edits].sort(() => Math.random() - 0.5),
      ),
      slow,
    );
  });

  it('write back among many stray blocks removes them all and keeps the others', () => {
    const strays = Array.from({ length: 300 }, (_, i) => `[o${i}]\nmode = "web"\n[[k.dispatch_steps]]\ntool = "t"\n`).join('');
    const out = upsertAgentSection(`[k]\nmode = "embedded"\n${strays}`, {
      key: 'k',
      mode: 'embedded',
      note: 'n',
      dispatch_steps: [],
    } as never);
    const agents = parseTeam(out, 't').agents;
    assert.strictEqual(agents.length, 301);
    assert.deepStrictEqual(agents.find((a) => a.key === 'k')?.dispatch_steps, []);
  });

  it('team.toml: warnings are capped and counted, and a file past the size limit is refused with a clear error', () => {
    const fields = Array.from({ length: 500 }, (_, i) => `x${i} = 1\n`).join('');
    const { warnings } = parseTeam(`[a]\nmode = "embedded"\n${fields}`, 't');
    assert.strictEqual(warnings.length, WARNINGS_MAX + 1);
    assert.match(warnings.at(-1)!, /480 more unknown or deprecated fields ignored/);
    const big = `[a]\nmode = "embedded"\nnote = "${'x'.repeat(TEAM_FILE_MAX)}"\n`;
    assert.throws(
      () => parseTeam(big, 't'),
      (e: unknown) => e instanceof TeamError && /read up to 256 KB/.test(e.message),
    );
  });

  it('team.toml: agents come back in file order, many sections included', () => {
    const keys = Array.from({ length: 400 }, (_, i) => `a${(i * 7919) % 400}`);
    const text = keys.map((k) => `[${k}]\nmode = "embedded"\n`).join('');
    assert.deepStrictEqual(
      parseTeam(text, 't').agents.map((a) => a.key),
      keys,
    );
  });

  it('settings.json: a hostile depth is a clear InstallError, and a file of 200,000 lines still gets our hooks', () => {
    const entry = { event: 'Stop', command: '/h/.agent-lens/bin/agent-lens-report claude-code', timeout: 10 } as never;
    const deep = `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    assert.throws(
      () => addHooks(deep, [entry], 'settings.json'),
      (e: unknown) => e instanceof InstallError && /nested too deeply/.test(e.message),
    );
    const many = `{\n${Array.from({ length: 200_000 }, (_, i) => `  "k${i}": 1,\n`).join('')}  "z": 1\n}\n`;
    const out = JSON.parse(addHooks(many, [entry], 'settings.json')) as { hooks: { Stop: unknown[] }; k199999: number };
    assert.strictEqual(out.hooks.Stop.length, 1);
    assert.strictEqual(out.k199999, 1);
  });

  it('shellQuote quotes every single quote', () => {
    assert.strictEqual(shellQuote("a'b''"), `'a'\\''b'\\'''\\'''`);
    assert.strictEqual(shellQuote(''), "''");
  });
});
