import * as l10n from '@vscode/l10n';
import { hostPlatform } from '../common/platform';
import { type ChildProcess, execFile, spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { Channel } from './config';
import { CLICKED, desktopArgv } from './desktop';
import { SendError } from './post';
import type { Send, SenderOptions } from './sendTypes';

const OUTPUT_KEPT = 4096;

/** Runs argv (no shell) with `input` on stdin; resolves on exit 0; what it printed goes to `output`, cut to 4 KB. */
export function run(
  argv: readonly string[],
  o: { timeoutMs: number; env?: NodeJS.ProcessEnv; input?: string; output(text: string): void },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const [program, ...args] = argv;
    const p = spawn(program, args, {
      env: o.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: o.timeoutMs,
      killSignal: 'SIGKILL',
    });
    let out = '';
    const keep = (d: Buffer) => void (out.length < OUTPUT_KEPT && (out += d.toString('utf8')));
    p.stdout.on('data', keep);
    p.stderr.on('data', keep);
    p.on('error', (e) => reject(couldNotRun(program, e)));
    p.on('close', (code, signal) => {
      if (out.trim()) o.output(out.slice(0, OUTPUT_KEPT).trim());
      if (code === 0) resolve();
      else if (signal)
        reject(new SendError('timeout', l10n.t('{0} did not finish within {1} s ({2})', program, o.timeoutMs / 1000, signal)));
      else reject(exitedWith(program, code));
    });
    p.stdin.on('error', () => undefined);
    p.stdin.end(o.input ?? '');
  });
}

/**
 * The user's command: argv as given (no shell), the message in AGENT_LENS_* variables and as JSON on stdin.
 * What it prints goes to the log; a non-zero exit or the timeout is a failure.
 */
export function commandSender(ch: Extract<Channel, { kind: 'command' }>, o: SenderOptions): Send {
  return (m) =>
    run(ch.argv, {
      timeoutMs: ch.timeoutSeconds * 1000,
      env: {
        ...(o.env ?? process.env),
        AGENT_LENS_EVENT: m.event,
        AGENT_LENS_TITLE: m.title,
        AGENT_LENS_BODY: m.body,
        AGENT_LENS_COUNT: String(m.count),
      },
      input: JSON.stringify({ source: 'agent-lens', event: m.event, title: m.title, body: m.body, count: m.count }),
      output: o.output,
    });
}

/** The operating system's own notification (./desktop.ts), with this machine's programs. */
export function desktopSender(ch: Extract<Channel, { kind: 'desktop' }>, o: SenderOptions): Send {
  const platform = o.platform ?? hostPlatform();
  const env = o.env ?? process.env;
  const has = (p: string) => onPath(p, env);
  const clicks = new Set<ChildProcess>();
  let actions: Promise<boolean> | undefined;
  const send: Send = async (m) => {
    // Only notify-send reports a click to its caller, and only where it takes --action.
    const { click } = m;
    const onClick =
      click && o.onClick && platform === 'linux' && has('notify-send') && (await (actions ??= takesActions(env))) ? o.onClick : undefined;
    const argv = desktopArgv(platform, m, { has, sound: ch.sound, actions: !!onClick });
    if (!argv) throw new SendError('unsupported', l10n.t('no desktop notifications on {0}', platform));
    if (onClick && click) return runUntilClicked(argv, { env, output: o.output, clicks, onClick: () => onClick(click) });
    return run(argv, { timeoutMs: 10_000, env, output: o.output });
  };
  send.dispose = () => clicks.forEach((p) => p.kill('SIGTERM'));
  return send;
}

/** Whether this notify-send knows `--action` (libnotify 0.7.10+): asked once, from its own help, off the event loop. */
function takesActions(env: NodeJS.ProcessEnv): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('notify-send', ['--help'], { env, timeout: 5000 }, (_err, stdout, stderr) =>
      resolve(/--action/.test(`${String(stdout ?? '')}${String(stderr ?? '')}`)),
    );
  });
}

/** How long a shown notification keeps listening for its click; then the process ends and a click does nothing. */
const CLICK_WAIT_MS = 30 * 60_000;
/** A notify-send that has not failed by then has shown its notification. */
const SHOWN_AFTER_MS = 1000;

/**
 * notify-send with an action waits for the notification to close, printing the action clicked: the send is done
 * once it has run a second without failing (or ended well), and the click is reported whenever it comes.
 */
function runUntilClicked(
  argv: readonly string[],
  o: { env: NodeJS.ProcessEnv; output(text: string): void; clicks: Set<ChildProcess>; onClick(): void },
): Promise<void> {
  return new Promise((resolve, reject) => {
    const [program, ...args] = argv;
    const p = spawn(program, args, { env: o.env, stdio: ['ignore', 'pipe', 'pipe'] });
    o.clicks.add(p);
    const ends = setTimeout(() => p.kill('SIGTERM'), CLICK_WAIT_MS);
    ends.unref();
    const shown = setTimeout(resolve, SHOWN_AFTER_MS);
    let err = '';
    p.stdout.on('data', (d: Buffer) => {
      const said = d.toString('utf8').split('\n');
      if (said.includes(CLICKED)) o.onClick();
      else if (said.some((l) => l.trim())) o.output(said.join(' ').trim());
    });
    p.stderr.on('data', (d: Buffer) => void (err.length < OUTPUT_KEPT && (err += d.toString('utf8'))));
    p.on('error', (e) => reject(couldNotRun(program, e)));
    p.on('close', (code) => {
      clearTimeout(ends);
      clearTimeout(shown);
      o.clicks.delete(p);
      if (err.trim()) o.output(err.trim());
      if (code === 0 || code === null) resolve();
      else reject(exitedWith(program, code));
    });
  });
}

/** The failures the test notice shows (src/notify/channelPicks.ts testResultNotice), in the window's language. */
const couldNotRun = (program: string, e: Error) => new SendError('spawn', l10n.t('could not run {0}: {1}', program, e.message));
const exitedWith = (program: string, code: number | null) =>
  new SendError(`exit ${code}`, l10n.t('{0} exited with {1}', program, String(code)));

/** Whether `program` is an executable file in one of PATH's folders. */
export function onPath(program: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? '').split(path.delimiter).some((dir) => {
    try {
      fs.accessSync(path.join(dir, program), fs.constants.X_OK);
      return !!dir;
    } catch {
      return false;
    }
  });
}
