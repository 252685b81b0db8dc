import * as fs from 'fs';
import * as path from 'path';
import type * as vscode from 'vscode';
import type { AgentKind } from '../detect/types';
import { parseRemembered, type RememberedTerminal, rememberedWords } from '../sources/terminal/remembered';
import { isAgent, needsYou } from '../store/policy';
import type { AgentStore } from '../store/store';

const KEY = 'agentLens.rememberedTerminals';
const SAVE_DELAY_MS = 500;

export interface TerminalFacts {
  shellPidOf(id: string): number | undefined;
  agentPidOf(id: string): number | undefined;
}

/**
 * Keeps, in the workspace's state, what each agent terminal had (its agent, session ids, an open dialog), and
 * gives it back to a terminal revived after a reload once the process scan finds the same agent in it. The
 * hooks' wait markers (beside the hub's discovery file) say whether a dialog a hook saw is still open.
 */
export class TerminalMemory implements vscode.Disposable {
  private saved: RememberedTerminal[];
  private timer: NodeJS.Timeout | undefined;
  private readonly subs: { dispose(): void }[] = [];

  constructor(
    private readonly state: vscode.Memento,
    private readonly store: AgentStore,
    private readonly facts: TerminalFacts,
    private readonly markerDir: () => string | undefined,
    private readonly log: (msg: string) => void,
  ) {
    this.saved = parseRemembered(state.get(KEY), Date.now());
    this.subs.push(store.onDidChange(() => this.saveSoon()), store.onDidChangeWait(() => this.saveSoon()));
  }

  /** The scan found `agent` (process `pid`) in a terminal that saw no command start: give back what it had. */
  agentFound(terminalId: string, found: { agent: AgentKind; pid: number }): void {
    const shellPid = this.facts.shellPidOf(terminalId);
    const i = shellPid === undefined ? -1 : this.saved.findIndex((r) => r.shellPid === shellPid);
    if (i < 0) return;
    const [r] = this.saved.splice(i, 1);
    const words = rememberedWords(r, terminalId, found, this.markerOpen(found.pid), Date.now());
    if (words.length) this.log(`restored ${words.length} remembered word(s) of a ${r.agent} session after the reload${r.wait ? ` (an open ${r.wait.kind})` : ''}`);
    for (const o of words) this.store.observe(o);
  }

  private markerOpen(pid: number): boolean | undefined {
    const dir = this.markerDir();
    if (!dir || !fs.existsSync(dir)) return undefined;
    return fs.existsSync(path.join(dir, String(pid)));
  }

  private saveSoon(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.state.update(KEY, this.snapshot());
    }, SAVE_DELAY_MS);
  }

  /** Every agent terminal of this window whose shell is known, and what the not yet revived ones still hold. */
  private snapshot(): RememberedTerminal[] {
    const now = Date.now();
    const waits = this.store.waits().filter(needsYou);
    const shells = new Set<number>();
    const out: RememberedTerminal[] = [];
    for (const t of this.store.terminals()) {
      const shellPid = this.facts.shellPidOf(t.id);
      if (!isAgent(t) || t.state === 'exited' || shellPid === undefined) continue;
      shells.add(shellPid);
      const w = waits.find((x) => x.terminalId === t.id && x.kind !== 'reply-question');
      const sessionIds = this.store.sessions().find((s) => s.key === t.sessionKey)?.agentSessionIds ?? [];
      out.push({
        shellPid,
        agent: t.agent as AgentKind,
        agentPid: this.facts.agentPidOf(t.id),
        ...(t.cwd ? { cwd: t.cwd } : {}),
        sessionIds: sessionIds.slice(-4),
        ...(w ? { wait: { kind: w.kind, question: w.question, options: w.options, openedAt: w.openedAt, openedBy: w.openedBy, byHook: w.seenBy.includes('hook') } } : {}),
        savedAt: now,
      });
    }
    // Entries of terminals not revived yet (their scan has not run) are kept until it does.
    return [...out, ...this.saved.filter((r) => !shells.has(r.shellPid))];
  }

  /** Saved once more on the way out (a reload), so the last change before it is not lost. */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    void this.state.update(KEY, this.snapshot());
    this.subs.forEach((s) => s.dispose());
  }
}
