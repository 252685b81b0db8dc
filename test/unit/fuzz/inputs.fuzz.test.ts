import * as assert from 'assert';
import * as fc from 'fast-check';
import * as fs from 'fs';
import * as path from 'path';
import { TerminalDetector } from '../../../src/detect/detector';
import { parseTeam, TeamError } from '../../../src/handoff/team/registry';
import { REPORTING_AGENTS } from '../../../src/agents/hookEvents';
import { HubError } from '../../../src/hub/security';
import { decoderFor } from '../../../src/jsonl';
import { CastError, parseCast } from '../../../src/formats/cast';
import { HookFileError, parseHookFile } from '../../../src/formats/hookFile';
import { decodeLogFile, LogFileError } from '../../../src/replay/logFiles';
import { HookSource } from '../../../src/sources/hooks/hookSource';
import { AgentStore } from '../../../src/store/store';
import { cleanOutcome, fixtureFiles, fuzzSeed, mutatedLine, mutatedObject, realLines, ROOT } from './mutate';
import { AGENT_STATES } from '../../../src/common/states';

/** Runs per property in `npm test`; `npm run fuzz` sets more (AGENT_LENS_FUZZ_RUNS). */
const RUNS = Number(process.env.AGENT_LENS_FUZZ_RUNS ?? 300);
const SEED = fuzzSeed();
const opts = (extra: Partial<fc.Parameters<unknown>> = {}) => ({ numRuns: RUNS, seed: SEED, ...extra });

const ESC = '\x1b';
/** Escape sequences a terminal stream may hold, well-formed or not, with random parameters. */
const escape = fc.oneof(
  fc
    .tuple(
      fc.array(fc.oneof(fc.nat(99999).map(String), fc.constant('')), { maxLength: 40 }),
      fc.constantFrom('m', 'H', 'J', 'K', 'h', 'l', 'r', 'S', 'T', '@', 'P', 'X', 'q', 'u', 't'),
    )
    .map(([ps, f]) => `${ESC}[${ps.join(';')}${f}`),
  fc
    .tuple(fc.constantFrom('?1049', '?2026', '?25', '?1', '?2004', '?1004', '>4;0', '>7', '?u'), fc.constantFrom('h', 'l', 'm', 'u'))
    .map(([p, f]) => `${ESC}[${p}${f}`),
  fc
    .tuple(
      fc.constantFrom(0, 2, 7, 8, 10, 11, 52, 99, 133, 633, 1337, 7501, 9),
      fc.string({ maxLength: 200 }),
      fc.constantFrom('\x07', `${ESC}\\`, ''),
    )
    .map(([n, b, t]) => `${ESC}]${n};${b}${t}`),
  fc.constantFrom(
    `${ESC}]7501;state=working:app=codex${ESC}\\`,
    `${ESC}]7501;state=blocked:app=codex:kind=permission${ESC}\\`,
    `${ESC}]7501;state=done:app=codex${ESC}\\`,
    `${ESC}]0;✳ Claude Code\x07`,
    `${ESC}]0;π - demo\x07`,
  ),
  fc.string({ maxLength: 300 }).map((s) => `${ESC}P${s}${ESC}\\`),
  fc.constantFrom(
    `${ESC}c`,
    `${ESC}7`,
    `${ESC}8`,
    `${ESC}M`,
    `${ESC}(0`,
    `${ESC}(B`,
    `${ESC}`,
    `${ESC}[`,
    `${ESC}]`,
    '\r',
    '\n',
    '\b',
    '\t',
    '\x00',
    '\u009b31m',
  ),
);
const screenText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')),
  fc.constantFrom(
    '❯ 1. Yes\r\n  2. No\r\n',
    ' Do you want to proceed?\r\n',
    '✻ Worked for 3s · done',
    'esc to interrupt',
    '› Ask Codex to do anything',
    '↑↓ navigate  enter select  escape/ctrl+c cancel',
    '─'.repeat(120),
    'Enter to confirm · Esc to cancel',
    '(y/n) ',
  ),
);
const chunk = fc.oneof(
  { weight: 3, arbitrary: screenText },
  { weight: 3, arbitrary: escape },
  { weight: 1, arbitrary: fc.array(escape, { maxLength: 30 }).map((a) => a.join('')) },
);

