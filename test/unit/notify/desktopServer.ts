import { type ChildProcess, spawn, spawnSync } from 'child_process';
import * as fs from 'fs';

/** Whether this machine has what a real Linux desktop notification needs here (Debian: xvfb, dunst, dbus). */
export function haveDesktopServer(): boolean {
  return (
    process.platform === 'linux' &&
    ['Xvfb', 'dunst', 'dunstctl', 'dbus-daemon'].every((p) => spawnSync('sh', ['-c', `command -v ${p}`]).status === 0)
  );
}

export interface DesktopServer {
  /** DISPLAY and DBUS_SESSION_BUS_ADDRESS for the programs that notify. */
  env: NodeJS.ProcessEnv;
  /** What dunst has shown, newest first: those on screen are closed first, so `dunstctl history` holds them. */
  history(): { appname: string; summary: string; body: string; message: string }[];
  /** How many notifications dunst has had: on screen, waiting and in its history (closes none). */
  count(): number;
  stop(): Promise<void>;
}

const kill = (p: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (p.exitCode !== null || p.signalCode !== null) return resolve();
    p.once('exit', () => resolve());
    p.kill('SIGTERM');
    setTimeout(() => p.kill('SIGKILL'), 2000).unref();
  });

const BUS_CONFIG = `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`;

export interface DesktopServerOptions {
  /** Xvfb's screen, WIDTHxHEIGHTxDEPTH (1024x768x24). */
  screen?: string;
  /** dunst's whole configuration (default: a history of 50, kept when closed). */
  dunstrc?: string;
}

/** A virtual X display, a D-Bus session of its own and dunst serving org.freedesktop.Notifications on it. */
export async function startDesktopServer(o: DesktopServerOptions = {}): Promise<DesktopServer> {
  const display = `:${90 + Math.floor(Math.random() * 800)}`;
  const xvfb = spawn('Xvfb', [display, '-screen', '0', o.screen ?? '1024x768x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
  // A bus of its own without service activation: a call before dunst is up must fail, not start another dunst
  // as the bus's child, which would outlive the test.
  const busConf = `/tmp/agent-lens-bus-${process.pid}.conf`;
  fs.writeFileSync(busConf, BUS_CONFIG);
  const bus = spawn('dbus-daemon', [`--config-file=${busConf}`, '--nofork', '--print-address=1'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const address = await new Promise<string>((resolve, reject) => {
    xvfb.once('exit', () => reject(new Error('Xvfb exited')));
    let out = '';
    bus.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.split('\n')[0].trim());
    });
    bus.once('exit', () => reject(new Error('dbus-daemon exited')));
  }).catch(async (e: unknown) => {
    await Promise.all([kill(bus), kill(xvfb)]);
    throw e;
  });
  const env = { ...process.env, DISPLAY: display, DBUS_SESSION_BUS_ADDRESS: address };
  const conf = `/tmp/agent-lens-dunstrc-${process.pid}`;
  fs.writeFileSync(conf, o.dunstrc ?? '[global]\n    history_length = 50\n    sticky_history = yes\n');
  const dunst = spawn('dunst', ['-config', conf], { env, stdio: 'ignore' });
  const ctl = (args: string[]) => spawnSync('dunstctl', args, { env, encoding: 'utf8' });
  for (let i = 0; i < 100 && ctl(['is-paused']).status !== 0; i++) await new Promise((r) => setTimeout(r, 50));
  if (ctl(['is-paused']).status !== 0) {
    // Nothing it started outlives it.
    await Promise.all([kill(dunst), kill(bus), kill(xvfb)]);
    throw new Error('dunst did not come up on the session bus');
  }
  return {
    env,
    history: () => {
      ctl(['close-all']);
      const h = JSON.parse(ctl(['history']).stdout) as {
        data: { appname: { data: string }; summary: { data: string }; body: { data: string }; message: { data: string } }[][];
      };
      // `message` is the Pango markup dunst draws: its own <b>summary</b>, then the body as the server parsed it.
      return h.data[0].map((n) => ({ appname: n.appname.data, summary: n.summary.data, body: n.body.data, message: n.message.data }));
    },
    count: () => ['displayed', 'waiting', 'history'].reduce((sum, k) => sum + Number(ctl(['count', k]).stdout.trim() || 0), 0),
    stop: async () => {
      await Promise.all([kill(dunst), kill(bus), kill(xvfb)]);
      fs.rmSync(conf, { force: true });
      fs.rmSync(busConf, { force: true });
    },
  };
}
