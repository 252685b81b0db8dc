import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TerminalDetector } from '../../src/detect/detector';
import type { Detection } from '../../src/detect/types';
import { AGENT_COMMAND } from '../../harness/commandLine';
import { runScenario } from '../../harness/driver';
import { ALL_SCENARIOS } from '../../harness/scenarios/index';

/**
 * Headless runs of the real CLIs (issue 10) against the loopback mocks, read live: Working from the command line
 * on, then the exit code decides — Completed on 0, Failed otherwise. One run per agent: the failing one, whose
 * exit code is the one a detector could miss (each agent's successful run is a recording in test/fixtures/live,
 * replayed by the unit tests); OpenCode retries a failing server for ~80 s before it exits 1, so its successful
 * run is the live one. Kilo Code's headless runs (the same ~80 s of retries, a 20-s start) are its recordings only:
 * it runs live in hooks.live.test.ts and answerOpencode.live.test.ts.
 */
const CASES: [string, string, 'completed' | 'failed'][] = [
  ['claude-code', '21-headless-server-error', 'failed'],
  ['codex', '21-headless-server-error', 'failed'],
  ['opencode', '20-headless-ok', 'completed'],
  ['gemini', '21-headless-server-error', 'failed'],
  ['pi', '21-headless-server-error', 'failed'],
  ['qwen', '21-headless-server-error', 'failed'],
  ['copilot', '21-headless-server-error', 'failed'],
  ['continue-cli', '21-headless-server-error', 'failed'],
  ['droid', '21-headless-server-error', 'failed'],
];

describe('live: headless runs of the real CLIs', function () {
  this.timeout(240_000);
  for (const [agent, id, outcome] of CASES) {
    it(`${agent} ${id}: working, then ${outcome} from the exit code`, async () => {
      const sc = ALL_SCENARIOS.find((s) => s.agent === agent && s.id === id)!;
      const out = fs.mkdtempSync(path.join(os.tmpdir(), `agentlens-headless-${agent}-`));
      const commandLine = [AGENT_COMMAND[agent], ...(sc.args ?? []).map((a) => JSON.stringify(a))].join(' ');
      const det = new TerminalDetector({ cols: 120, rows: 35, commandLine });
      const seen: Detection[] = [det.detection];
      det.onDidChange((d) => seen.push(d));
      const res = await runScenario({
        scenario: sc,
        outDir: out,
        force: true,
        onOutput: (data, t) => det.write(data, t),
        onExit: (code, t) => det.exit(code, t),
      });
      assert.deepStrictEqual(res.problems, [], `problems (recording in ${out})`);
      const states = seen.map((d) => `${d.agent}/${d.state}/${d.source}`);
      assert.deepStrictEqual(states, [`${agent}/working/command`, `${agent}/${outcome}/command`], states.join(' → '));
      fs.rmSync(out, { recursive: true, force: true });
    });
  }
});
