import { pollUntil } from '../common/poll';
import * as l10n from '@vscode/l10n';
import { execFile } from 'child_process';
import { foregroundOf, type ProcInfo, processesUnder, processInfo, ttyHolder } from '../sources/process/processTree';
import { quoted } from '../common/printable';
import { DispatchFailure, type TargetFinder } from './dispatch';
import type { DeliveryTarget } from './steps';
import { candidates, type Looked, narrow, notChosen, type PaneFacts, paneVerdict, type Qualified, refusal, seenAmong } from './targets';
import type { TeamAgent } from './team/schema';

/** How long a launched agent has to show its process (TUIs take 5–10 s to come up). */
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
  /** Whatever the last program set (OSC 2), kept after it exits: only ever matched against window_hint. */
  title: string;
  target: string;
  window: string;
  /** The program in the foreground of the pane, as tmux reads it. */
  command: string;
}

const FORMAT =
  '#{pane_id}\t#{pane_pid}\t#{pane_title}\t#{session_name}:#{window_index}.#{pane_index}\t#{window_name}\t#{pane_current_command}\t#{pane_dead}';

function parsePanes(out: string): Pane[] {
  return out
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t'))
    .filter((f) => f[6] !== '1') // a dead pane (remain-on-exit) has nothing to type into
    .map(([id, pid, title, target, window, command]) => ({
      id,
      pid: Number(pid),
      title: title ?? '',
      target: target ?? '',
      window: window ?? '',
      command: command ?? '',
    }));
}

async function panes(socket?: string): Promise<Pane[]> {
  try {
    return parsePanes(await tmux(['list-panes', '-a', '-F', FORMAT], socket));
  } catch {
    return []; // no server: no panes
  }
}

/** Ancestors looked at when placing a process in a pane: deeper than any shell, tool and agent nesting. */
const PANE_DEPTH = 64;

/**
 * The tmux pane (`work:0.1`) whose process tree holds `pid`: the first pane whose own process is `pid` or one
 * of its ancestors. Undefined with no tmux server, no such pane, or a process already gone.
 */
export async function paneHolding(pid: number, socket?: string): Promise<string | undefined> {
  const byPid = new Map((await panes(socket)).map((p) => [p.pid, p.target || p.id]));
  if (!byPid.size) return undefined;
  for (let cur = pid, i = 0; cur > 1 && i < PANE_DEPTH; i++) {
    const hit = byPid.get(cur);
    if (hit) return hit;
    const info = await processInfo(cur);
    if (!info || info.ppid === cur) return undefined;
    cur = info.ppid;
  }
  return undefined;
}

/** A pane's processes, its own first: a pane's process may be the agent itself (`new-window -- claude`). */
async function paneFacts(p: Pane, agent: TeamAgent): Promise<PaneFacts> {
  const self: ProcInfo = (await processInfo(p.pid)) ?? { pid: p.pid, ppid: 0, name: p.command, args: [] };
  const procs = [self, ...(await processesUnder(p.pid))];
  const [seen, holder] = await Promise.all([seenAmong(p.pid, candidates(agent, procs, p.pid)), ttyHolder(p.pid)]);
  return { agent: seen, holder: holder?.leader, command: p.command };
}

/**
 * Delivery under `agent-lens serve`: the agent's tmux pane, found fresh each time. A pane qualifies only while
 * the registry's `process` (without one, a known agent CLI) is in the foreground of its tty and no shell reads
 * its input (`paneVerdict`). Among qualifying panes the registry's `tmux` pane, then `window_hint`, chooses;
 * neither ever makes a pane qualify. With none, `launch` opens a window, which qualifies once its agent runs.
 * Keys go in through `tmux send-keys`, each write after checking again that the agent still holds the pane.
 */
export class TmuxFinder implements TargetFinder {
  constructor(private readonly socket?: string) {}

  async find(agent: TeamAgent): Promise<DeliveryTarget> {
    const looked: Looked[] = [];
    const ok: Qualified<{ pane: Pane; pid?: number }>[] = [];
    for (const p of await panes(this.socket)) {
      const v = paneVerdict(agent, await paneFacts(p, agent));
      const name = `${p.target} ${p.title} ${p.window}`;
      if (v.ok) ok.push({ item: { pane: p, pid: v.pid }, names: [p.title, p.window], paneId: p.id });
      else looked.push({ name, why: v.why });
    }
    const pick = narrow(ok, agent, await this.paneIdOf(agent));
    if (pick) return this.target(pick.pane, agent, pick.pid);
    for (const q of ok) looked.push({ name: `${q.item.pane.target} ${q.item.pane.title} ${q.item.pane.window}`, why: notChosen(agent) });
    if (agent.launch) return this.launch(agent);
    throw new DispatchFailure('no_terminal', refusal(agent, 'tmux', looked));
  }

