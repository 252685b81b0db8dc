import * as l10n from '@vscode/l10n';
import { execFile } from 'child_process';
import { processesUnder, processInfo } from '../process/processTree';
import { DispatchFailure, type TargetFinder } from './dispatch';
import type { DeliveryTarget } from './steps';
import { findProcess, isProcess, matchesHint } from './targets';
import type { TeamAgent } from './team/schema';

/** How long a launched agent has to show its process (seed 002 §2: TUIs take 5–10 s to come up). */
export const LAUNCH_WAIT_MS = 10_000;

function tmux(args: string[], socket?: string): Promise<string> {
  const all = socket ? ['-S', socket, ...args] : args;
  return new Promise((resolve, reject) => {
    execFile('tmux', all, { timeout: 5000, maxBuffer: 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`tmux ${args[0]}: ${(stderr || err.message).trim()}`));
      else resolve(stdout);
    });
  });
}

interface Pane {
  id: string;
  pid: number;
  title: string;
  target: string;
  window: string;
  /** The program in the foreground of the pane (the pane's own process when tmux started it directly). */
  command: string;
}

async function panes(socket?: string): Promise<Pane[]> {
  let out: string;
  try {
    out = await tmux(['list-panes', '-a', '-F', '#{pane_id}\t#{pane_pid}\t#{pane_title}\t#{session_name}:#{window_index}.#{pane_index}\t#{window_name}\t#{pane_current_command}'], socket);
  } catch {
    return []; // no server: no panes
  }
  return out
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [id, pid, title, target, window, command] = l.split('\t');
      return { id, pid: Number(pid), title: title ?? '', target: target ?? '', window: window ?? '', command: command ?? '' };
    });
}

async function runs(p: Pane, name: string): Promise<boolean> {
  const self = await processInfo(p.pid);
  return isProcess(self ?? { pid: p.pid, ppid: 0, name: p.command, args: [] }, name) || !!findProcess(await processesUnder(p.pid), p.pid, name);
}

/**
 * Delivery under `agent-lens serve`: the agent's tmux pane, found fresh each time — the pane whose process
 * tree holds `process`, else the pane the registry's `tmux` names, else one whose title or window name
 * matches `window_hint`, else a new window running `launch`. Keys go in through `tmux send-keys`.
 */
export class TmuxFinder implements TargetFinder {
  constructor(private readonly socket?: string) {}

  async find(agent: TeamAgent): Promise<DeliveryTarget> {
    const all = await panes(this.socket);
    const pane = (await this.byProcess(all, agent)) ?? (await this.byTarget(agent)) ?? all.find((p) => matchesHint(p.title, agent.window_hint) || matchesHint(p.window, agent.window_hint)) ?? (await this.launch(agent));
    return this.target(pane);
  }

  private async byProcess(all: Pane[], agent: TeamAgent): Promise<Pane | undefined> {
    if (!agent.process) return undefined;
    for (const p of all) if (await runs(p, agent.process)) return p;
    return undefined;
  }

  private async byTarget(agent: TeamAgent): Promise<Pane | undefined> {
    if (!agent.tmux) return undefined;
    try {
      const [id, pid, title] = (await tmux(['display-message', '-p', '-t', agent.tmux, '#{pane_id}\t#{pane_pid}\t#{pane_title}'], this.socket)).trim().split('\t');
      return { id, pid: Number(pid), title, target: agent.tmux, window: '', command: '' };
    } catch {
      return undefined;
    }
  }

  private async launch(agent: TeamAgent): Promise<Pane> {
    if (!agent.launch) throw new DispatchFailure('no_terminal', l10n.t('no tmux pane runs {0} (looked for process "{1}", pane "{2}", hint "{3}") and team.toml gives no launch command', agent.process ?? agent.key, agent.process ?? '', agent.tmux ?? '', agent.window_hint ?? ''));
    let id: string;
    try {
      id = (await tmux(['new-window', '-d', '-P', '-F', '#{pane_id}', '-n', agent.key, '--', agent.launch, ...(agent.args ?? [])], this.socket)).trim();
    } catch (e) {
      throw new DispatchFailure('no_terminal', l10n.t('could not start {0} in a tmux window: {1}', agent.launch, String((e as Error).message)));
    }
    const end = Date.now() + LAUNCH_WAIT_MS;
    for (;;) {
      const p = (await panes(this.socket)).find((x) => x.id === id);
      if (!p) throw new DispatchFailure('capture_failed', l10n.t('the tmux window started for {0} closed at once: check its launch command "{1}"', agent.key, agent.launch));
      if (!agent.process || (await runs(p, agent.process))) return p;
      if (Date.now() > end) throw new DispatchFailure('capture_failed', l10n.t('{0} started in tmux pane {1}, but no process "{2}" appeared within {3} s', agent.launch, id, agent.process, LAUNCH_WAIT_MS / 1000));
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  private target(p: Pane): DeliveryTarget {
    return {
      pid: p.pid,
      title: `tmux ${p.target || p.id}${p.title ? ` (${p.title})` : ''}`,
      id: p.id,
      activate: async () => {
        await tmux(['select-window', '-t', p.id], this.socket).catch(() => undefined);
        await tmux(['select-pane', '-t', p.id], this.socket);
      },
      // -l: the text as literal keys, so nothing in it is read as a tmux key name.
      write: async (data) => void (await tmux(['send-keys', '-t', p.id, '-l', '--', data], this.socket)),
    };
  }
}
