import * as assert from 'assert';
import { spawn } from 'child_process';
import * as fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { REPORT_BODY_LIMIT, REPORT_PATH } from '../../../src/hooks/wire';
import { writeDiscovery } from '../../../src/hub/discovery';
import { Hub } from '../../../src/hub/hub';
import { HookSource } from '../../../src/sources/hooks/hookSource';
import { AgentStore } from '../../../src/store/store';
import { fixtureFiles, fuzzSeed, mutatedObject, realLines, ROOT } from './mutate';

/** Each run starts a process: `npm test` runs a few dozen, `npm run fuzz` many more (AGENT_LENS_FUZZ_REPORTER_RUNS). */
const RUNS = Number(process.env.AGENT_LENS_FUZZ_REPORTER_RUNS ?? 40);
const STDIN_LIMIT = 1024 * 1024;

function runReporter(stdin: Buffer, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [path.join(ROOT, 'dist/agent-lens-report.js'), 'claude-code'], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      p.kill('SIGKILL');
      reject(new Error('the reporter did not exit within 20 s'));
    }, 20_000);
    p.stdout.on('data', (c) => (stdout += c));
    p.stderr.on('data', (c) => (stderr += c));
    p.stdin.on('error', () => undefined);
    p.stdin.end(stdin);
    p.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function isObjectJson(b: Buffer): boolean {
  if (b.length > STDIN_LIMIT) return false;
  try {
    const v = JSON.parse(b.toString('utf8')) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

const SEED = fuzzSeed();

describe(`fuzz: the hook reporter’s stdin (seed ${SEED})`, function () {
  this.timeout(Math.max(120_000, RUNS * 1000));
  let home: string;
  let hub: Hub;
  let env: NodeJS.ProcessEnv;
  let received = 0;
  let last: { payload?: Record<string, unknown> } | undefined;

  before(async () => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'al-repfuzz-'));
    const store = new AgentStore();
    const hooks = new HookSource(store, { terminalFor: () => undefined });
    hub = new Hub({ bodyLimit: REPORT_BODY_LIMIT });
    hub.mount(REPORT_PATH, (b) => {
      received++;
      last = b as typeof last;
      return hooks.handle(b);
    });
    const port = await hub.listen();
    const discovery = path.join(home, 'hub.json');
    writeDiscovery(discovery, { v: 1, port, token: hub.token, pid: process.pid });
    env = { PATH: process.env.PATH, HOME: home, AGENT_LENS_HUB: discovery };
  });
  after(async () => {
    await hub.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('regression: a payload over the hub limit after the usual trim still arrives, cut harder, with its event name', async () => {
    const big = {
      hook_event_name: 'Stop',
      session_id: 's-1',
      ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`field${i}`, 'x'.repeat(9000)])),
    };
    const before = received;
    const r = await runReporter(Buffer.from(JSON.stringify(big)), env);
    assert.deepStrictEqual([r.code, r.stdout, received - before], [0, '', 1]);
    assert.strictEqual(last?.payload?.hook_event_name, 'Stop');
    assert.strictEqual(last?.payload?.session_id, 's-1');
    assert.ok(String(last?.payload?.field0).length <= 2001, 'texts were cut to fit');
  });

  it(`random bytes, cut and mutated payloads, huge and deep JSON: exit 0, silent, one valid report per JSON object (${RUNS} runs)`, async () => {
    const payloads = realLines(fixtureFiles('hooks.jsonl', 'claude-code'), 200).map(
      (l) => (JSON.parse(l) as { payload: Record<string, unknown> }).payload,
    );
    const stdin = fc.oneof(
      { weight: 3, arbitrary: mutatedObject(payloads).map((o) => Buffer.from(JSON.stringify(o))) },
      {
        weight: 2,
        arbitrary: fc.tuple(fc.constantFrom(...payloads), fc.nat()).map(([p, n]) => {
          const t = JSON.stringify(p);
          return Buffer.from(t.slice(0, n % t.length));
        }),
      },
      { weight: 2, arbitrary: fc.uint8Array({ maxLength: 2000 }).map((b) => Buffer.from(b)) },
      {
        weight: 1,
        arbitrary: fc
          .integer({ min: 1, max: 300 })
          .map((n) =>
            Buffer.from(JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`field${i}`, 'x'.repeat(9000)])))),
          ),
      },
      { weight: 1, arbitrary: fc.integer({ min: 10, max: 200_000 }).map((d) => Buffer.from(`{"a":${'['.repeat(d)}${']'.repeat(d)}}`)) },
      { weight: 1, arbitrary: fc.integer({ min: -100, max: 100 }).map((d) => Buffer.from(`{"a":"${'y'.repeat(STDIN_LIMIT - 8 + d)}"}`)) },
    );
    await fc.assert(
      fc.asyncProperty(stdin, async (input) => {
        const before = received;
        const refused = [...hub.refused.values()].reduce((a, b) => a + b, 0);
        const r = await runReporter(input, env);
        assert.deepStrictEqual([r.code, r.stdout], [0, ''], `exit code and stdout (stderr: ${r.stderr.slice(0, 200)})`);
        const want = isObjectJson(input) ? 1 : 0;
        assert.strictEqual(
          received - before,
          want,
          `reports the hub got for ${input.length} bytes starting ${JSON.stringify(input.subarray(0, 60).toString('latin1'))}`,
        );
        assert.strictEqual(
          [...hub.refused.values()].reduce((a, b) => a + b, 0),
          refused,
          `the hub refused the report: ${JSON.stringify([...hub.refused])}`,
        );
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