describe(`fuzz: hostile input to every reader (seed ${SEED})`, function () {
  this.timeout(600_000);

  it('the terminal stream: random text, bytes and escape sequences never throw and always give a valid state', () => {
    const states: readonly string[] = AGENT_STATES;
    fc.assert(
      fc.property(
        fc.constantFrom(undefined, 'claude', 'codex', 'codex exec hi', 'opencode', 'gemini', 'pi', 'claude -p x', 'bash'),
        fc.array(
          fc.tuple(
            fc.double({ min: 0, max: 2, noNaN: true }),
            fc.oneof(
              { weight: 9, arbitrary: chunk },
              { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: 200 })) },
            ),
          ),
          { maxLength: 60 },
        ),
        fc.option(fc.integer({ min: -1, max: 255 }), { nil: undefined }),
        (commandLine, events, exitCode) => {
          const d = new TerminalDetector({ cols: 80, rows: 24, commandLine });
          let t = 0;
          for (const [dt, e] of events) {
            t += dt;
            if (typeof e === 'string') d.write(e, t);
            else d.resize(e[0], e[1], t);
            assert.ok(states.includes(d.detection.state), d.detection.state);
          }
          if (exitCode !== undefined) d.exit(exitCode, t + 1);
          d.advance(t + 10);
          assert.ok(states.includes(d.detection.state));
          assert.ok(d.detection.evidence.length < 10_000, 'evidence is bounded');
          d.dispose();
        },
      ),
      opts({ numRuns: RUNS * 2 }),
    );
  });

  it('the cast reader: mutated recordings and random text parse or fail with one CastError line', () => {
    const lines = realLines(fixtureFiles('session.cast'), 600);
    const header = lines.find((l) => l.startsWith('{'))!;
    const events = lines.filter((l) => l.startsWith('['));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(mutatedLine(events), { maxLength: 20 }).map((ls) => [header, ...ls].join('\n')),
          fc.tuple(mutatedLine([header]), fc.array(fc.constantFrom(...events), { maxLength: 5 })).map(([h, ls]) => [h, ...ls].join('\n')),
          fc.string({ maxLength: 400 }),
          fc.uint8Array({ maxLength: 400 }).map((b) => Buffer.from(b).toString('utf8')),
        ),
        (text) => {
          const bad = cleanOutcome(() => parseCast(text, 'fuzz.cast'), [CastError]);
          assert.strictEqual(bad, undefined);
        },
      ),
      opts(),
    );
  });

  it('the session-log decoders: mutated Claude transcripts, Codex rollouts and Gemini chat logs never throw, line by line', () => {
    for (const [agent, file] of [
      ['claude-code', 'transcript.jsonl'],
      ['codex', 'rollout.jsonl'],
      ['gemini', 'gemini-session.jsonl'],
    ] as const) {
      const lines = realLines(fixtureFiles(file), 500);
      assert.ok(lines.length > 50, `${agent}: real lines to start from`);
      fc.assert(
        fc.property(
          fc.array(fc.oneof({ weight: 9, arbitrary: mutatedLine(lines) }, { weight: 1, arbitrary: fc.string({ maxLength: 100 }) }), {
            minLength: 1,
            maxLength: 30,
          }),
          (ls) => {
            let problems = 0;
            const dec = decoderFor(agent, () => problems++);
            for (const l of ls)
              for (const e of dec.line(l)) assert.ok(AGENT_STATES.includes(e.state as never), `${agent}: event state ${e.state}`);
            assert.ok(problems >= 0);
          },
        ),
        opts(),
      );
    }
  });

  it('replay --log: whole mutated log files (OpenCode rows dumps too) decode or fail with one LogFileError line', () => {
    const dumps = fixtureFiles('storage.json')
      .slice(0, 8)
      .map((f) => JSON.parse(fs.readFileSync(f, 'utf8')) as Record<string, unknown>);
    const transcripts = realLines(fixtureFiles('transcript.jsonl'), 200);
    fc.assert(
      fc.property(
        fc.oneof(
          mutatedObject(dumps).map((o) => JSON.stringify(o, null, 1)),
          fc.array(mutatedLine(transcripts), { maxLength: 10 }).map((l) => l.join('\n')),
          fc.string({ maxLength: 300 }),
        ),
        (text) =>
          assert.strictEqual(
            cleanOutcome(() => decodeLogFile('fuzz.log', text), [LogFileError]),
            undefined,
          ),
      ),
      opts(),
    );
  });

  it('replay --hooks: mutated hook files parse or fail with one HookFileError line', () => {
    const lines = realLines([...fixtureFiles('hooks.jsonl'), ...fixtureFiles('events.jsonl')], 400);
    fc.assert(
      fc.property(fc.array(mutatedLine(lines), { maxLength: 10 }), (ls) =>
        assert.strictEqual(
          cleanOutcome(() => parseHookFile('fuzz.jsonl', ls.join('\n')), [HookFileError]),
          undefined,
        ),
      ),
      opts(),
    );
  });

  it('hook reports: mutated real payloads of every agent are recorded or refused with 400, and the store stays readable', () => {
    const payloads = realLines([...fixtureFiles('hooks.jsonl'), ...fixtureFiles('events.jsonl')], 600).map(
      (l) => (JSON.parse(l) as { payload: Record<string, unknown> }).payload,
    );
    const store = new AgentStore();
    store.openTerminal('T1', 'agent one');
    const hooks = new HookSource(store, { terminalFor: (pids) => (pids.includes(4242) ? 'T1' : undefined) });
    fc.assert(
      fc.property(
        fc.record(
          {
            v: fc.oneof({ weight: 9, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.jsonValue() }),
            agent: fc.constantFrom(...REPORTING_AGENTS, 'amp'),
            at: fc.oneof(fc.double({ min: 1, max: 2e12, noNaN: true }), fc.jsonValue()),
            pid: fc.constantFrom(4242, 1, undefined),
            payload: mutatedObject(payloads),
          },
          { requiredKeys: ['v', 'agent', 'at', 'payload'] },
        ),
        (body) => {
          const bad = cleanOutcome(() => hooks.handle(body), [HubError]);
          assert.strictEqual(bad, undefined);
          store.terminals();
          store.waits();
          store.sessions();
        },
      ),
      opts({ numRuns: RUNS * 3 }),
    );
    assert.ok(hooks.counts.recorded > 0, 'some mutated reports were still recorded: the property reached the mapping');
    store.dispose();
  });

  it('team.toml: mutated registries and random text parse or fail with one TeamError line', () => {
    const seed = fs.readFileSync(path.join(ROOT, 'test/unit/fuzz/team.sample.toml'), 'utf8');
    const edit = fc.tuple(
      fc.nat(),
      fc.nat(8),
      fc.oneof(
        fc.string({ maxLength: 6 }),
        fc.constantFrom('[', ']', '"', "'''", '"""', '=', '\n', '[[', '.', '\\', '#', '__proto__', '\u0000'),
      ),
    );
    fc.assert(
      fc.property(
        fc.oneof(
          {
            weight: 4,
            arbitrary: fc
              .array(edit, { minLength: 1, maxLength: 4 })
              .map((es) =>
                es.reduce((t, [at, del, ins]) => t.slice(0, at % (t.length + 1)) + ins + t.slice((at % (t.length + 1)) + del), seed),
              ),
          },
          { weight: 1, arbitrary: fc.string({ maxLength: 300 }) },
        ),
        (text) => {
          assert.strictEqual(
            cleanOutcome(() => parseTeam(text, 'team.toml'), [TeamError]),
            undefined,
          );
        },
      ),
      opts({ numRuns: RUNS * 2 }),
    );
  });
});
