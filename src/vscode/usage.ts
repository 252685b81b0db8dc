import type * as vscode from 'vscode';
import { isAgent } from '../common/agents';
import { printable } from '../common/printable';
import type { NotifyEvent } from '../notify/message';
import type { AgentStore } from '../store/store';
import type { TerminalState } from '../store/types';
import { UsageBook, type SessionUsage } from '../usage/book';
import { figures, ModelFacts, type UsageFigures } from '../usage/figures';
import { priceOverrides } from '../usage/overrides';
import { displayName } from '../views/names';
import { usageWarning, type UsageThresholds } from '../views/usageText';
import type { AgentLensConfig } from './config';

/** A session's figures with the terminal that shows it, as `agent-lens status --json` and the API carry them. */
export interface TerminalUsage extends UsageFigures {
  terminal?: { id: string; name: string };
}

/**
 * The usage book in the window: fed by the session-log sources, read by the views through `byTerminal`, and
 * watched for a session passing a warning mark (context nearly full, a budget passed), which is told once per
 * session and mark to the notification channels that list the `usage` event.
 */
export class UsageHost implements vscode.Disposable {
  readonly book = new UsageBook();
  private facts = new ModelFacts();
  private readonly warned = new Set<string>();
  private readonly dirty = new Set<SessionUsage>();
  private readonly sub: { dispose(): void };
  private disposed = false;

  constructor(
    private readonly store: AgentStore,
    private readonly config: () => AgentLensConfig,
    private readonly log: vscode.LogOutputChannel,
    onChange: () => void,
    private readonly tell: (e: Extract<NotifyEvent, { kind: 'usage' }>) => void,
  ) {
    this.reconfigure();
    // A log read in one go tells the book of many records: each session they changed is looked at once after.
    this.sub = this.book.onDidChange((s) => {
      onChange();
      if (this.dirty.size === 0) queueMicrotask(() => this.considerDirty());
      this.dirty.add(s);
    });
  }

  /** The user's prices changed: the table is rebuilt, and a row that does not parse is named in the log. */
  reconfigure(): void {
    const { rows, errors } = priceOverrides(this.config().usagePrices);
    for (const e of errors) this.log.warn(printable(e));
    this.facts = new ModelFacts(rows);
  }

  thresholds(): UsageThresholds {
    return this.config().usage;
  }

  /** Each agent terminal's figures, by terminal id: the session its agent session id names. */
  byTerminal(terminals: readonly TerminalState[]): Map<string, UsageFigures> {
    const out = new Map<string, UsageFigures>();
    for (const t of terminals) {
      if (!isAgent(t) || !t.agentSessionId) continue;
      const s = this.book.get(t.agent, t.agentSessionId);
      if (s) out.set(t.id, figures(s, this.facts));
    }
    return out;
  }

  /** Every session the logs told of, newest first, with its terminal where one shows it. */
  all(): TerminalUsage[] {
    const terminals = this.store.terminals();
    const shownBy = new Map(terminals.filter((t) => t.agentSessionId).map((t) => [`${t.agent}:${t.agentSessionId}`, t]));
    return this.book
      .all()
      .reverse()
      .map((s) => {
        const t = shownBy.get(`${s.agent}:${s.sessionId}`);
        const f: TerminalUsage = figures(s, this.facts);
        if (t) f.terminal = { id: t.id, name: displayName(t, terminals) };
        return f;
      });
  }

  dispose(): void {
    this.disposed = true;
    this.sub.dispose();
    this.book.dispose();
  }

  private considerDirty(): void {
    const sessions = [...this.dirty];
    this.dirty.clear();
    if (this.disposed) return;
    const terminals = this.store.terminals();
    for (const s of sessions) this.consider(s, terminals);
  }

  private consider(s: SessionUsage, terminals: readonly TerminalState[]): void {
    const t = terminals.find((x) => x.agent === s.agent && x.agentSessionId === s.sessionId);
    if (!t) return; // a session no terminal of this window shows runs elsewhere
    const warning = usageWarning(figures(s, this.facts), this.thresholds());
    if (!warning) return;
    const key = `${s.agent}:${s.sessionId}:${warning.kind}`;
    if (this.warned.has(key)) return;
    this.warned.add(key);
    const name = displayName(t, terminals);
    this.log.info(`usage: ${printable(name)} (${s.agent}): ${warning.text}`);
    this.tell({
      kind: 'usage',
      id: key,
      agent: s.agent,
      terminal: name,
      ...(t.cwd ? { folder: t.cwd } : {}),
      warning: warning.text,
      at: Date.now(),
    });
  }
}
