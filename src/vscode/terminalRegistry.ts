import { randomBytes } from 'crypto';
import * as vscode from 'vscode';
import type { AgentStore } from '../store/store';
import { terminalAmong } from '../sources/hooks/lineage';

const NAME_POLL_MS = 1000;

/**
 * Which VS Code terminal is which Agent Lens id, its shell's and its agent's process, and its name in the store.
 * Ids are random, not counted: unique across reloads and windows for the terminal's life.
 */
export class TerminalRegistry implements vscode.Disposable {
  private readonly ids = new Map<vscode.Terminal, string>();
  /** Each terminal's shell process: hook reports name their ancestors, and the shell among them is the terminal. */
  private readonly shellPids = new Map<number, string>();
  /** Each terminal's agent process, where a scan or the agent's folder lookup found it. */
  private readonly agentPids = new Map<string, number>();
  private readonly nameTimer: NodeJS.Timeout;
  private readonly sub: vscode.Disposable;

  constructor(private readonly store: AgentStore) {
    this.sub = vscode.window.onDidChangeTerminalState((t) => this.rename(t));
    // VS Code fires no event when a tab's title changes (the program in it, a rename): names are compared each second.
    this.nameTimer = setInterval(() => this.syncNames(), NAME_POLL_MS);
  }

  /** The terminal's id, and whether it was new (it then has a row in the store). */
  add(t: vscode.Terminal): { id: string; added: boolean } {
    const known = this.ids.get(t);
    if (known) return { id: known, added: false };
    const id = `term-${randomBytes(4).toString('hex')}`;
    this.ids.set(t, id);
    this.store.openTerminal(id, t.name);
    return { id, added: true };
  }

  /** Forgets a closed terminal and its processes; its row leaves the store. */
  remove(t: vscode.Terminal): string | undefined {
    const id = this.ids.get(t);
    if (!id) return undefined;
    this.ids.delete(t);
    this.agentPids.delete(id);
    for (const [pid, tid] of this.shellPids) if (tid === id) this.shellPids.delete(pid);
    this.store.closeTerminal(id);
    return id;
  }

  idOf(t: vscode.Terminal): string | undefined {
    return this.ids.get(t);
  }

  terminalOf(id: string): vscode.Terminal | undefined {
    for (const [t, i] of this.ids) if (i === id) return t;
    return undefined;
  }

  all(): [vscode.Terminal, string][] {
    return [...this.ids];
  }

  setShellPid(id: string, pid: number): void {
    this.shellPids.set(pid, id);
  }

  shellPidOf(id: string): number | undefined {
    for (const [pid, tid] of this.shellPids) if (tid === id) return pid;
    return undefined;
  }

  /** The terminal whose shell (else the agent a scan found in it) is one of these processes (a reporter's ancestry), if any. */
  terminalForPids(pids: readonly number[]): string | undefined {
    return terminalAmong(pids, { shellPids: this.shellPids, agentPids: this.agentPids });
  }

  setAgentPid(id: string, pid: number | undefined): void {
    if (pid === undefined) this.agentPids.delete(id);
    else this.agentPids.set(id, pid);
  }

  agentPidOf(id: string): number | undefined {
    return this.agentPids.get(id);
  }

  dispose(): void {
    clearInterval(this.nameTimer);
    this.sub.dispose();
  }

  private rename(t: vscode.Terminal): void {
    const id = this.ids.get(t);
    if (id) this.store.renameTerminal(id, t.name);
  }

  private syncNames(): void {
    for (const [t, id] of this.ids) if (this.store.terminal(id)?.name !== t.name) this.store.renameTerminal(id, t.name);
  }
}
