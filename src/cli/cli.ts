#!/usr/bin/env node
import { parseCommandLine } from './args';
import * as fs from 'fs';
import { CastError, parseCast } from '../formats/cast';
import { replayFused } from '../replay/fused';
import { HookFileError, hookReports, parseHookFile } from '../formats/hookFile';
import { decodeLogFile, LogFileError } from '../replay/logFiles';
import { replayCast } from '../replay/replay';
import { handoffCommand } from './cliHandoff';
import { asksHelp, USAGE, VERB_USAGE } from './usage';
import { jsonLine, printable } from '../common/printable';
import { UsageBook } from '../usage/book';
import { figures, ModelFacts, usageJson } from '../usage/figures';

/** A usage or input problem: one line on stderr, exit 2, no stack trace. */
class UsageError extends Error {}

interface Args {
  file: string;
  commandLine?: string;
  cols?: number;
  rows?: number;
  screen: boolean;
  logs: string[];
  hooks: string[];
  t0?: number;
  usage: boolean;
}

function parseArgs(argv: string[]): Args {
  const { values: v, positionals } = parseCommandLine(
    argv,
    {
      'command-line': { type: 'string' },
      cols: { type: 'string' },
      rows: { type: 'string' },
      screen: { type: 'boolean' },
      log: { type: 'string', multiple: true },
      hooks: { type: 'string', multiple: true },
      t0: { type: 'string' },
      usage: { type: 'boolean' },
    },
    (m) => new UsageError(m),
    true,
  );
  if (positionals.length > 1) throw new UsageError(`unexpected argument ${positionals[1]}`);
  const a: Args = {
    file: positionals[0] ?? '',
    screen: v.screen === true,
    logs: v.log ?? [],
    hooks: v.hooks ?? [],
    commandLine: v['command-line'],
    usage: v.usage === true,
  };
  if (a.usage) {
    if (a.file || a.hooks.length || v.screen || v.cols || v.rows || v.t0 || a.commandLine)
      throw new UsageError('--usage reads session logs only: give --log FILE (one or more) and nothing else');
    if (!a.logs.length) throw new UsageError('--usage needs the session logs to read: --log FILE [--log FILE …]');
    return a;
  }
  if (v.cols !== undefined) a.cols = intArg('--cols', v.cols);
  if (v.rows !== undefined) a.rows = intArg('--rows', v.rows);
  if (v.t0 !== undefined) {
    const n = Number(v.t0);
    if (!Number.isFinite(n) || n <= 0) throw new UsageError('--t0 needs epoch seconds, for example 1796229278.919');
    a.t0 = n;
  }
  if (!a.file) throw new UsageError('replay needs a FILE.cast');
  if (a.t0 !== undefined && a.logs.length + a.hooks.length === 0)
    throw new UsageError('--t0 places session logs and hooks on the cast clock: give --log FILE or --hooks FILE too');
  return a;
}

function intArg(name: string, v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 2 || n > 1000) throw new UsageError(`${name} needs a whole number from 2 to 1000`);
  return n;
}

function round(t: number): number {
  return Math.round(t * 1000) / 1000;
}

