import * as assert from 'assert';
import * as fs from 'fs';
import * as http from 'http';
import * as path from 'path';

/**
 * Seed 002 §7.2's doorbell contract as a table, run against the extension's hub in-process
 * (handoff.test.ts) and against `agent-lens serve` as a black box (serve.test.ts).
 */

export interface Answer {
  status: number;
  text: string;
  json: any;
}

export function send(
  port: number,
  method: string,
  p: string,
  opts: { token?: string; bearer?: string; body?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = opts.body === undefined ? undefined : Buffer.isBuffer(opts.body) ? opts.body : Buffer.from(opts.body);
    const headers: Record<string, string | number> = { host: `127.0.0.1:${port}`, ...(opts.headers ?? {}) };
    if (opts.token !== undefined) headers['x-handoff-token'] = opts.token;
    if (opts.bearer !== undefined) headers.authorization = `Bearer ${opts.bearer}`;
    if (body) {
      headers['content-type'] ??= 'application/json';
      headers['content-length'] = body.length;
    }
    const req = http.request({ host: '127.0.0.1', port, path: p, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode!, text, json });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

export interface ContractHost {
  port: number;
  token: string;
  /** The handoff root (boards under it). */
  root: string;
  /** A registered, drivable agent whose delivery works. */
  agent: string;
  /** Restarts the hub (new port and token), keeping the folder. */
  restart(): Promise<{ port: number; token: string }>;
  /** What the agent's terminal received so far. */
  typed(): Promise<string>;
}

const ev = (id: string, status: string, summary: string, report_path: string | null = null) =>
  JSON.stringify({ id, status, summary, report_path });

export function doorbellContract(host: () => ContractHost): void {
  const post = (body: string | Buffer, token = host().token) => send(host().port, 'POST', '/handoff', { token, body });
  const board = (agent = host().agent) => JSON.parse(fs.readFileSync(path.join(host().root, agent, 'status.json'), 'utf8'));
  const dispatch = (task: string, brief = 'Do the thing.') =>
    send(host().port, 'POST', '/handoff/dispatch', {
      token: host().token,
      body: JSON.stringify({ agent: host().agent, task_id: task, brief }),
    });

  it('403 with an empty body for a missing or wrong X-Handoff-Token; the board does not move', async () => {
    const before = fs.existsSync(path.join(host().root, host().agent, 'status.json')) ? board() : undefined;
    for (const token of [undefined, '', 'wrong', host().token.slice(1), `${host().token}x`]) {
      const a = await send(host().port, 'POST', '/handoff', { token, body: ev(`${host().agent}::x`, 'done', 'sneaky') });
      assert.deepStrictEqual([a.status, a.text], [403, ''], `token ${token}`);
    }
    assert.deepStrictEqual(fs.existsSync(path.join(host().root, host().agent, 'status.json')) ? board() : undefined, before);
  });

  it('GET /handoff/health needs no token; the boards read-out does', async () => {
    const h = await send(host().port, 'GET', '/handoff/health');
    assert.strictEqual(h.status, 200);
    assert.strictEqual(h.json.ok, true);
    assert.strictEqual((await send(host().port, 'GET', '/handoff/boards')).status, 403);
    assert.strictEqual((await send(host().port, 'GET', '/handoff/boards', { token: host().token })).status, 200);
  });

  it('422 when id, status or summary is missing; 400 for a bad status, an empty id or summary, or a body that is not JSON', async () => {
    const id = `${host().agent}::t`;
    const cases: [string | Buffer, number][] = [
      [JSON.stringify({ status: 'done', summary: 's' }), 422],
      [JSON.stringify({ id, summary: 's' }), 422],
      [JSON.stringify({ id, status: 'done' }), 422],
      [JSON.stringify({ id: 7, status: 'done', summary: 's' }), 422],
      [JSON.stringify({ id, status: 'done', summary: 's', report_path: 3 }), 422],
      ['[]', 422],
      ['"done"', 422],
      [ev(id, 'finished', 's'), 400],
      [ev(id, 'DONE', 's'), 400],
      [ev('', 'done', 's'), 400],
      [ev('   ', 'done', 's'), 400],
      [ev(id, 'done', ''), 400],
      [ev(id, 'done', ' \n '), 400],
      ['{"id":', 400],
      ['not json', 400],
      [Buffer.from([0x7b, 0xff, 0x7d]), 400],
    ];
    for (const [body, want] of cases) assert.strictEqual((await post(body)).status, want, String(body));
  });

  it('dispatch boards the task in progress and types the message; progress folds to the latest; done is terminal and idempotent', async () => {
    const d = await dispatch('0101-01');
    assert.strictEqual(d.status, 200, d.text);
    assert.strictEqual(d.json.submitted, true);
    assert.strictEqual(d.json.delivered, true, d.text);
    const briefPath = path.join(host().root, host().agent, 'briefs', '0101-01-brief.md');
    assert.strictEqual(d.json.brief_path, briefPath);
    assert.match(fs.readFileSync(briefPath, 'utf8'), /X-Handoff-Token/);
    assert.ok((await host().typed()).includes(`Read ${briefPath} and execute it.`), await host().typed());
    assert.strictEqual(board().state, 'in_progress');
    const id = `${host().agent}::0101-01`;
    assert.strictEqual((await post(ev(id, 'progress', 'first'))).status, 200);
    assert.strictEqual((await post(ev(id, 'progress', 'second'))).status, 200);
    assert.deepStrictEqual([board().state, board().progress.summary, board().last_event.summary], ['in_progress', 'second', 'second']);
    const report = path.join(host().root, host().agent, 'reports', '0101-01-report.md');
    const done = await post(ev(id, 'done', 'all good', report));
    assert.deepStrictEqual([done.status, done.json.state], [200, 'done']);
    assert.deepStrictEqual([board().state, board().progress, board().report_path], ['done', null, report]);
    const again = await post(ev(id, 'done', 'all good', report));
    assert.deepStrictEqual([again.status, again.json.outcome], [200, 'duplicate']);
    const late = await post(ev(id, 'progress', 'late'));
    assert.deepStrictEqual([late.status, board().state, board().last_event.summary], [200, 'done', 'late']);
  });

  it('the task-id gate: another task id only updates last_event, with a warning, never the state', async () => {
    assert.strictEqual((await dispatch('0101-02')).status, 200);
    const a = await post(ev(`${host().agent}::0101-01`, 'done', 'old round'));
    assert.strictEqual(a.status, 200);
    assert.match(a.json.warning, /not .*current task/);
    assert.deepStrictEqual([board().state, board().task_id, board().last_event.summary], ['in_progress', '0101-02', 'old round']);
    const log = fs.readFileSync(path.join(host().root, host().agent, 'events.jsonl'), 'utf8');
    assert.match(log, /old round/, 'the event is kept');
  });

  it('the in-flight gate refuses another task id, naming the two ways out; cancel frees it', async () => {
    const r = await dispatch('0101-03');
    assert.strictEqual(r.status, 409);
    assert.match(r.json.refused, /wait for its doorbell/);
    assert.match(r.json.refused, /cancel/);
    assert.strictEqual(board().task_id, '0101-02', 'the board is untouched');
    const c = await post(ev(`${host().agent}::0101-02`, 'cancelled', 'changed plans'));
    assert.deepStrictEqual([c.status, board().state], [200, 'cancelled']);
    assert.strictEqual((await dispatch('0101-03')).status, 200);
    assert.strictEqual((await dispatch('0101-03')).status, 200, 'the same task id may be dispatched again (rework)');
  });

  it('an id without "::" is accepted and warned about; summaries are one line, cut at 500, UTF-8 kept', async () => {
    const a = await post(ev('0101-03', 'done', 'no prefix'));
    assert.strictEqual(a.status, 200);
    assert.match(a.json.warning, /no "\{agent\}::" prefix/);
    assert.strictEqual(board().state, 'in_progress');
    const id = `${host().agent}::0101-03`;
    assert.strictEqual((await post(ev(id, 'progress', '第一行\n第二行：完成了 ✅'))).status, 200);
    assert.strictEqual(board().progress.summary, '第一行 第二行：完成了 ✅');
    assert.strictEqual((await post(ev(id, 'progress', 'x'.repeat(2000)))).status, 200);
    assert.strictEqual(board().progress.summary.length, 500);
  });

  it('refuses a report_path outside the handoff folder and dispatches whose names escape the root', async () => {
    const id = `${host().agent}::0101-03`;
    assert.strictEqual((await post(ev(id, 'done', 's', '/etc/passwd'))).status, 400);
    assert.strictEqual((await post(ev(id, 'done', 's', '../../outside.md'))).status, 400);
    for (const task of ['../x', 'a/b', '/abs', '..', '']) {
      const r = await send(host().port, 'POST', '/handoff/dispatch', {
        token: host().token,
        body: JSON.stringify({ agent: host().agent, task_id: task, brief: 'b' }),
      });
      assert.ok(r.status === 400 || r.status === 422, `${task}: ${r.status}`);
    }
    const r = await send(host().port, 'POST', '/handoff/dispatch', {
      token: host().token,
      body: JSON.stringify({ agent: '../evil', task_id: 't', brief: 'b' }),
    });
    assert.strictEqual(r.status, 400);
    assert.ok(!fs.existsSync(path.join(host().root, '..', 'evil')));
  });

  it('many concurrent events leave one consistent board, on disk too', async () => {
    const id = `${host().agent}::0101-03`;
    const all = await Promise.all(Array.from({ length: 100 }, (_, i) => post(ev(id, i === 99 ? 'done' : 'progress', `p${i}`))));
    assert.ok(all.every((a) => a.status === 200));
    const b = board();
    assert.strictEqual(b.state, 'done');
    assert.strictEqual(b.progress, null);
    const boards = (await send(host().port, 'GET', '/handoff/boards', { token: host().token })).json.boards;
    assert.deepStrictEqual(
      boards.find((x: { agent: string }) => x.agent === host().agent),
      b,
    );
  });

  it('a restart resets every board to idle and the old token gets 403', async () => {
    const old = host().token;
    const { port, token } = await host().restart();
    assert.notStrictEqual(token, old);
    assert.strictEqual(board().state, 'idle');
    assert.strictEqual(
      (await send(port, 'POST', '/handoff', { token: old, body: ev(`${host().agent}::0101-03`, 'done', 's') })).status,
      403,
    );
    assert.strictEqual((await send(port, 'POST', '/handoff', { token, body: ev(`${host().agent}::0101-03`, 'done', 's') })).status, 200);
    assert.strictEqual(board().state, 'idle', 'an event of a task from before the restart does not move the new board');
  });
}
