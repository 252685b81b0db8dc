import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { castStartMs, recordedReports, recordingLog } from '../../../harness/recordingLogs';
import { AGENT_COMMAND } from '../../../harness/commandLine';
import { parseCast } from '../../../src/formats/cast';
import { replayFused, type ShownChange } from '../../../src/replay/fused';
import { decodeLogFile } from '../../../src/replay/logFiles';
import { agreement, parseExpected } from '../../../src/replay/score';
import { FIXTURES } from '../helpers';

/**
 * One harness recording of a real CLI (test/fixtures/live/<agent>/<scenario>) replayed through everything it
 * gives — the screen, its session log and, unless `withHooks` is false, its hooks as the hub receives them (the
 * harness logger's copy of each payload, at the time it fired) — through the store as the extension runs them.
 */
export function fusedRecording(agent: string, scenario: string, withHooks = true): { changes: ShownChange[]; strict: number } {
  const dir = path.join(FIXTURES, 'live', agent, scenario);
  const castFile = path.join(dir, 'session.cast');
  const cast = parseCast(fs.readFileSync(castFile, 'utf8'), castFile);
  const t0Ms = castStartMs(dir, cast)!;
  const log = recordingLog(dir);
  assert.ok(log, `${agent}/${scenario}: no session log`);
  const { changes } = replayFused(cast, {
    commandLine: AGENT_COMMAND[agent],
    logs: [decodeLogFile(log!, fs.readFileSync(log!, 'utf8'))],
    hooks: withHooks ? recordedReports(dir, agent) : [],
    t0Ms,
  });
  const expected = parseExpected(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8'));
  return { changes, strict: agreement(changes, expected).strict };
}

export const showChanges = (changes: ShownChange[]) =>
  changes.map((c) => `${c.t} ${c.state}${c.reason ? `(${c.reason})` : ''}${c.waitKind ? `/${c.waitKind}` : ''} ${c.source}`).join('\n');

/** The last shown state before the agent exited. */
export const atRest = (changes: ShownChange[]) => changes.filter((c) => c.state !== 'exited').at(-1)!;