  /** The pane id the registry's `tmux` target names now, if any (a target like "agents:0.1" follows the layout). */
  private async paneIdOf(agent: TeamAgent): Promise<string | undefined> {
    if (!agent.tmux) return undefined;
    try {
      return (await tmux(['display-message', '-p', '-t', agent.tmux, '#{pane_id}'], this.socket)).trim() || undefined;
    } catch {
      return undefined;
    }
  }

  private async launch(agent: TeamAgent): Promise<DeliveryTarget> {
    let id: string;
    try {
      id = (
        await tmux(['new-window', '-d', '-P', '-F', '#{pane_id}', '-n', agent.key, '--', agent.launch!, ...(agent.args ?? [])], this.socket)
      ).trim();
    } catch (e) {
      throw new DispatchFailure(
        'no_terminal',
        l10n.t('could not start {0} in a tmux window: {1}', agent.launch!, String((e as Error).message)),
      );
    }
    let why = '';
    const found = await pollUntil(
      async () => {
        const p = (await panes(this.socket)).find((x) => x.id === id);
        if (!p)
          throw new DispatchFailure(
            'capture_failed',
            l10n.t('the tmux window started for {0} closed at once: check its launch command "{1}"', agent.key, agent.launch!),
          );
        const v = paneVerdict(agent, await paneFacts(p, agent));
        if (!v.ok) why = v.why;
        return v.ok ? { p, pid: v.pid } : undefined;
      },
      { everyMs: 250, forMs: LAUNCH_WAIT_MS },
    );
    if (found) return this.target(found.p, agent, found.pid);
    const what = agent.process
      ? l10n.t('process {0}', quoted(agent.process))
      : l10n.t('a known agent CLI (set process = "…" in team.toml for another program)');
    throw new DispatchFailure(
      'capture_failed',
      l10n.t(
        '{0} started in tmux pane {1}, but {2} did not come up in its foreground within {3} s ({4}); nothing was typed',
        agent.launch!,
        id,
        what,
        LAUNCH_WAIT_MS / 1000,
        why,
      ),
    );
  }

  /**
   * The pane as a delivery target. `{title}` is the pane's target and id only: its title is whatever a program
   * set. Every activate and write first reads the pane again (its process, tmux's foreground command, the tty's
   * foreground group) and stops the delivery when the agent no longer holds the pane.
   */
  private target(p: Pane, agent: TeamAgent, agentPid: number | undefined): DeliveryTarget {
    const title = `tmux ${p.target || p.id}`;
    const check = async (): Promise<void> => {
      const [now] = parsePanes(await tmux(['display-message', '-p', '-t', p.id, FORMAT], this.socket).catch(() => ''));
      const why = !now || now.pid !== p.pid ? l10n.t('the pane closed or restarted') : await this.stillHeld(now, agent, agentPid);
      if (why) throw new Error(l10n.t('{0} no longer holds {1} ({2}): nothing more was typed', agent.process ?? agent.key, title, why));
    };
    return {
      pid: agentPid ?? p.pid,
      title,
      id: p.id,
      activate: async () => {
        await check();
        await tmux(['select-window', '-t', p.id], this.socket).catch(() => undefined);
        await tmux(['select-pane', '-t', p.id], this.socket);
      },
      // -l: the text as literal keys, so nothing in it is read as a tmux key name.
      write: async (data) => {
        await check();
        await tmux(['send-keys', '-t', p.id, '-l', '--', data], this.socket);
      },
    };
  }

  /** Why the agent found at planning no longer holds the pane, or undefined while it does (cheap: two /proc reads). */
  private async stillHeld(p: Pane, agent: TeamAgent, agentPid: number | undefined): Promise<string | undefined> {
    if (agentPid === undefined) return l10n.t('no agent process was found');
    const [fg, holder] = await Promise.all([foregroundOf(p.pid, agentPid), ttyHolder(p.pid)]);
    const v = paneVerdict(agent, { agent: { pid: agentPid, fg }, holder: holder?.leader, command: p.command });
    return v.ok ? undefined : v.why;
  }
}
