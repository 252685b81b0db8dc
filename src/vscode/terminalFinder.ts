import * as vscode from 'vscode';
import { DispatchFailure, type TargetFinder } from '../handoff/dispatch';
import type { DeliveryTarget } from '../handoff/steps';
import { findProcess, matchesHint } from '../handoff/targets';
import type { TeamAgent } from '../handoff/team/schema';
import { processesUnder } from '../process/processTree';
import type { AgentStore } from '../store/store';
import type { TerminalAdapter } from './terminals';
import { shellWord } from '../shellQuote';

/** How long a launched agent has to be identified (seed 002 §2: a TUI takes 5–10 s to come up). */
export const LAUNCH_WAIT_MS = 10_000;

/**
 * Finds an agent's VS Code terminal fresh for every dispatch (seed 002 §2): a live terminal whose process tree
 * holds the registry's `process` (up to four levels below its shell), else one whose name matches
 * `window_hint`, else a new terminal running `launch` + `args`, once the detector or the process tree shows it.
 */
export class TerminalFinder implements TargetFinder {
  constructor(
    private readonly terminals: TerminalAdapter,
    private readonly store: AgentStore,
  ) {}

  async find(agent: TeamAgent): Promise<DeliveryTarget> {
    const live = vscode.window.terminals.filter((t) => t.exitStatus === undefined);
    if (agent.process) {
      for (const t of live) {
        const pid = await t.processId;
        const p = pid ? findProcess(await processesUnder(pid), pid, agent.process) : undefined;
        if (p) return this.target(t, p.pid);
      }
    }
    const hinted = live.find((t) => matchesHint(t.name, agent.window_hint));
    if (hinted) return this.target(hinted, await hinted.processId);
    return this.launch(agent);
  }

  private async launch(agent: TeamAgent): Promise<DeliveryTarget> {
    if (!agent.launch) throw new DispatchFailure('no_terminal', vscode.l10n.t('no terminal runs {0} (process "{1}", window_hint "{2}") and team.toml gives no launch command: start it in a terminal, or add launch = "…"', agent.key, agent.process ?? '', agent.window_hint ?? ''));
    const t = vscode.window.createTerminal({ name: agent.display_name ?? agent.key });
    const line = [agent.launch, ...(agent.args ?? []).map(shellWord)].join(' ');
    const si = await waitFor(() => t.shellIntegration, 5000);
    if (si) si.executeCommand(line);
    else t.sendText(line, true);
    const shell = await t.processId;
    const end = Date.now() + LAUNCH_WAIT_MS;
    for (;;) {
      if (t.exitStatus) throw new DispatchFailure('capture_failed', vscode.l10n.t('the terminal started for {0} closed (exit {1}): check launch = "{2}"', agent.key, t.exitStatus.code ?? '?', agent.launch));
      const id = this.terminals.idOf(t);
      const seen = id ? this.store.terminal(id) : undefined;
      const p = agent.process && shell ? findProcess(await processesUnder(shell), shell, agent.process) : undefined;
      if (p || (seen && seen.agent !== 'shell')) return this.target(t, p?.pid ?? shell);
      if (Date.now() > end) {
        const s = LAUNCH_WAIT_MS / 1000;
        throw new DispatchFailure('capture_failed', agent.process ? vscode.l10n.t('started "{0}" in a new terminal, but no process "{1}" showed up within {2} s', line, agent.process, s) : vscode.l10n.t('started "{0}" in a new terminal, but no agent showed up within {1} s', line, s));
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  private target(t: vscode.Terminal, pid: number | undefined): DeliveryTarget {
    const id = this.terminals.idOf(t) ?? t.name;
    const alive = () => {
      // Never a stale reference: the terminal must still be open when each key goes in.
      if (t.exitStatus !== undefined || !vscode.window.terminals.includes(t)) throw new Error(vscode.l10n.t('the terminal “{0}” was closed', t.name));
    };
    return {
      pid,
      title: t.name,
      id,
      activate: async () => {
        alive();
        t.show(false);
      },
      write: async (data) => {
        alive();
        t.sendText(data, false);
      },
    };
  }
}

async function waitFor<T>(probe: () => T | undefined, ms: number): Promise<T | undefined> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}
