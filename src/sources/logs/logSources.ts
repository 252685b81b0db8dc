import * as os from 'os';
import * as path from 'path';
import { AGENTS, configDirOf } from '../../agents/registry';
import type { AgentKind } from '../../common/agents';
import { decoderFor, isLineLogAgent, type LineDecoder, type LineLogAgent, type LogEvent } from '../../jsonl';
import type { Observation } from '../../store/observation';
import { LogTailer, type TailRoot } from './tailer';
import { TurnEnds } from './turnEnds';
import type { Provenance } from '../../store/observation';
import { type Logger } from '../../common/log';
import type { UsageBook } from '../../usage/book';
import type { UsageSink } from '../../common/usage';

/**
 * Where the agents keep their session logs, per agent: configuration folders for JSON-lines logs and for
 * session files rewritten whole, database files for SQLite. Which agents and how to find their sessions there: their descriptors (src/agents).
 */
export type LogLocations = Partial<Record<AgentKind, string[]>>;

/** Each agent's default location, as the environment it would be started with says. */
export function defaultLogLocations(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): LogLocations {
  const loc: LogLocations = {};
  for (const a of AGENTS) {
    if (a.logs?.format === 'jsonl' || a.logs?.format === 'json-snapshot') loc[a.id] = [configDirOf(a.id, env, home)];
    else if (a.logs?.format === 'sqlite') loc[a.id] = [a.logs.defaultPath(env, home)];
  }
  return loc;
}

/** Two lists of locations as one, each agent's in order, without repeats. */
export function mergeLocations(a: LogLocations, b: LogLocations): LogLocations {
  const out: LogLocations = {};
  for (const id of new Set([...Object.keys(a), ...Object.keys(b)]) as Set<AgentKind>)
    out[id] = [...new Set([...(a[id] ?? []), ...(b[id] ?? [])])];
  return out;
}

/** The roots to tail for these locations, each with the agent whose JSON-lines logs it holds. */
export function tailRoots(loc: LogLocations): (TailRoot & { agent: LineLogAgent })[] {
  return AGENTS.flatMap((a) => {
    const logs = a.logs;
    if (logs?.format !== 'jsonl' || !isLineLogAgent(a.id)) return [];
    const agent = a.id;
    return [...new Set((loc[agent] ?? []).map((x) => path.resolve(x)))].map((home) => {
      const dir = path.join(home, logs.under);
      return {
        agent,
        dir,
        depth: logs.depth,
        match: (f: string) => logs.isSession(f, dir),
        ...(logs.rewritesHead ? { rewritesHead: true } : {}),
      };
    });
  });
}

/** A decoded log event as a store observation (source `jsonl-watcher`). */
export function logEventToObservation(e: LogEvent, logPath?: string, provenance?: Provenance): Observation {
  const o: Observation = {
    source: 'jsonl-watcher',
    at: e.at,
    agent: e.agent,
    state: e.state,
    evidence: e.evidence,
    locator: { sessionId: e.sessionId, cwd: e.cwd, logPath },
  };
  if (e.reason) o.reason = e.reason;
  if (e.prompt) o.prompt = true;
  // A held reply released by a hook is only as believable as the hook that said the turn ended.
  if (provenance) o.provenance = provenance;
  return o;
}

export interface LogSourceOptions {
  locations: LogLocations;
  sink(o: Observation): void;
  log?: Logger;
  /** Gets what the logs say about tokens, context and cost, and each turn's start and end (src/usage). */
  usage?: UsageBook;
}

/**
 * The session-log source for JSON-lines logs: tails every root, one decoder per file (decoders keep state
 * between lines), and sends what the lines say to the store.
 */
export class JsonlLogSource {
  private readonly decoders = new Map<string, LineDecoder>();
  private readonly tailer: LogTailer;
  private readonly roots: (TailRoot & { agent: LineLogAgent })[];
  private readonly reported = new Set<string>();
  private readonly turnEnds = new TurnEnds();
  /** Files first read from their backlog tail: their sessions' totals leave out what came before. */
  private readonly tails = new Set<string>();
  lines = 0;
  events = 0;

  constructor(private readonly opts: LogSourceOptions) {
    this.roots = tailRoots(opts.locations);
    this.tailer = new LogTailer({
      roots: this.roots,
      onLines: (file, lines) => this.onLines(file, lines),
      onReset: (file) => {
        this.decoders.delete(file);
        this.tails.delete(file);
      },
      onTail: (file) => this.tails.add(file),
      onRemoved: (file) => {
        this.decoders.delete(file);
        this.tails.delete(file);
      },
      log: opts.log,
    });
  }

  start(): Promise<void> {
    return this.tailer.start();
  }

  /** Reads whatever changed now (tests, replays). */
  flush(): Promise<void> {
    return this.tailer.flush();
  }

  dispose(): Promise<void> {
    return this.tailer.dispose();
  }

  /**
   * The agent reported that a session's turn ended (its turn-end hook): its log is read first — the agent
   * writes the log before it runs the hook — then a reply the log holds for that turn is told as completed.
   * `logPath` only picks which followed file to read now; one this source does not follow is never opened.
   */
  async turnEnded(agent: AgentKind, sessionId: string, logPath?: string, provenance?: Provenance): Promise<void> {
    if (logPath) await this.tailer.readFile(logPath);
    const held = this.turnEnds.release(agent, sessionId);
    if (!held) return;
    this.tell(held.event, held.file, provenance);
  }

  private tell(e: LogEvent, file: string | undefined, provenance?: Provenance): void {
    this.events++;
    this.opts.usage?.event(e);
    this.opts.sink(logEventToObservation(e, file, provenance));
  }

  /** The usage book, told when a file's sessions were read from the backlog tail (their totals are partial). */
  private usageFor(file: string): UsageSink | undefined {
    const book = this.opts.usage;
    if (!book) return undefined;
    return { usage: (r) => book.usage(this.tails.has(file) ? { ...r, partial: true } : r) };
  }

  stats(): { files: number; bytesRead: number; lines: number; events: number; problems: number } {
    let problems = 0;
    for (const d of this.decoders.values()) problems += d.problems.total;
    return { ...this.tailer.stats(), events: this.events, problems };
  }

  /** Each kind of unreadable line is logged once, not per line or per file; `stats()` counts them all. */
  private problem(agent: string, kind: string, file: string, detail: string): void {
    const key = `${agent}:${kind}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.opts.log?.warn(
      `${file}: a ${agent} log line could not be read (${kind}): ${detail}. Further lines like it are counted, not logged.`,
    );
  }

  private onLines(file: string, lines: string[]): void {
    let dec = this.decoders.get(file);
    if (!dec) {
      const root = this.roots.find((r) => r.match(file));
      if (!root) return;
      dec = decoderFor(root.agent, (kind, detail) => this.problem(root.agent, kind, file, detail), file, this.usageFor(file));
      this.decoders.set(file, dec);
    }
    for (const line of lines) {
      this.lines++;
      for (const decoded of dec.line(line)) {
        const e = this.turnEnds.offer(decoded, file);
        if (e) this.tell(e, file);
      }
    }
  }
}
