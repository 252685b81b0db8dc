/**
 * record [--agent a[,b]] [--scenario s[,t]] [--out dir] [--keep] [--verbose] [--list]
 *        [--export-mock-scripts dir] [--strace] [--force]
 *
 * Runs scenarios against the real CLIs (installed by scripts/agents/install.sh) and writes
 * <out>/<agent>/<scenario>/ (default out: test/fixtures/live). One line per scenario with its
 * duration, exit code, resolved states and problems. Exit code 1 if any scenario reported problems.
 * --scenario accepts full ids or their number prefix ("04"). --strace runs the CLI under strace and
 * reports non-loopback connect() calls. --force overwrites folders this harness did not write.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseCommandLine } from '../src/cli/args';
import { runScenario } from './driver';
import { AGENT_VERSIONS } from './homeBase';
import { ALL_SCENARIOS } from './scenarios/index';

const RECORD_USAGE = `usage: record [--agent ${Object.keys(AGENT_VERSIONS).join(',')}] [--scenario 02,04-bash-permission-approve] [--out dir] [--keep] [--verbose] [--list] [--export-mock-scripts dir] [--strace] [--force]`;

function parseArgs(argv: string[]) {
  const { values: v } = parseCommandLine(
    argv,
    {
      agent: { type: 'string' },
      scenario: { type: 'string' },
      out: { type: 'string' },
      keep: { type: 'boolean' },
      verbose: { type: 'boolean', short: 'v' },
      list: { type: 'boolean' },
      strace: { type: 'boolean' },
      force: { type: 'boolean' },
      'export-mock-scripts': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    (m) => new Error(`${m} (usage: ${RECORD_USAGE})`),
  );
  if (v.help) {
    console.log(RECORD_USAGE);
    process.exit(0);
  }
  return {
    agents: v.agent?.split(','),
    scenarios: v.scenario?.split(','),
    out: v.out ?? 'test/fixtures/live',
    keep: v.keep === true,
    verbose: v.verbose === true,
    list: v.list === true,
    exportScripts: v['export-mock-scripts'],
    strace: v.strace === true,
    force: v.force === true,
  };
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  const picked = ALL_SCENARIOS.filter(
    (s) =>
      (!o.agents || o.agents.includes(s.agent)) &&
      (!o.scenarios || o.scenarios.some((x) => s.id === x || s.id.startsWith(`${x}-`) || s.id.split('-')[0] === x)),
  );
  if (o.exportScripts) {
    for (const s of picked) {
      const f = path.resolve(o.exportScripts, s.agent, `${s.id}.json`);
      fs.mkdirSync(path.dirname(f), { recursive: true });
      fs.writeFileSync(f, `${JSON.stringify({ scenario: s.id, agent: s.agent, description: s.description, mock: s.mock }, null, 1)}\n`);
      console.log(f);
    }
    return;
  }
  if (o.list) {
    for (const s of picked) console.log(`${s.agent.padEnd(12)} ${s.id.padEnd(34)} ${s.description}`);
    return;
  }
  if (!picked.length) throw new Error('no scenario matches');
  let bad = 0;
  for (const s of picked) {
    const outDir = path.resolve(o.out, s.agent, s.id);
    const started = Date.now();
    try {
      const r = await runScenario({ scenario: s, outDir, verbose: o.verbose, keepRunDir: o.keep, strace: o.strace, force: o.force });
      const states = r.expected.map((e) => `${e.state}@${e.t_from}`).join(' → ');
      const exit = r.exit ? ` exit=${r.exit.exitCode}` : '';
      console.log(
        `${r.problems.length ? 'PROBLEM' : 'ok     '} ${s.agent}/${s.id} ${r.duration.toFixed(1)}s${exit}  ${states}${r.problems.length ? `\n        ${r.problems.join('\n        ')}` : ''}`,
      );
      if (r.problems.length) bad++;
    } catch (e) {
      bad++;
      console.log(`ERROR   ${s.agent}/${s.id} after ${((Date.now() - started) / 1000).toFixed(1)}s: ${(e as Error).stack ?? String(e)}`);
    }
  }
  process.exitCode = bad ? 1 : 0;
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(2);
  });
}
