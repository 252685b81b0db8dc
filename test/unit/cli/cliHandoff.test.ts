import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { handoffCommand, jsonLine } from '../../../src/cli/cliHandoff';
import { BOARDS_PATH } from '../../../src/handoff/doorbell';
import { writeDiscovery } from '../../../src/hub/discovery';
import { Hub } from '../../../src/hub/hub';
import { NASTY, RAW_CONTROL } from '../helpers';

let tmp: string;

describe('agent-lens status: what the hub sends is escaped in the table and in --json', () => {
  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-clihandoff-'))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('agent-lens status escapes every field the hub sends, and JSON output escapes DEL and C1', async () => {
    const hub = new Hub({ bodyLimit: 64 * 1024 });
    const board = {
      agent: `a${NASTY}`,
      state: `s${NASTY}`,
      task_id: `t${NASTY}`,
      last_event: { status: `e${NASTY}`, summary: `m${NASTY}` },
      error_reason: `r${NASTY}`,
    };
    hub.mount(BOARDS_PATH, () => ({ boards: [board], ungrouped: [] }), { method: 'GET' });
    const port = await hub.listen();
    const file = path.join(tmp, 'hub.json');
    writeDiscovery(file, { v: 1, port, token: hub.token, pid: process.pid });
    const before = process.env.AGENT_LENS_HUB;
    process.env.AGENT_LENS_HUB = file;
    try {
      for (const args of [[], ['--json']]) {
        const out: string[] = [];
        const err: string[] = [];
        assert.strictEqual(
          await handoffCommand(
            'status',
            args,
            (s) => out.push(s),
            (s) => err.push(s),
          ),
          0,
          err.join('\n'),
        );
        assert.strictEqual(out.length, 1);
        // Tabs separate the fields of the table form; nothing else may be raw.
        const fields = out[0].split('\t');
        for (const f of fields) assert.doesNotMatch(f, RAW_CONTROL, JSON.stringify(out[0]));
        if (args.length) assert.deepStrictEqual(JSON.parse(out[0]).boards[0], board, 'still the same JSON');
        else assert.strictEqual(fields.length, 5, 'one line, five fields');
      }
    } finally {
      if (before === undefined) delete process.env.AGENT_LENS_HUB;
      else process.env.AGENT_LENS_HUB = before;
      await hub.close();
    }
    assert.strictEqual(jsonLine({ s: '\u0085\u2028' }), '{"s":"\\u0085\\u2028"}');
  });
});
