#!/usr/bin/env node
import * as fs from 'fs';
import { CastError, parseCast } from './replay/cast';
import { replayCast } from './replay/replay';

const USAGE = `usage: agent-lens replay FILE.cast [--command-line "CMD"] [--cols N --rows N] [--screen]

Replays an asciinema v2/v3 recording through the Agent Lens detector and prints one JSON object per
line on every change of agent or state:
  {"t": 12.345, "agent": "claude-code", "state": "waiting", "source": "pty-scrape", "evidence": "..."}

  --command-line CMD  the shell-integration command line that started the program (e.g. "claude")
  --cols N --rows N   terminal size (default: the recording's)
  --screen            print the final rendered screen after the states`;

/** A usage or input problem: one line on stderr, exit 2, no stack trace. */
class UsageError extends Error {}

function parseArgs(argv: string[]): { file: string; commandLine?: string; cols?: number; rows?: number; screen: boolean } {
  let file: string | undefined;
  let commandLine: string | undefined;
  let cols: number | undefined;
  let rows: number | undefined;
  let screen = false;
  const intArg = (name: string, v: string | undefined) => {
    const n = Number(v);
    if (v === undefined || !Number.isInteger(n) || n < 2 || n > 1000) throw new UsageError(`${name} needs a whole number from 2 to 1000`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--command-line') {
      if (argv[i + 1] === undefined) throw new UsageError('--command-line needs a value');
      commandLine = argv[++i];
    } else if (a.startsWith('--command-line=')) commandLine = a.slice('--command-line='.length);
    else if (a === '--cols') cols = intArg('--cols', argv[++i]);
    else if (a === '--rows') rows = intArg('--rows', argv[++i]);
    else if (a === '--screen') screen = true;
    else if (a.startsWith('-')) throw new UsageError(`unknown option ${a}`);
    else if (file === undefined) file = a;
    else throw new UsageError(`unexpected argument ${a}`);
  }
  if (!file) throw new UsageError('replay needs a FILE.cast');
  return { file, commandLine, cols, rows, screen };
}

function round(t: number): number {
  return Math.round(t * 1000) / 1000;
}

export function main(argv: string[], out: (s: string) => void, err: (s: string) => void): number {
  try {
    const [cmd, ...rest] = argv;
    if (cmd === undefined || cmd === '--help' || cmd === '-h' || cmd === 'help') {
      out(USAGE);
      return cmd === undefined ? 2 : 0;
    }
    if (cmd !== 'replay') throw new UsageError(`unknown command "${cmd}" (try: agent-lens replay FILE.cast)`);
    const args = parseArgs(rest);
    let text: string;
    try {
      text = fs.readFileSync(args.file, 'utf8');
    } catch (e) {
      throw new UsageError(`${args.file}: cannot read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    const cast = parseCast(text, args.file);
    const res = replayCast(cast, { commandLine: args.commandLine, cols: args.cols, rows: args.rows }, (d) => {
      const o: Record<string, unknown> = { t: round(d.t), agent: d.agent, state: d.state, source: d.source, evidence: d.evidence };
      if (d.waitKind) o.waitKind = d.waitKind;
      out(JSON.stringify(o));
    });
    if (args.screen) out(res.screen);
    return 0;
  } catch (e) {
    if (e instanceof UsageError || e instanceof CastError) {
      err(`agent-lens: ${e.message}`);
      return 2;
    }
    err(`agent-lens: internal error: ${(e as Error).message} (please report it with the recording)`);
    return 1;
  }
}

if (require.main === module) {
  process.exitCode = main(process.argv.slice(2), (s) => process.stdout.write(s + '\n'), (s) => process.stderr.write(s + '\n'));
}
