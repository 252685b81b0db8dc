/**
 * npm run compat [-- --agent a[,b]] [--scenario s[,t]] [--from DIR] [--keep-out DIR]
 *
 * Runs every scenario live against the installed CLIs (scripts/agents/install.sh), replays each new
 * recording through the detector and prints a matrix: agent × CLI version × scenario → agreement with
 * the expected states (at-rest states as one class, strict, and strict with the recorded session log fused
 * in through the store: labels that call an interrupt "stopped" score lower there), then per agent which signatures fired
 * and which never did (a signature no scenario exercises is suspect). `--from DIR` scores recordings
 * already on disk (e.g. test/fixtures/live) without running any CLI. Exit 1 when a scenario scores
 * below 0.95 or its run reported problems: that is how a new CLI release is checked in minutes.
 */
import { recordedCommandLine } from './commandLine';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { signatureIds, signatureOf } from '../src/detect/signatures';
import { parseCast } from '../src/formats/cast';
import { replayFused } from '../src/replay/fused';
import { decodeLogFile } from '../src/replay/logFiles';
import { replayCast } from '../src/replay/replay';
import { agreement, parseExpected } from '../src/replay/score';
import { parseCommandLine } from '../src/cli/args';
import { runScenario } from './driver';
import { AGENT_VERSIONS } from './homes';
import { castStartMs, recordedReports, recordingLog } from './recordingLogs';
import type { Report } from '../src/hooks/report';
import { ALL_SCENARIOS } from './scenarios/index';
import type { AgentKind } from '../src/common/agents';

const THRESHOLD = 0.95;

interface Row {
  agent: string;
  version: string;
  scenario: string;
  atRest?: number;
  strict?: number;
  /** Strict agreement with the session log fused in through the store (completed/failed from the log). */
  strictWithLog?: number;
  /** Strict agreement with the session log and the recorded hook reports fused in (everything the agent gives). */
  strictWithAll?: number;
  problems: string[];
}

const COMPAT_USAGE = `usage: npm run compat -- [--agent ${Object.keys(AGENT_VERSIONS).join(',')}] [--scenario 04,10] [--from DIR] [--keep-out DIR]`;

