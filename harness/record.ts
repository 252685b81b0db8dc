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
import { runScenario } from './driver';
import { ALL_SCENARIOS } from './scenarios/index';

function parseArgs(argv: string[]) {
  const o: {
    agents?: string[];
    scenarios?: string[];
    out: string;
    keep: boolean;
    verbose: boolean;
    list: boolean;
    exportScripts?: string;
    strace: boolean;
    force: boolean;
  } = {
    out: 'test/fixtures/live',
    keep: false,
    verbose: false,
    list: false,
    strace: false,
    force: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const val = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--agent') o.agents = val().split(',');
    else if (a === '--scenario') o.scenarios = val().split(',');
    else if (a === '--out') o.out = val();
    else if (a === '--keep') o.keep = true;
    else if (a === '--verbose' || a === '-v') o.verbose = true;
    else if (a === '--list') o.list = true;
    else if (a === '--strace') o.strace = true;
    else if (a === '--force') o.force = true;
    else if (a === '--export-mock-scripts') o.exportScripts = val();
    else if (a === '--help' || a === '-h') {
      console.log(
        'usage: record [--agent claude-code,codex,opencode,gemini,pi] [--scenario 02,04-bash-permission-approve] [--out dir] [--keep] [--verbose] [--list] [--export-mock-scripts dir] [--strace] [--force]',
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  return o;
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
