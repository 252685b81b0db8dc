/**
 * The load's terminals: `count` terminal sources (the extension's own TerminalSession, on the real clock)
 * replaying the agents' real recordings at full output speed, one chunk per terminal per turn of the event
 * loop, so the hub still gets its turns as it does in the extension host.
 */
import * as fs from 'fs';
import * as path from 'path';
import { TerminalDetector } from '../src/detect/detector';
import { parseCast } from '../src/formats/cast';
import { realScheduler } from '../src/common/scheduler';
import { TerminalSession } from '../src/sources/terminal/session';
import type { AgentStore } from '../src/store/store';
import { recordedCommandLine } from '../harness/commandLine';

export interface Recording {
  name: string;
  commandLine: string;
  cols: number;
  rows: number;
  chunks: string[];
}

export function loadRecordings(root: string): Recording[] {
  const out: Recording[] = [];
  for (const agent of fs.readdirSync(root)) {
    for (const s of fs.readdirSync(path.join(root, agent))) {
      const f = path.join(root, agent, s, 'session.cast');
      if (!fs.existsSync(f)) continue;
      const cast = parseCast(fs.readFileSync(f, 'utf8'), f);
      out.push({
        name: `${agent}/${s}`,
        commandLine: recordedCommandLine(path.join(root, agent, s), agent),
        cols: cast.cols,
        rows: cast.rows,
        chunks: cast.events.filter((e) => e.code === 'o').map((e) => e.data),
      });
    }
  }
  return out;
}

/** What a recording's stream settles on, read alone and without load: the ground truth for its terminal. */
export function settledState(r: Recording): { agent: string; state: string } {
  const d = new TerminalDetector({ cols: r.cols, rows: r.rows, commandLine: r.commandLine, t: 0 });
  for (const c of r.chunks) d.write(c, 0);
  d.advance(60);
  const out = { agent: d.detection.agent, state: d.detection.state };
  d.dispose();
  return out;
}

export class LoadTerminals {
  private readonly terms: { id: string; session: TerminalSession; rec: number; chunk: number; last?: number }[] = [];
  private running = true;
  chars = 0;
  casts = 0;
  private finished!: () => void;
  readonly done = new Promise<void>((r) => (this.finished = r));

  constructor(
    private readonly store: AgentStore,
    private readonly recs: Recording[],
    count: number,
  ) {
    for (let i = 0; i < count; i++) {
      const id = `load-term-${i}`;
      store.openTerminal(id, `agent ${i}`);
      const session = new TerminalSession(id, (o) => store.observe(o), realScheduler, { cols: 120, rows: 30 });
      const t = { id, session, rec: i % recs.length, chunk: 0 };
      this.terms.push(t);
      this.start(t);
    }
    setImmediate(() => this.pump());
  }

  /** Stop starting new recordings; each terminal finishes the one it is in. */
  stop(): void {
    this.running = false;
  }

  /** Each terminal's last recording and what the store shows for it. */
  results(): { id: string; rec: Recording; shown: { agent: string; state: string } }[] {
    return this.terms.map((t) => {
      const v = this.store.terminal(t.id)!;
      return { id: t.id, rec: this.recs[t.last ?? t.rec], shown: { agent: v.agent, state: v.state } };
    });
  }

  dispose(): void {
    for (const t of this.terms) t.session.dispose();
  }

  private start(t: (typeof this.terms)[number]): void {
    const r = this.recs[t.rec];
    t.session.resize(r.cols, r.rows);
    t.session.startExecution(r.commandLine, true);
    t.chunk = 0;
  }

  private pump(): void {
    let live = 0;
    for (const t of this.terms) {
      if (t.last !== undefined) continue;
      live++;
      const r = this.recs[t.rec];
      const c = r.chunks[t.chunk++];
      if (c !== undefined) {
        t.session.write(c);
        this.chars += c.length;
        continue;
      }
      this.casts++;
      if (!this.running) {
        t.last = t.rec;
        continue;
      }
      // The agent exits and the next one starts in the same terminal: a new session, as in real use.
      t.session.endExecution(0);
      t.rec = (t.rec + 7) % this.recs.length;
      this.start(t);
    }
    if (live) setImmediate(() => this.pump());
    else this.finished();
  }
}
