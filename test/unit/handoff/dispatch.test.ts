import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { TeamAgent } from '../../../src/handoff/team/schema';
import { NASTY, RAW_CONTROL, testDispatcher } from '../helpers';

let tmp: string;

describe('dispatch: ids and reasons from a request are escaped in its log, errors and board', () => {
  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-dispatch-'))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('a dispatch failure’s log line, error and error_reason carry no raw control character', async () => {
    const log: string[] = [];
    const w: TeamAgent = { key: 'w', mode: 'embedded', dispatch_steps: [] };
    const { d, boards } = testDispatcher(tmp, [w], { log, find: async () => Promise.reject(new Error(`terminal ${NASTY} is gone`)) });
    const bad = await d.dispatch({ agent: 'w', taskId: NASTY, brief: 'b' });
    const gone = await d.dispatch({ agent: 'w', taskId: 't1', brief: 'b' });
    for (const r of [bad, gone]) assert.doesNotMatch(r.error ?? '', RAW_CONTROL, r.error);
    assert.doesNotMatch(boards.get('w').error_reason ?? '', RAW_CONTROL);
    assert.ok(log.length >= 2);
    for (const l of log) assert.doesNotMatch(l, RAW_CONTROL, l);
  });
});
