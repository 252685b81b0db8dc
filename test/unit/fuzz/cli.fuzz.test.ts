import * as assert from 'assert';
import * as fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { main } from '../../../src/cli/cli';
import { fuzzSeed } from './mutate';

const RUNS = Number(process.env.AGENT_LENS_FUZZ_RUNS ?? 300);

const SEED = fuzzSeed();

describe(`fuzz: the CLI arguments (seed ${SEED})`, function () {
  this.timeout(600_000);
  let tmp: string;
  let files: string[];
  let hubEnv: string | undefined;

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'al-clifuzz-'));
    const f = (name: string, text: string | Buffer) => {
      fs.writeFileSync(path.join(tmp, name), text);
      return path.join(tmp, name);
    };
    files = [
      f(
        'ok.cast',
        '{"version":2,"width":80,"height":24,"timestamp":1796234237}\n[0.1,"o","hello\\r\\n"]\n[0.5,"o","\\u001b]0;✳ Claude Code\\u0007"]\n[1,"x","0"]\n',
      ),
      f('garbage.cast', Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x5b])),
      f('empty.cast', ''),
      f('v3.cast', '{"version":3,"term":{"cols":80,"rows":24}}\n[0.1,"o","x"]\n[0.1,"r","100x40"]\n'),
      f(
        'transcript.jsonl',
        '{"type":"user","sessionId":"s","message":{"role":"user","content":"hi"},"timestamp":"2026-12-01T00:00:00Z"}\n{oops\n',
      ),
      f('hooks.jsonl', '{"t":0.2,"agent":"claude-code","payload":{"hook_event_name":"Notification"}}\n[1,2]\n'),
      f('brief.md', 'do it'),
      f('hub-garbage.json', '{"port":"x"'),
      f('hub-closed.json', JSON.stringify({ v: 1, port: 1, token: 'a'.repeat(64), pid: 1 })),
      tmp, // a folder where a file is expected
      path.join(tmp, 'missing.cast'),
      '../../../etc/passwd',
      '',
    ];
    hubEnv = process.env.AGENT_LENS_HUB;
  });
  after(() => {
    if (hubEnv === undefined) delete process.env.AGENT_LENS_HUB;
    else process.env.AGENT_LENS_HUB = hubEnv;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const FLAGS = [
    '--command-line',
    '--cols',
    '--rows',
    '--screen',
    '--log',
    '--hooks',
    '--t0',
    '--help',
    '-h',
    '--root',
    '--team',
    '--port',
    '--info-file',
    '--id',
    '--status',
    '--summary',
    '--report',
    '--reason',
    '--agent',
    '--task-id',
    '--brief',
    '--message',
    '--json',
    '--',
  ];
  const word = () =>
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...FLAGS) },
      { weight: 3, arbitrary: fc.constantFrom(...files) },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          '0',
          '-1',
          '1e309',
          'NaN',
          '99999999',
          '80',
          'x',
          'done',
          'progress',
          'a::b',
          '../x::y',
          'claude',
          'codex exec hi',
          '\n',
          '\x1b[2J',
        ),
      },
      { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...FLAGS), fc.string({ maxLength: 10 })).map(([f, v]) => `${f}=${v}`) },
      { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
    );

  /** Command lines with every required flag and one odd value, so the run gets past the flag checks. */
  const nearlyValid = () => {
    const v = () => word();
    return fc.oneof(
      fc.tuple(fc.constantFrom(...files), fc.array(v(), { maxLength: 4 })).map(([f, more]) => ({ cmd: 'replay', args: [f, ...more] })),
      fc
        .tuple(v(), fc.constantFrom('done', 'progress', 'blocked', 'x'), v(), fc.option(v(), { nil: undefined }))
        .map(([id, st, sum, rep]) => ({
          cmd: 'task',
          args: ['report', '--id', id, '--status', st, '--summary', sum, ...(rep ? ['--report', rep] : [])],
        })),
      fc.tuple(v(), v()).map(([id, why]) => ({ cmd: 'task', args: ['cancel', '--id', id, '--reason', why] })),
      fc
        .tuple(v(), v(), fc.constantFrom(...files), fc.option(v(), { nil: undefined }))
        .map(([a, t, b, m]) => ({ cmd: 'dispatch', args: ['--agent', a, '--task-id', t, '--brief', b, ...(m ? ['--message', m] : [])] })),
      fc.constantFrom({ cmd: 'status', args: [] }, { cmd: 'status', args: ['--json'] }),
    );
  };

  it('every argument list ends in 0, 1 or 2 with one-line errors, never a throw or an internal error', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(undefined, 'replay', 'serve', 'task', 'dispatch', 'status', 'help', 'nope'),
        fc.option(fc.constantFrom('report', 'cancel', 'x'), { nil: undefined }),
        fc.oneof(fc.array(word(), { maxLength: 8 }), nearlyValid()),
        fc.constantFrom('hub-garbage.json', 'hub-closed.json', 'missing.json'),
        async (cmd0, sub, rest0, hub) => {
          // A nearly valid line brings its own command.
          const [cmd, rest] = Array.isArray(rest0) ? [cmd0, rest0] : [rest0.cmd, rest0.args];
          const argv = [...(cmd === undefined ? [] : [cmd]), ...(cmd === 'task' && sub && Array.isArray(rest0) ? [sub] : []), ...rest];
          // A serve given both of its required flags would serve until SIGTERM: not an argument error to look for.
          fc.pre(!(cmd === 'serve' && rest.some((a) => a.startsWith('--root')) && rest.some((a) => a.startsWith('--info-file'))));
          process.env.AGENT_LENS_HUB = path.join(tmp, hub);
          const errs: string[] = [];
          const code = await main(
            argv,
            () => undefined,
            (s) => errs.push(s),
          );
          assert.ok(code === 0 || code === 1 || code === 2, `exit code ${code} for ${JSON.stringify(argv)}`);
          for (const e of errs) {
            assert.ok(!/internal error|TypeError|Cannot read prop|is not a function|undefined/.test(e), `${JSON.stringify(argv)}: ${e}`);
          }
          // No arguments at all: the usage text is the answer (stdout, exit 2).
          if (code !== 0 && argv.length > 0)
            assert.ok(
              errs.length > 0 && errs.every((e) => e.length > 0 && !e.slice(0, -1).includes('\n')),
              `${JSON.stringify(argv)} → ${code} with ${JSON.stringify(errs)}`,
            );
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
