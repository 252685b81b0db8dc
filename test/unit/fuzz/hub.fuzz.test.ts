import * as assert from 'assert';
import * as fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { BOARDS_PATH, DISPATCH_PATH, DOORBELL_PATH, HEALTH_PATH } from '../../../src/handoff/doorbell';
import { REPORT_BODY_LIMIT, REPORT_PATH } from '../../../src/hooks/wire';
import { serve, type Served } from '../../../src/cli/serve';
import { fuzzSeed } from './mutate';
import { allowedStatuses, encode, type FuzzRequest, requestArb, type RouteSpec, send, tokenValid } from './httpFuzz';

/** `npm test` sends a few thousand; `npm run fuzz` sends 100,000 (AGENT_LENS_FUZZ_REQUESTS). */
const N = Number(process.env.AGENT_LENS_FUZZ_REQUESTS ?? 3000);
const SEED = fuzzSeed();
const CONCURRENCY = 16;

const ROUTES = new Map<string, RouteSpec>([
  [REPORT_PATH, { method: 'POST', auth: 'token' }],
  [DOORBELL_PATH, { method: 'POST', auth: 'token' }],
  [DISPATCH_PATH, { method: 'POST', auth: 'token' }],
  [BOARDS_PATH, { method: 'GET', auth: 'token' }],
  [HEALTH_PATH, { method: 'GET', auth: 'none' }],
]);

function listFiles(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) listFiles(p, out);
    else {
      const st = fs.statSync(p);
      out.push(`${p} ${st.size} ${st.mtimeMs}`);
    }
  }
  return out.sort();
}

function describeReq(r: FuzzRequest): string {
  return `${r.method} ${r.path.slice(0, 60)} host=${r.host} origin=${r.origin} sfs=${r.secFetchSite} token=${r.token} type=${r.contentType} body=${r.body ? `${r.body.kind}/${r.body.bytes.length}B ${JSON.stringify(r.body.bytes.subarray(0, 100).toString('latin1'))}` : '-'}${r.chunked ? ' chunked' : ''}`;
}

describe('fuzz: hub and doorbell over real HTTP', function () {
  this.timeout(Math.max(120_000, N * 5));
  let tmp: string;
  let served: Served;
  let token: string;
  const logs: string[] = [];
  const rejections: unknown[] = [];
  const onRejection = (e: unknown) => rejections.push(e);
  let tmuxTmp: string | undefined;

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'al-fuzz-'));
    const root = path.join(tmp, 'handoff');
    fs.mkdirSync(root, { recursive: true });
    fs.writeFileSync(path.join(root, 'team.toml'), '[worker]\nmode = "background"\nprocess = "cat"\ntmux = "agents:0.0"\n');
    // No tmux server is reachable from here: a dispatch that gets that far fails cleanly.
    tmuxTmp = process.env.TMUX_TMPDIR;
    process.env.TMUX_TMPDIR = path.join(tmp, 'no-tmux');
    process.on('unhandledRejection', onRejection);
    served = await serve({ root, infoFile: path.join(tmp, 'run', 'hub.json'), log: (l) => logs.push(l) });
    token = (JSON.parse(fs.readFileSync(path.join(tmp, 'run', 'hub.json'), 'utf8')) as { token: string }).token;
  });

  after(async () => {
    await served?.close();
    process.off('unhandledRejection', onRejection);
    if (tmuxTmp === undefined) delete process.env.TMUX_TMPDIR;
    else process.env.TMUX_TMPDIR = tmuxTmp;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const fingerprint = () =>
    JSON.stringify({
      t: served.store.terminals(),
      w: served.store.waits(),
      s: served.store.sessions(),
      b: served.service.boards.all(),
      u: served.service.boards.ungrouped,
      f: listFiles(path.join(tmp, 'handoff')),
    });

  /** Sends every request (16 at a time); returns the answers that were not among the allowed ones. */
  async function run(reqs: FuzzRequest[]): Promise<{ wrong: string[]; statuses: Map<number, number> }> {
    const wrong: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < reqs.length) {
        const r = reqs[next++];
        const { status, head, ms } = await send(served.port, encode(r, served.port, token));
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        const allowed = allowedStatuses(r, ROUTES, REPORT_BODY_LIMIT);
        if (!allowed.includes(status) && wrong.length < 10)
          wrong.push(
            `${describeReq(r)} → ${status} after ${ms} ms (want ${allowed.join('/')}): ${head.split('\r\n')[0]} ${head.split('\r\n\r\n')[1] ?? ''}`,
          );
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    return { wrong, statuses };
  }

  it(`changes nothing for ${Math.ceil(N / 4)} requests without a valid token, Host or Origin (seed ${SEED})`, async () => {
    const unauth = requestArb(ROUTES, REPORT_BODY_LIMIT).filter(
      (r) => r.path.split('?')[0] !== HEALTH_PATH && (!tokenValid(r) || r.origin || !['ip', 'localhost', 'upper'].includes(r.host)),
    );
    const reqs = fc.sample(unauth, { numRuns: Math.ceil(N / 4), seed: SEED });
    const before = fingerprint();
    const { wrong, statuses } = await run(reqs);
    assert.deepStrictEqual(wrong, []);
    assert.strictEqual(fingerprint(), before, 'a request without a valid token changed state');
    assert.ok(!statuses.has(200) && !statuses.has(204), `an unauthenticated request was served: ${[...statuses].join(' ')}`);
  });

  it(`answers ${N} generated requests with their documented status, never 500 (seed ${SEED})`, async () => {
    const reqs = fc.sample(requestArb(ROUTES, REPORT_BODY_LIMIT), { numRuns: N, seed: SEED + 1 });
    const before = fingerprint();
    const { wrong, statuses } = await run(reqs);
    assert.deepStrictEqual(wrong, [], `hub log tail:\n${logs.slice(-5).join('\n')}`);
    assert.ok(!statuses.has(500), 'a 500 answer');
    // The mixed run did reach the handlers: the fingerprint check above can fail.
    assert.ok((statuses.get(200) ?? 0) > 0, `no request was served: ${[...statuses].join(' ')}`);
    assert.notStrictEqual(fingerprint(), before, 'valid requests changed nothing: the state check would see nothing either');
    console.log(
      `      statuses: ${[...statuses]
        .sort((a, b) => a[0] - b[0])
        .map(([s, n]) => `${s}×${n}`)
        .join(' ')}`,
    );
  });

  it('still answers, saw no unhandled rejection, and never logged the token', async () => {
    const { status } = await send(
      served.port,
      Buffer.from(`GET ${HEALTH_PATH} HTTP/1.1\r\nHost: 127.0.0.1:${served.port}\r\nConnection: close\r\n\r\n`),
    );
    assert.strictEqual(status, 200);
    assert.deepStrictEqual(rejections, []);
    assert.ok(!logs.some((l) => l.includes(token)), 'the token is in a log line');
  });
});
