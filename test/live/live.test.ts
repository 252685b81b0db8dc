import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TerminalDetector } from '../../src/detect/detector';
import { type Detection } from '../../src/detect/types';
import { AGENT_COMMAND } from '../../harness/commandLine';
import { runScenario } from '../../harness/driver';
import { quit, wait } from '../../harness/scenario';
import { ALL_SCENARIOS } from '../../harness/scenarios/index';
import type { Scenario } from '../../harness/scenario';
import { AT_REST } from '../../src/common/states';

/**
 * The real CLIs (scripts/agents/install.sh) in real PTYs against the loopback mocks; the detector reads
 * the live stream as it arrives and must go idle → working → waiting → working → at rest → exited.
 */

function scenario(agent: string, id: string): Scenario {
  const s = ALL_SCENARIOS.find((x) => x.agent === agent && x.id === id);
  if (!s) throw new Error(`no scenario ${agent}/${id}`);
  return s;
}

/** Codex's and pi's multi-step scenarios have no approval: take the approval scenario, hold the dialog 2 s, then quit. */
function approveThenQuit(agent: string, id: string): Scenario {
  const s = scenario(agent, id);
  const steps = s.steps.map((st) => (st.do === 'wait' && st.ms >= 15_000 ? wait(2000) : st));
  return { ...s, id: 'live-approve-quit', steps: [...steps, quit()] };
}

const CASES: [string, () => Scenario][] = [
  ['claude-code', () => scenario('claude-code', '10-multiturn-quit')],
  ['codex', () => approveThenQuit('codex', '04-approval-approve')],
  ['opencode', () => scenario('opencode', '10-multistep-quit')],
  ['gemini', () => scenario('gemini', '09-multistep-quit')],
  // pi asks only through an extension: its own example permission-gate.
  ['pi', () => approveThenQuit('pi', '04-gate-approve')],
  ['qwen', () => scenario('qwen', '09-multistep-quit')],
  ['copilot', () => scenario('copilot', '09-multistep-quit')],
  ['continue-cli', () => scenario('continue-cli', '09-multistep-quit')],
  ['droid', () => scenario('droid', '09-multistep-quit')],
  ['kilocode', () => scenario('kilocode', '09-multistep-quit')],
];

describe('live: real agent CLIs, detector on the live stream', function () {
  this.timeout(300_000);

  for (const [agent, make] of CASES) {
    it(`${agent}: idle → working → waiting → working → at rest → exited`, async () => {
      const sc = make();
      const out = fs.mkdtempSync(path.join(os.tmpdir(), `agentlens-live-${agent}-`));
      const det = new TerminalDetector({ cols: sc.cols ?? 120, rows: sc.rows ?? 35, commandLine: AGENT_COMMAND[agent] });
      const seen: Detection[] = [det.detection];
      det.onDidChange((d) => seen.push(d));
      // Timers stand in for the extension's deadline timer: states settle while output pauses.
      let last = 0;
      const tick = setInterval(() => det.advance(last + 0.05), 50);
      const started = Date.now();
      try {
        const res = await runScenario({
          scenario: sc,
          outDir: out,
          force: true,
          onOutput: (data, t) => {
            last = Math.max(last, t);
            det.write(data, t);
          },
          onExit: (code, t) => det.exit(code, t),
        });
        const now = () => (Date.now() - started) / 1000;
        last = Math.max(last, now());
        det.advance(last + 2);
        assert.deepStrictEqual(res.problems, [], `the scenario reported problems (recording in ${out})`);
      } finally {
        clearInterval(tick);
      }
      const want: [string, (d: Detection) => boolean][] = [
        ['idle', (d) => d.state === 'idle'],
        ['working', (d) => d.state === 'working'],
        ['waiting', (d) => d.state === 'waiting'],
        ['working', (d) => d.state === 'working'],
        ['at rest', (d) => AT_REST.has(d.state)],
        ['exited', (d) => d.state === 'exited'],
      ];
      let k = 0;
      for (const d of seen) if (k < want.length && want[k][1](d)) k++;
      assert.strictEqual(
        k,
        want.length,
        `no "${want[k]?.[0]}" after ${want
          .slice(0, k)
          .map((w) => w[0])
          .join(' → ')}; live states: ${seen.map((d) => `${d.t.toFixed(1)} ${d.state} (${d.evidence})`).join(' | ')}`,
      );
      assert.ok(
        seen.every((d) => d.agent === agent),
        `agents seen: ${[...new Set(seen.map((d) => d.agent))]}`,
      );
      fs.rmSync(out, { recursive: true, force: true });
    });
  }
});
