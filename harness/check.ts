/**
 * check [--relabel] [dir…]   (default dir: test/fixtures/recordings)
 *
 * Sanity-checks recording folders (<dir>/<agent>/<scenario>/): the cast parses, times are monotonic,
 * expected.json segments are valid states, contiguous, start at 0 and end at the recording end, a cast
 * with an exit event ends in `exited` (a headless run in its outcome, completed or failed). Needs no agent CLI.
 *
 * --relabel recomputes expected.json of harness-made recordings from the scenario's anchors
 * (session.cast + marks.jsonl + meta.json), e.g. after a cue regex changed, without re-recording.
 */
import { agentFromCommandLine } from '../src/detect/commandLine';
import { recordedCommandLine } from './commandLine';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseCommandLine } from '../src/cli/args';
import { HARNESS_ID, type Mark, resolveSegments } from './anchors';
import type { AgentName } from './homes';
import { ALL_SCENARIOS } from './scenarios/index';
import { parseCast } from '../src/formats/cast';
import { type CastEvent, type CastHeader, screenTimeline } from './screen';

const STATES = new Set(['working', 'idle', 'waiting', 'stopped', 'completed', 'failed', 'exited']);
const AGENTS = new Set(['claude-code', 'codex', 'opencode', 'gemini', 'pi', 'qwen', 'continue-cli', 'copilot', 'kilocode', 'droid']);

interface Seg {
  t_from: number;
  t_to: number;
  state: string;
  agent: string;
  cue?: string;
  accept?: string[];
}

export function checkRecording(dir: string, relabel = false): string[] {
  const problems: string[] = [];
  const castFile = path.join(dir, 'session.cast');
  // The project's own parser validates the header and that time never goes back.
  let cast: ReturnType<typeof parseCast>;
  try {
    cast = parseCast(fs.readFileSync(castFile, 'utf8'), castFile);
  } catch (e) {
    return [`bad cast: ${(e as Error).message}`];
  }
  if (cast.version !== 2) problems.push('bad cast header: the recorder writes asciinema v2');
  const header: CastHeader = { version: 2, width: cast.cols, height: cast.rows, timestamp: 0 };
  const events = cast.events.map((e) => [e.t, e.code, e.data] as CastEvent);
  const last = cast.duration;
  const exitEv = events.find((e) => e[1] === 'x');
  let meta: Record<string, unknown> = {};
  try {
    meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    /* older recordings */
  }
  const end = typeof meta.recording_end_t === 'number' ? meta.recording_end_t : last;

  if (relabel) {
    if (meta.harness !== HARNESS_ID) problems.push('not a harness recording: cannot relabel');
    else {
      const sc = ALL_SCENARIOS.find((s) => s.agent === meta.agent && s.id === meta.scenario);
      if (!sc) problems.push(`no scenario ${String(meta.agent)}/${String(meta.scenario)}`);
      else {
        const marks = fs
          .readFileSync(path.join(dir, 'marks.jsonl'), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Mark);
        const frames = screenTimeline(header, events);
        const r = resolveSegments(sc.expect, {
          frames,
          marks,
          exitT: exitEv ? exitEv[0] : undefined,
          endT: end,
          agent: sc.agent as AgentName,
        });
        problems.push(...r.problems);
        fs.writeFileSync(path.join(dir, 'expected.json'), JSON.stringify(r.segments, null, 1) + '\n');
        // keep meta.problems in step: drop the old anchor problems, add the new ones
        const isAnchor = (p: string) => /^(segment |segments |gap\/overlap )/.test(p);
        const old = Array.isArray(meta.problems) ? (meta.problems as string[]) : [];
        meta.problems = [...old.filter((p) => !isAnchor(p)), ...r.problems];
        meta.relabeled_at = new Date().toISOString();
        fs.writeFileSync(path.join(dir, 'meta.json'), JSON.stringify(meta, null, 1) + '\n');
      }
    }
  }

  const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Seg[];
  if (!Array.isArray(expected) || !expected.length) return [...problems, 'expected.json is empty'];
  expected.forEach((s, i) => {
    if (!STATES.has(s.state)) problems.push(`segment ${i}: unknown state ${s.state}`);
    if (!AGENTS.has(s.agent)) problems.push(`segment ${i}: unknown agent ${s.agent}`);
    for (const a of s.accept ?? []) if (!STATES.has(a)) problems.push(`segment ${i}: unknown accepted state ${a}`);
    if (!(s.t_to > s.t_from)) problems.push(`segment ${i} (${s.state}): t_to ${s.t_to} <= t_from ${s.t_from}`);
    if (i > 0 && Math.abs(s.t_from - expected[i - 1]!.t_to) > 0.001) problems.push(`gap/overlap before segment ${i}`);
  });
  // Coverage rules hold for harness recordings; hand-made ones (shared/recordings) label other spans.
  if (meta.harness !== HARNESS_ID) return problems;
  if (expected[0]!.t_from !== 0) problems.push(`first segment starts at ${expected[0]!.t_from}`);
  const lastSeg = expected[expected.length - 1]!;
  if (Math.abs(lastSeg.t_to - end) > 0.05) problems.push(`last segment ends at ${lastSeg.t_to}, recording at ${end}`);
  // A headless run (`codex exec`, `claude -p`) ends in its outcome at the exit: its exit code is its turn's end.
  const headless = agentFromCommandLine(recordedCommandLine(dir, lastSeg.agent))?.headless !== undefined;
  const ends = headless ? ['completed', 'failed'] : ['exited'];
  if (exitEv && exitEv[0] <= end + 1e-9 && !ends.includes(lastSeg.state))
    problems.push(`cast has an exit event but the last state is not ${ends.join(' or ')}`);
  if (!exitEv && lastSeg.state === 'exited') problems.push('last state is exited but the cast has no exit event');
  return problems;
}

function main(): void {
  const { values, positionals: roots } = parseCommandLine(
    process.argv.slice(2),
    { relabel: { type: 'boolean' } },
    (m) => new Error(m),
    true,
  );
  const relabel = values.relabel === true;
  if (!roots.length) roots.push('test/fixtures/recordings');
  let bad = 0;
  let n = 0;
  for (const root of roots) {
    const dirs: string[] = [];
    const visit = (d: string, depth: number) => {
      if (fs.existsSync(path.join(d, 'session.cast'))) dirs.push(d);
      else if (depth < 3)
        for (const e of fs.readdirSync(d, { withFileTypes: true })) if (e.isDirectory()) visit(path.join(d, e.name), depth + 1);
    };
    visit(root, 0);
    for (const d of dirs.sort()) {
      n++;
      let problems: string[];
      try {
        problems = checkRecording(d, relabel);
      } catch (e) {
        problems = [String(e)];
      }
      if (problems.length) bad++;
      const exp = JSON.parse(fs.readFileSync(path.join(d, 'expected.json'), 'utf8')) as Seg[];
      console.log(
        `${problems.length ? 'PROBLEM' : 'ok     '} ${path.relative(root, d)}  ${exp.map((s) => `${s.state}@${s.t_from}`).join(' → ')}${problems.length ? `\n        ${problems.join('\n        ')}` : ''}`,
      );
    }
  }
  console.log(`${n - bad} passed, ${bad} failed`);
  process.exitCode = bad ? 1 : 0;
}

if (require.main === module) main();
