import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { AGENT_COMMAND } from '../../harness/commandLine';
import { runScenario } from '../../harness/driver';
import type { Scenario } from '../../harness/scenario';
import { heldBriefly } from './liveScenarios';
import { ScreenWatch } from './screenStates';

/**
 * The real CLIs (scripts/agents/install.sh) in real PTYs against the loopback mocks; the detector reads
 * the live stream as it arrives and must go idle → working → waiting → working → at rest → exited. The agents
 * with hooks show the same on their approved runs in hooks.live.test.ts (one run checks both); these are the rest.
 */

const CASES: [string, () => Scenario][] = [
  // pi asks only through an extension: its own example permission-gate.
  ['pi', () => heldBriefly('pi', '04-gate-approve', 2000, true)],
  ['continue-cli', () => heldBriefly('continue-cli', '04-bash-approve', 2000, true)],
];

describe('live: real agent CLIs, detector on the live stream', function () {
  this.timeout(300_000);

  for (const [agent, make] of CASES) {
    it(`${agent}: idle → working → waiting → working → at rest → exited`, async () => {
      const sc = make();
      const out = fs.mkdtempSync(path.join(os.tmpdir(), `agentlens-live-${agent}-`));
      const watch = new ScreenWatch(sc.cols ?? 120, sc.rows ?? 35, AGENT_COMMAND[agent]);
      try {
        const res = await runScenario({
          scenario: sc,
          outDir: out,
          force: true,
          onOutput: (data, t) => watch.write(data, t),
          onExit: (code, t) => watch.exit(code, t),
        });
        watch.finish();
        assert.deepStrictEqual(res.problems, [], `the scenario reported problems (recording in ${out})`);
      } finally {
        watch.dispose();
      }
      watch.assertFullRun(agent);
      fs.rmSync(out, { recursive: true, force: true });
    });
  }
});
