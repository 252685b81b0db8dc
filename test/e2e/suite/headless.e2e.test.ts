import * as assert from 'assert';
import * as path from 'path';
import { killRunProcesses, prepareClaudeHome } from '../../../harness/homes';
import { createAnthropicMock } from '../../../harness/mock/anthropic';
import { api, ROOT, shellTerminal, stateOf, transitions, waitFor } from './util';

/**
 * Headless runs in a real VS Code terminal (issue 10): `claude -p` is working while it runs, and the exit code
 * shell integration reports decides completed or failed (source process).
 */
describe('headless runs in a VS Code terminal (real Claude Code, claude -p)', function () {
  this.timeout(180_000);

  for (const [name, turn, outcome] of [
    ['answers and exits 0', { type: 'text' as const, text: 'This is a small demo project.\n' }, 'completed'],
    ['meets a failing server and exits 1', { type: 'error' as const, status: 400, sticky: true }, 'failed'],
  ] as const) {
    it(`claude -p ${name}: working, then ${outcome} from the exit code`, async () => {
      const a = await api();
      const mock = createAnthropicMock({ script: { title: 'Summary', turns: [turn] } });
      const port = await mock.listen();
      const home = prepareClaudeHome({ baseUrl: `http://127.0.0.1:${port}`, agentsDir: path.join(ROOT, '.agents') });
      const t = await shellTerminal(`headless ${outcome}`, home.env);
      const seen = transitions(a, t);
      try {
        const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
        t.shellIntegration!.executeCommand(
          `cd ${q(home.cwd)} && ${[home.command, ...home.args, '-p', 'Give me a one-line summary.'].map(q).join(' ')}`,
        );
        const end = await waitFor(
          `the run to end ${outcome}`,
          () => {
            const s = stateOf(a, t);
            return s && s.agent === 'claude-code' && ['completed', 'failed'].includes(s.state) ? s : undefined;
          },
          90_000,
        );
        assert.strictEqual(end.state, outcome, `${seen.list.join(' → ')} (${end.evidence})`);
        assert.strictEqual(end.source, 'command');
        if (outcome === 'failed') assert.strictEqual(end.reason, 'exit code 1');
        assert.ok(seen.list.includes('claude-code/working'), `working while it ran: ${seen.list.join(' → ')}`);
        assert.ok(!seen.list.some((s) => s.endsWith('/waiting')), `no wait: ${seen.list.join(' → ')}`);
      } finally {
        seen.dispose();
        t.dispose();
        await killRunProcesses(home.runId).catch(() => undefined);
        await mock.close();
      }
    });
  }
});
