/**
 * One real CLI in a real PTY, recorded: its output and the keys typed go to session.cast as they happen, a
 * headless terminal renders the screen (and answers the CLI's queries), and waits resolve on what the screen
 * shows. The driver (./driver.ts) plays a scenario's steps on it.
 */
import * as fs from 'node:fs';
import * as pty from '@lydell/node-pty';
import type { AgentHome } from './homes';
import type { Mark } from './anchors';
import { type CastEvent, type CastHeader, createTerm } from './screen';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
export const r3 = (x: number) => Math.round(x * 1000) / 1000;

export interface ExitInfo {
  t: number;
  exitCode: number;
  signal?: number;
}

export interface PtyRunOptions {
  home: AgentHome;
  cols: number;
  rows: number;
  title: string;
  castPath: string;
  /** Run the CLI under strace, writing its connect() calls here. */
  straceFile?: string;
  debug: (s: string) => void;
  onOutput?: (data: string, t: number) => void;
  onExit?: (exitCode: number, t: number) => void;
}

interface Waiter {
  check: () => boolean;
  resolve: () => void;
}

export class PtyRun {
  readonly t0 = Date.now();
  readonly header: CastHeader;
  readonly events: CastEvent[] = [];
  readonly marks: Mark[] = [];
  /** What the emulated terminal answered to the CLI's queries. */
  readonly replies: [number, string][] = [];
  exitInfo: ExitInfo | undefined;
  /** Resolves when the CLI exits. */
  readonly exited: Promise<void>;
  private readonly castFd: number;
  private recording = true;
  private waiters: Waiter[] = [];
  private readonly term: ReturnType<typeof createTerm>;
  private readonly p: pty.IPty;
  private exitResolve: () => void = () => {};

  constructor(private readonly o: PtyRunOptions) {
    this.header = {
      version: 2,
      width: o.cols,
      height: o.rows,
      timestamp: Math.floor(this.t0 / 1000),
      env: { TERM: o.home.env.TERM ?? 'xterm-256color', SHELL: o.home.env.SHELL ?? '/bin/bash' },
      title: o.title,
    };
    this.castFd = fs.openSync(o.castPath, 'w');
    fs.writeSync(this.castFd, `${JSON.stringify(this.header)}\n`);
    this.exited = new Promise<void>((r) => (this.exitResolve = r));
    this.term = createTerm(o.cols, o.rows, (d) => {
      this.replies.push([this.now(), d]);
      try {
        this.p?.write(d);
      } catch {
        /* exited */
      }
    });
    this.p = this.spawn();
  }

  get pid(): number {
    return this.p.pid;
  }

  /** Seconds since the run started, to the millisecond: the cast's clock. */
  now(): number {
    return r3((Date.now() - this.t0) / 1000);
  }

  mark(label: string, extra: Record<string, unknown> = {}): Mark {
    const m: Mark = { t: this.now(), label, ...extra };
    this.marks.push(m);
    this.o.debug(`mark ${m.t} ${label}`);
    return m;
  }

  screenText(): string {
    return this.term.screenText();
  }

  /** Whether the CLI asked for application cursor keys (arrows are sent as it expects them). */
  appCursor(): boolean {
    return !!(this.term.term.modes as { applicationCursorKeysMode?: boolean }).applicationCursorKeysMode;
  }

  /** Types into the CLI (recorded as input); nothing once it has exited. */
  write(data: string): void {
    if (this.exitInfo) return;
    this.castEvent('i', data);
    this.p.write(data);
  }

  /** True as soon as `check` holds (asked after every output chunk and at exit), false after `timeoutMs`. */
  waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      if (check()) return resolve(true);
      const w: Waiter = {
        check,
        resolve: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        resolve(false);
      }, timeoutMs);
      this.waiters.push(w);
    });
  }

  /** Ends the recording: the cast is closed; the CLI may still run. Returns the final screen. */
  stopRecording(): string {
    const finalScreen = this.term.screenText();
    this.recording = false;
    fs.closeSync(this.castFd);
    return finalScreen;
  }

  /** Closes the terminal as a user would (SIGHUP), then SIGKILL; what the exit was, if it came. */
  async hangUp(): Promise<ExitInfo | undefined> {
    if (this.exitInfo) return undefined;
    for (const [signal, ms] of [
      ['SIGHUP', 4000],
      ['SIGKILL', 1000],
    ] as const) {
      try {
        this.p.kill(signal);
      } catch {
        /* gone */
      }
      await Promise.race([this.exited, sleep(ms)]);
      if (this.exitInfo) return this.exitInfo;
    }
    return undefined;
  }

  dispose(): void {
    this.term.dispose();
  }

  private spawn(): pty.IPty {
    const { home } = this.o;
    const [cmd, args] = this.o.straceFile
      ? ['strace', ['-f', '-qq', '-e', 'trace=connect', '-o', this.o.straceFile, home.command, ...home.args]]
      : [home.command, home.args];
    const p = pty.spawn(cmd, args, {
      name: home.env.TERM ?? 'xterm-256color',
      cols: this.o.cols,
      rows: this.o.rows,
      cwd: home.cwd,
      env: home.env,
    });
    p.onData((d) => {
      this.castEvent('o', d);
      this.o.onOutput?.(d, this.now());
      this.term.write(d);
      this.checkWaiters();
    });
    p.onExit(({ exitCode, signal }) => {
      this.exitInfo = { t: this.now(), exitCode, signal };
      this.o.onExit?.(exitCode, this.exitInfo.t);
      this.castEvent('x', String(exitCode));
      this.mark('exited', { exitCode, signal });
      this.exitResolve();
      this.checkWaiters();
    });
    return p;
  }

  private castEvent(kind: 'o' | 'i' | 'x', data: string): void {
    if (!this.recording) return;
    const ev: CastEvent = [this.now(), kind, data];
    this.events.push(ev);
    fs.writeSync(this.castFd, `${JSON.stringify(ev)}\n`);
  }

  private checkWaiters(): void {
    if (!this.waiters.length) return;
    this.waiters = this.waiters.filter((w) => {
      if (!w.check()) return true;
      w.resolve();
      return false;
    });
  }
}
