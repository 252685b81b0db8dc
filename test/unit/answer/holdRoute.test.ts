/**
 * The hold route on a real hub over real HTTP: a Claude Code PermissionRequest is recorded as any report, then
 * held only when answering is on and provenance holds; it is answered with the user's decision alone, and with
 * nothing when its wait closes, its hook goes or its time runs out.
 */
import * as assert from 'assert';
import { HOLD_PATH } from '../../../src/hooks/decision';
import { REPORT_PATH } from '../../../src/hooks/wire';
import { OTHER_AGENT, permissionRequest, report, type Rig, SESSION, sleep, startRig, until, waitOfT } from './holdRig';

describe('answer: holdRoute (a real hub, real HTTP)', function () {
  this.timeout(30_000);
  let rig: Rig;
  afterEach(async () => rig && (await rig.close()));

  /** Posts the PermissionRequest and waits until it is held. */
  const held = async () => {
    const s = rig.post(HOLD_PATH, permissionRequest());
    await until(() => rig.pending.size === 1 || s.got !== undefined, 'the request to be held');
    assert.strictEqual(s.got, undefined, `held, not answered: ${JSON.stringify(s.got)}`);
    const waitId = waitOfT(rig)!;
    const r = rig.pending.offered(waitId)!;
    assert.ok(r, 'offered on its wait');
    return { s, waitId, r };
  };

  it('answering off: 204 at once, nothing held, the wait opened as from any report', async () => {
    rig = await startRig({ enabled: () => false });
    const a = await rig.post(HOLD_PATH, permissionRequest()).answer;
    assert.deepStrictEqual([a.status, a.body], [204, '']);
    assert.strictEqual(rig.pending.size, 0);
    assert.ok(waitOfT(rig), 'the dialog is a Needs-you wait all the same');
    assert.deepStrictEqual(rig.verdicts, [], 'provenance is not even asked');
  });

  it('provenance refused: 204 at once, nothing held, the reason logged', async () => {
    rig = await startRig({ provenance: () => ({ ok: false, why: 'its parent is not claude-code (a program posing as its hook)' }) });
    const a = await rig.post(HOLD_PATH, permissionRequest()).answer;
    assert.deepStrictEqual([a.status, a.body], [204, '']);
    assert.strictEqual(rig.pending.size, 0);
    assert.strictEqual(rig.verdicts.length, 1);
    assert.strictEqual(rig.verdicts[0].provenance, 'verified', 'the route hands the kernel’s verdict to the check');
    assert.ok(
      rig.logs.some((l) => l.includes('left to the terminal: its parent is not claude-code')),
      rig.logs.join('\n'),
    );
  });

  it('not held: AskUserQuestion, a subagent’s request, another event, another agent, no terminal', async () => {
    rig = await startRig();
    const ask = await rig.post(HOLD_PATH, permissionRequest({ tool_name: 'AskUserQuestion', tool_input: { questions: [] } })).answer;
    assert.strictEqual(ask.status, 204);
    // Claude Code hides a subagent's dialog while its hook holds: answered at once, the dialog is drawn.
    const sub = await rig.post(HOLD_PATH, permissionRequest({ agent_id: 'a4a6ddc090c38a6a0', agent_type: 'general-purpose' })).answer;
    assert.strictEqual(sub.status, 204);
    const other = await rig.post(HOLD_PATH, report({ hook_event_name: 'PreToolUse', session_id: SESSION, tool_name: 'Bash' })).answer;
    assert.strictEqual(other.status, 400);
    const codex = await rig.post(HOLD_PATH, { ...permissionRequest(), agent: 'codex' }).answer;
    assert.strictEqual(codex.status, 400);
    const nowhere = await rig.post(HOLD_PATH, permissionRequest({}, 4242)).answer;
    assert.strictEqual(nowhere.status, 204, 'a sender in no terminal is not held');
    assert.strictEqual((await rig.post(HOLD_PATH, { decision: { behavior: 'allow' } }).answer).status, 400);
    assert.strictEqual(rig.pending.size, 0);
  });

  it('held, then answered allow: the held response is 200 {decision:{behavior:allow}}, once', async () => {
    rig = await startRig();
    const { s, r } = await held();
    assert.strictEqual(r.tool, 'Bash');
    assert.deepStrictEqual(r.input, { command: 'rm -rf build', description: 'Remove the build directory' });
    assert.strictEqual(r.terminalId, 'T');
    await sleep(100);
    assert.strictEqual(s.got, undefined, 'still held');
    assert.strictEqual(rig.pending.answer(r.handle, { behavior: 'allow' }), 'sent');
    const a = await s.answer;
    assert.strictEqual(a.status, 200);
    assert.deepStrictEqual(JSON.parse(a.body), { decision: { behavior: 'allow' } });
    assert.strictEqual(rig.pending.answer(r.handle, { behavior: 'deny' }), 'gone');
    assert.strictEqual(rig.pending.size, 0);
  });

  it('held, then denied with a message: the held response carries it', async () => {
    rig = await startRig();
    const { s, r } = await held();
    assert.strictEqual(rig.pending.answer(r.handle, { behavior: 'deny', message: 'use a dry run' }), 'sent');
    const a = await s.answer;
    assert.deepStrictEqual([a.status, JSON.parse(a.body)], [200, { decision: { behavior: 'deny', message: 'use a dry run' } }]);
  });

  it('the wait closing (answered in the terminal: PostToolUse) ends the hold with 204 within 1 s', async () => {
    rig = await startRig();
    const { s, waitId, r } = await held();
    const t0 = performance.now();
    const post = await rig.post(REPORT_PATH, report({ hook_event_name: 'PostToolUse', session_id: SESSION, tool_name: 'Bash' })).answer;
    assert.strictEqual(post.status, 204);
    const a = await s.answer;
    assert.deepStrictEqual([a.status, a.body], [204, '']);
    assert.ok(a.at - t0 < 1000, `${a.at - t0} ms`);
    assert.ok(rig.store.wait(waitId)?.closedAt !== undefined, 'the wait closed');
    assert.strictEqual(rig.pending.size, 0);
    assert.strictEqual(rig.pending.answer(r.handle, { behavior: 'allow' }), 'gone', 'a late click sends nothing');
    assert.ok(
      rig.logs.some((l) => l.includes('left to the terminal: the dialog closed')),
      rig.logs.join('\n'),
    );
  });

  it('a report from another terminal closes nothing: the hold goes on', async () => {
    rig = await startRig();
    const { s, waitId, r } = await held();
    const other = report({ hook_event_name: 'PostToolUse', session_id: SESSION, tool_name: 'Bash' }, OTHER_AGENT);
    assert.strictEqual((await rig.post(REPORT_PATH, other).answer).status, 204);
    await sleep(200);
    assert.strictEqual(s.got, undefined);
    assert.strictEqual(rig.pending.offered(waitId), r);
  });

  it('the hook going (its socket destroyed) drops the request', async () => {
    rig = await startRig();
    const { s, r } = await held();
    s.req.destroy();
    await until(() => rig.pending.size === 0, 'the request to be dropped', 2000);
    assert.strictEqual(rig.pending.answer(r.handle, { behavior: 'allow' }), 'gone');
    assert.ok(
      rig.logs.some((l) => l.includes('left to the terminal: the hook went')),
      rig.logs.join('\n'),
    );
  });

  it('held past giveUpMs: 204, nothing decided', async () => {
    rig = await startRig({ giveUpMs: 300 });
    const { s } = await held();
    const a = await s.answer;
    assert.deepStrictEqual([a.status, a.body], [204, '']);
    assert.ok(a.at - s.sentAt >= 290, `${a.at - s.sentAt} ms`);
    assert.strictEqual(rig.pending.size, 0);
    assert.ok(
      rig.logs.some((l) => l.includes('left to the terminal: it was held too long')),
      rig.logs.join('\n'),
    );
  });

  it('a hold outlives the hub’s request and keep-alive timeouts, and is still answered', async () => {
    rig = await startRig({ limits: { headersTimeoutMs: 500, requestTimeoutMs: 600, keepAliveTimeoutMs: 300, checkIntervalMs: 100 } });
    const { s, r } = await held();
    await sleep(1500);
    assert.strictEqual(s.got, undefined, `still held: ${JSON.stringify(s.got)}`);
    assert.strictEqual(rig.pending.answer(r.handle, { behavior: 'allow' }), 'sent');
    const a = await s.answer;
    assert.deepStrictEqual([a.status, JSON.parse(a.body)], [200, { decision: { behavior: 'allow' } }]);
  });

  it('two dialogs held on one terminal: neither is offered, an answer is ambiguous and sends nothing', async () => {
    rig = await startRig();
    const { s, waitId, r } = await held();
    const second = rig.post(HOLD_PATH, permissionRequest({ tool_name: 'Write', tool_input: { file_path: '/etc/x' } }));
    await until(() => rig.pending.size === 2, 'the second request to be held');
    assert.strictEqual(rig.pending.offered(waitId), undefined);
    assert.strictEqual(rig.pending.answer(r.handle, { behavior: 'allow' }), 'ambiguous');
    await sleep(100);
    assert.deepStrictEqual([s.got, second.got], [undefined, undefined]);
    second.req.destroy();
    await until(() => rig.pending.size === 1, 'the second request to be dropped');
    assert.strictEqual(rig.pending.offered(waitId), r, 'alone again, offered again');
  });

  it('closing the hub answers every held hook (nothing decided) and leaves nothing pending', async () => {
    rig = await startRig();
    const { s } = await held();
    await rig.hub.close();
    const a = await s.answer;
    assert.ok(a.error !== undefined || a.status === 204, JSON.stringify(a));
    await until(() => rig.pending.size === 0, 'the request to be dropped', 2000);
  });
});