function parseArgs(argv: string[]) {
  const { values: v } = parseCommandLine(
    argv,
    {
      agent: { type: 'string' },
      scenario: { type: 'string' },
      from: { type: 'string' },
      'keep-out': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    (m) => new Error(`${m} (try --help)`),
  );
  if (v.help) {
    console.log(COMPAT_USAGE);
    process.exit(0);
  }
  return { agents: v.agent?.split(','), scenarios: v.scenario?.split(','), from: v.from, out: v['keep-out'] };
}

function score(
  dir: string,
  agent: string,
  fired: Map<string, Set<string>>,
): Pick<Row, 'atRest' | 'strict' | 'strictWithLog' | 'strictWithAll'> {
  const cast = parseCast(fs.readFileSync(path.join(dir, 'session.cast'), 'utf8'), path.join(dir, 'session.cast'));
  const expected = parseExpected(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8'));
  const commandLine = recordedCommandLine(dir, agent);
  const res = replayCast(cast, { commandLine, coverage: true });
  const set = fired.get(agent) ?? new Set<string>();
  for (const id of res.fired) set.add(id);
  // Identification markers only run without a command line: replay once more that way for coverage.
  for (const id of replayCast(cast, { coverage: true }).fired) set.add(id);
  fired.set(agent, set);
  const a = agreement(res.detections, expected);
  const log = recordingLog(dir);
  const t0 = castStartMs(dir, cast);
  if (t0 === undefined) return { atRest: a.atRest, strict: a.strict };
  const logs = log ? [decodeLogFile(log, fs.readFileSync(log, 'utf8'))] : [];
  const hooks = recordedReports(dir, agent);
  const strictOf = (o: { logs?: typeof logs; hooks?: Report[] }) =>
    agreement(replayFused(cast, { commandLine, ...o, t0Ms: t0 }).changes, expected).strict;
  return {
    atRest: a.atRest,
    strict: a.strict,
    ...(logs.length ? { strictWithLog: strictOf({ logs }) } : {}),
    ...(logs.length || hooks.length ? { strictWithAll: strictOf({ logs, hooks }) } : {}),
  };
}

function versionOf(dir: string, agent: string): string {
  try {
    const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as Record<string, unknown>;
    const v = meta.version ?? meta.cli_version ?? meta.claude_version ?? meta.codex_version;
    if (typeof v === 'string') return v.replace(/^codex-cli /, '').replace(/ \(Claude Code\)$/, '');
  } catch {
    // fall through
  }
  return AGENT_VERSIONS[agent as keyof typeof AGENT_VERSIONS] ?? '?';
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  const picked = ALL_SCENARIOS.filter(
    (s) => (!o.agents || o.agents.includes(s.agent)) && (!o.scenarios || o.scenarios.some((x) => s.id === x || s.id.split('-')[0] === x)),
  );
  if (!picked.length) throw new Error('no scenario matches');
  const out = o.from ?? o.out ?? fs.mkdtempSync(path.join(os.tmpdir(), 'agentlens-compat-'));
  const fired = new Map<string, Set<string>>();
  const rows: Row[] = [];
  for (const s of picked) {
    const dir = path.resolve(out, s.agent, s.id);
    const row: Row = { agent: s.agent, version: AGENT_VERSIONS[s.agent], scenario: s.id, problems: [] };
    try {
      if (!o.from) {
        const r = await runScenario({ scenario: s, outDir: dir, force: true });
        row.problems.push(...r.problems);
      }
      if (!fs.existsSync(path.join(dir, 'session.cast'))) throw new Error(`no recording in ${dir}`);
      row.version = versionOf(dir, s.agent);
      Object.assign(row, score(dir, s.agent, fired));
    } catch (e) {
      row.problems.push((e as Error).message);
    }
    rows.push(row);
    const ok = row.atRest !== undefined && row.atRest >= THRESHOLD && !row.problems.length;
    process.stderr.write(`${ok ? 'ok  ' : 'FAIL'} ${s.agent}/${s.id} ${row.atRest?.toFixed(3) ?? '-'}\n`);
  }

  console.log('\nAgent Lens compat matrix (agreement with expected states; at rest = idle/stopped/completed as one class)\n');
  console.log(
    `${'agent'.padEnd(12)} ${'version'.padEnd(9)} ${'scenario'.padEnd(34)} ${'at-rest'.padStart(7)} ${'strict'.padStart(7)} ${'+log'.padStart(7)} ${'+hooks'.padStart(7)}  verdict`,
  );
  for (const r of rows) {
    const verdict = r.problems.length ? `PROBLEM: ${r.problems.join('; ')}` : r.atRest! >= THRESHOLD ? 'ok' : `below ${THRESHOLD}`;
    console.log(
      `${r.agent.padEnd(12)} ${r.version.padEnd(9)} ${r.scenario.padEnd(34)} ${(r.atRest?.toFixed(3) ?? '-').padStart(7)} ${(r.strict?.toFixed(3) ?? '-').padStart(7)} ${(r.strictWithLog?.toFixed(3) ?? '-').padStart(7)} ${(r.strictWithAll?.toFixed(3) ?? '-').padStart(7)}  ${verdict}`,
    );
  }
  console.log('\nSignatures per agent:');
  for (const agent of [...new Set(rows.map((r) => r.agent))]) {
    const sig = signatureOf(agent as AgentKind);
    const ids = signatureIds(sig);
    const f = fired.get(agent) ?? new Set<string>();
    const never = ids.filter((id) => !f.has(id));
    console.log(`  ${agent} (rules checked against ${sig.seenIn}): fired ${ids.filter((id) => f.has(id)).join(', ') || '-'}`);
    console.log(`  ${agent}: never fired ${never.join(', ') || '-'}`);
  }
  if (!o.from && !o.out) console.log(`\nrecordings: ${out}`);
  const bad = rows.filter((r) => r.problems.length || r.atRest === undefined || r.atRest < THRESHOLD);
  process.exitCode = bad.length ? 1 : 0;
}

main().catch((e: unknown) => {
  process.stderr.write(`compat: ${(e as Error).message}\n`);
  process.exit(2);
});