function read(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`${file}: cannot read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** `replay --log … --usage`: every session in the logs, what it spent, one JSON object a line. */
function usage(args: Args, out: (s: string) => void): void {
  const book = new UsageBook();
  for (const f of args.logs) decodeLogFile(f, read(f), book);
  const facts = new ModelFacts();
  for (const s of book.all()) out(jsonLine(usageJson(figures(s, facts))));
}

function replay(args: Args, out: (s: string) => void): void {
  if (args.usage) return usage(args, out);
  const cast = parseCast(read(args.file), args.file);
  const line = (d: { t: number; agent: string; state: string; source: string; evidence: string; waitKind?: string; reason?: string }) => {
    const o: Record<string, unknown> = { t: round(d.t), agent: d.agent, state: d.state, source: d.source, evidence: d.evidence };
    if (d.waitKind) o.waitKind = d.waitKind;
    if (d.reason) o.reason = d.reason;
    // A stranger's recording can carry DEL, C1 or bidi controls in its evidence: escaped like `status --json`.
    out(jsonLine(o));
  };
  const opts = { commandLine: args.commandLine, cols: args.cols, rows: args.rows };
  if (args.logs.length === 0 && args.hooks.length === 0) {
    const res = replayCast(cast, opts, line);
    if (args.screen) out(screenLines(res.screen));
    return;
  }
  const logs = args.logs.map((f) => decodeLogFile(f, read(f)));
  const hookLines = args.hooks.flatMap((f) => parseHookFile(f, read(f)));
  const t0Ms = castZeroMs(args, cast.timestamp, logs.length > 0 || hookLines.some((h) => h.atMs !== undefined));
  replayFused(cast, { ...opts, logs, hooks: hookReports(hookLines, t0Ms), t0Ms }, line);
  if (args.screen) out(screenLines(replayCast(cast, opts).screen));
}

/** The rendered screen, each line escaped: its cells can hold bidi controls and other invisible characters. */
function screenLines(screen: string): string {
  return screen.split('\n').map(printable).join('\n');
}

/** Where hooks timed only on the cast clock are placed when nothing names the wall-clock start: any epoch will do. */
const NOMINAL_T0_MS = Date.UTC(2000, 0, 1);

/** The wall-clock epoch ms of the cast's t = 0: `--t0`, else the header's timestamp; needed for logs and `at_ms` hooks. */
function castZeroMs(args: Args, headerTimestamp: number | undefined, needed: boolean): number {
  const t0 = args.t0 ?? headerTimestamp;
  if (t0 !== undefined) return t0 * 1000;
  if (needed)
    throw new UsageError(
      `${args.file}: the header has no "timestamp": give --t0 EPOCH_SECONDS to place the logs and "at_ms" hooks on the cast clock`,
    );
  return NOMINAL_T0_MS;
}

const HANDOFF_COMMANDS = new Set(['serve', 'task', 'dispatch', 'status', 'notify']);

export function main(argv: string[], out: (s: string) => void, err: (s: string) => void): number | Promise<number> {
  try {
    const [cmd, ...rest] = argv;
    const verbHelp = cmd === 'help' ? rest[0] : cmd !== undefined && asksHelp(rest) ? cmd : undefined;
    if (verbHelp !== undefined) {
      const text = Object.hasOwn(VERB_USAGE, verbHelp) ? VERB_USAGE[verbHelp] : undefined;
      if (!text) throw new UsageError(`no command "${verbHelp}" (the commands: ${Object.keys(VERB_USAGE).join(', ')})`);
      out(text);
      return 0;
    }
    if (cmd !== undefined && HANDOFF_COMMANDS.has(cmd)) return handoffCommand(cmd, rest, out, err);
    if (cmd === undefined || cmd === '--help' || cmd === '-h' || cmd === 'help') {
      out(USAGE);
      return cmd === undefined ? 2 : 0;
    }
    if (cmd !== 'replay') throw new UsageError(`unknown command "${cmd}" (try: agent-lens --help)`);
    replay(parseArgs(rest), out);
    return 0;
  } catch (e) {
    if (e instanceof UsageError || e instanceof CastError || e instanceof LogFileError || e instanceof HookFileError) {
      err(`agent-lens: ${printable(e.message)}`);
      return 2;
    }
    err(`agent-lens: internal error: ${printable((e as Error).message)} (please report it with the recording)`);
    return 1;
  }
}

if (require.main === module) {
  void Promise.resolve(
    main(
      process.argv.slice(2),
      (s) => process.stdout.write(s + '\n'),
      (s) => process.stderr.write(s + '\n'),
    ),
  ).then((code) => {
    process.exitCode = code;
  });
}
