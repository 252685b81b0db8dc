import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ESC_SETTLE_MS, ENTER_AFTER_TYPE_MS } from '../../../src/handoff/steps';
import type { TeamAgent } from '../../../src/handoff/team/schema';
import { testDispatcher } from '../helpers';

let tmp: string;

describe('dispatch steps: a pause after a key ending in ESC', () => {
  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-steps-'))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const agent = (steps: TeamAgent['dispatch_steps']): TeamAgent => ({ key: 'w', mode: 'embedded', dispatch_steps: steps });

  it('waits ESC_SETTLE_MS between "escape" and the text that follows, counting sleeps already there', async () => {
    const cases: [TeamAgent['dispatch_steps'], number[]][] = [
      [
        [
          { tool: 'terminal_input', with: { mode: 'hotkey', keys: ['escape'] } },
          { tool: 'terminal_input', with: { text: '{message}', send: 'enter' } },
        ],
        [ESC_SETTLE_MS, ENTER_AFTER_TYPE_MS],
      ],
      [
        [
          { tool: 'terminal_input', with: { mode: 'hotkey', keys: ['up', 'esc'] } },
          { tool: 'terminal_input', with: { text: '{message}' } },
          { tool: 'terminal_input', with: { mode: 'hotkey', keys: ['enter'] } },
        ],
        [ESC_SETTLE_MS, ENTER_AFTER_TYPE_MS],
      ],
      [
        [
          { tool: 'terminal_input', with: { mode: 'hotkey', keys: ['escape'] } },
          { tool: '__sleep', with: { ms: 200 } },
          { tool: 'terminal_input', with: { text: '{message}' } },
        ],
        [200, ESC_SETTLE_MS - 200],
      ],
      [
        [
          { tool: 'terminal_input', with: { mode: 'hotkey', keys: ['escape'] } },
          { tool: '__sleep', with: { ms: 2000 } },
          { tool: 'terminal_input', with: { text: '{message}' } },
        ],
        [2000],
      ],
      [
        [
          { tool: 'terminal_input', with: { mode: 'hotkey', keys: ['escape'] } },
          { tool: 'terminal_input', with: { mode: 'hotkey', keys: ['up'] } },
          { tool: 'terminal_input', with: { text: '{message}' } },
        ],
        [ESC_SETTLE_MS],
      ],
      [
        [
          { tool: 'terminal_input', with: { mode: 'hotkey', keys: ['ctrl+u'] } },
          { tool: 'terminal_input', with: { text: '{message}' } },
        ],
        [],
      ],
    ];
    for (const [steps, want] of cases) {
      const slept: number[] = [];
      const { d, typed } = testDispatcher(tmp, [agent(steps)], { sleep: async (ms) => void slept.push(ms) });
      const r = await d.dispatch({ agent: 'w', taskId: 't1', brief: 'b' });
      assert.strictEqual(r.delivered, true, r.error);
      assert.deepStrictEqual(slept, want, JSON.stringify(steps));
      assert.ok(typed.length >= 2);
    }
  });
});
