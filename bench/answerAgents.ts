/**
 * From the answer to each real agent moving on, printed (never asserted): each installed CLI (npm run
 * agents:install) runs against its loopback mock model in the answering rig, its permission dialog is allowed once
 * the way its Needs-you row does it (harness/answering/byAgent.ts: held hook or plugin, the option's key, or the
 * selector's arrow keys and Enter, each read off the live screen where it must be), and the time is taken from the
 * moment the answer starts to the agent's next request to the model (the tool ran and its result went back).
 */
import { ALLOW_ONCE } from '../harness/answering/byAgent';
import { movedOnMs, play, type RigAgent } from '../harness/answering/rig';
import { agentBin } from '../harness/homeBase';

type Print = (s: string) => void;
const RUNS = 3;

export async function benchAnswerAgents(print: Print): Promise<void> {
  print(`answer → the agent moves on (its next model request), the real CLIs, ${RUNS} runs each:`);
  for (const agent of Object.keys(ALLOW_ONCE) as RigAgent[]) {
    if (!installed(agent)) {
      print(`  ${agent.padEnd(12)}: not installed (npm run agents:install)`);
      continue;
    }
    const times: number[] = [];
    const failures: string[] = [];
    for (let i = 0; i < RUNS; i++) {
      try {
        await play(agent, `bench-${i}`, ALLOW_ONCE[agent], (rig, out) => {
          const t = movedOnMs(out, rig.sentAt ?? Infinity);
          if (t === undefined) throw new Error('no model request came after the answer');
          times.push(t);
        });
      } catch (e) {
        failures.push(String(e instanceof Error ? e.message : e).split('\n')[0]);
      }
    }
    const sorted = [...times].sort((a, b) => a - b);
    const line = sorted.length ? `median ${sorted[Math.floor((sorted.length - 1) / 2)]} ms, max ${sorted.at(-1)} ms` : 'no run finished';
    print(`  ${agent.padEnd(12)}: ${line}${failures.length ? `; ${failures.length} failed: ${failures[0]}` : ''}`);
  }
}

function installed(agent: RigAgent): boolean {
  try {
    agentBin(agent);
    return true;
  } catch {
    return false;
  }
}
