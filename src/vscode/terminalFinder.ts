import { pollUntil } from '../common/poll';
import * as vscode from 'vscode';
import { DispatchFailure, type TargetFinder } from '../handoff/dispatch';
import type { DeliveryTarget } from '../handoff/steps';
import {
  candidates,
  type Looked,
  narrow,
  notChosen,
  type Qualified,
  refusal,
  seenAmong,
  type SeenProcess,
  type TerminalFacts,
  terminalVerdict,
} from '../handoff/targets';
import type { TeamAgent } from '../handoff/team/schema';
import { foregroundOf, processesUnder, ttyHolder } from '../sources/process/processTree';
import type { AgentStore } from '../store/store';
import type { TerminalAdapter } from './terminals';
import { shellWord } from '../common/shellQuote';

/** How long a launched agent has to be identified (a TUI takes 5–10 s to come up). */
export const LAUNCH_WAIT_MS = 10_000;

/**
 * Finds an agent's VS Code terminal fresh for every dispatch (terminals come and go). A terminal qualifies only while its
 * agent holds it (`terminalVerdict`): the registry's `process` in the foreground process group of the
 * terminal's tty (Linux /proc, `ps` on macOS; on Windows, where that cannot be read, below its shell while
 * Agent Lens shows a running agent there), or, without `process`, a running agent Agent Lens shows there with
 * no shell holding the terminal. `window_hint` only chooses among qualifying terminals. With none, `launch`
 * opens a terminal, which qualifies once its agent does. Every key is preceded by the same check.
 */
export class TerminalFinder implements TargetFinder {
  constructor(
    private readonly terminals: TerminalAdapter,
    private readonly store: AgentStore,
  ) {}

  async find(agent: TeamAgent): Promise<DeliveryTarget> {
    const looked: Looked[] = [];
    const ok: Qualified<{ t: vscode.Terminal; pid?: number }>[] = [];
    for (const t of vscode.window.terminals) {
      if (t.exitStatus !== undefined) continue;
      const v = terminalVerdict(agent, await this.facts(t, agent));
      if (v.ok) ok.push({ item: { t, pid: v.pid }, names: [t.name] });
      else looked.push({ name: t.name, why: v.why });
    }
    const pick = narrow(ok, agent);
    if (pick) return await this.target(pick.t, agent, pick.pid);
    for (const q of ok) looked.push({ name: q.item.t.name, why: notChosen(agent) });
    if (agent.launch) return this.launch(agent, agent.launch);
    throw new DispatchFailure('no_terminal', refusal(agent, 'terminal', looked));
  }

  /** What the terminal shows now: its agent process and where it stands, the tty's foreground leader, the store's view. */
  private async facts(t: vscode.Terminal, agent: TeamAgent, recheck?: { pid?: number }): Promise<TerminalFacts> {
    const open = t.exitStatus === undefined && vscode.window.terminals.includes(t);
    const id = this.terminals.idOf(t);
    const s = id ? this.store.terminal(id) : undefined;
    const base: TerminalFacts = { open, seen: s && { agent: s.agent, state: s.state } };
    const shell = await t.processId;
    if (!open || !shell) return base;
    return { ...base, agent: await this.agentIn(shell, agent, recheck), holder: (await ttyHolder(shell))?.leader };
  }

  /**
   * The registry's `process` below the shell and where it stands. At each key only the process found at
   * planning is read again (cheap /proc reads), not the whole tree (on Windows a CIM query of a second or
   * more). Without `process` none is looked for: the store's view decides (terminalVerdict).
   */
  private async agentIn(shell: number, agent: TeamAgent, recheck?: { pid?: number }): Promise<SeenProcess | undefined> {
    if (!agent.process) return undefined;
    if (recheck?.pid !== undefined) return { pid: recheck.pid, fg: await foregroundOf(shell, recheck.pid) };
    return seenAmong(shell, candidates(agent, await processesUnder(shell), shell));
  }

  private async launch(agent: TeamAgent, launch: string): Promise<DeliveryTarget> {
    const t = vscode.window.createTerminal({ name: agent.display_name ?? agent.key });
    const line = [launch, ...(agent.args ?? []).map(shellWord)].join(' ');
    const si = await waitFor(() => t.shellIntegration, 5000);
    if (si) si.executeCommand(line);
    else t.sendText(line, true);
    let why = '';
    const found = await pollUntil(
      async () => {
        if (t.exitStatus)
          throw new DispatchFailure(
            'capture_failed',
            vscode.l10n.t(
              'the terminal started for {0} closed (exit {1}): check launch = "{2}"',
              agent.key,
              t.exitStatus.code ?? '?',
              launch,
            ),
          );
        // The terminal Agent Lens opened qualifies like any other: only once its agent holds it.
        const v = terminalVerdict(agent, await this.facts(t, agent));
        if (!v.ok) why = v.why;
        return v.ok ? { pid: v.pid } : undefined;
      },
      { everyMs: 250, forMs: LAUNCH_WAIT_MS },
    );
    if (found) return await this.target(t, agent, found.pid);
    const s = LAUNCH_WAIT_MS / 1000;
    throw new DispatchFailure(
      'capture_failed',
      agent.process
        ? vscode.l10n.t(
            'started "{0}" in a new terminal, but process "{1}" did not come up in its foreground within {2} s ({3}); nothing was typed',
            line,
            agent.process,
            s,
            why,
          )
        : vscode.l10n.t('started "{0}" in a new terminal, but no agent showed up within {1} s ({2}); nothing was typed', line, s, why),
    );
  }

  private async target(t: vscode.Terminal, agent: TeamAgent, agentPid: number | undefined): Promise<DeliveryTarget> {
    const id = this.terminals.idOf(t) ?? t.name;
    const shell = await t.processId;
    // Before every key: the terminal is still open (never a stale reference) and its agent still holds it —
    // it may have exited between the click and Enter, leaving a shell to read the rest.
    const check = async (): Promise<void> => {
      if (t.exitStatus !== undefined || !vscode.window.terminals.includes(t))
        throw new Error(vscode.l10n.t('the terminal “{0}” was closed', t.name));
      const v = terminalVerdict(agent, await this.facts(t, agent, { pid: agentPid }));
      if (!v.ok)
        throw new Error(
          vscode.l10n.t('{0} no longer holds the terminal “{1}” ({2}): nothing more was typed', agent.process ?? agent.key, t.name, v.why),
        );
    };
    return {
      pid: agentPid ?? shell,
      title: t.name,
      id,
      activate: async () => {
        await check();
        t.show(false);
      },
      write: async (data) => {
        await check();
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
