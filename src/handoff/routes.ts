import * as l10n from '@vscode/l10n';
import { randomBytes } from 'crypto';
import type { StateChange, TerminalState } from '../store/types';
import { isInFlight } from './board';
import type { Boards } from './boards';
import type { DispatchRequest, DispatchResult } from './dispatch';
import { printable } from '../common/printable';
import { isAgent } from '../common/agents';
import { TURN_ENDED } from '../common/states';
import type { Logger } from '../common/log';

/**
 * Routing triggers: when terminal A's agent comes to rest as Stopped or Completed, registered agent
 * B gets a brief made from a template, once per transition. A target busy with another task holds one pending
 * brief per route (the newest replaces an older one) until its in-flight gate opens: never an unbounded queue.
 */
export interface Route {
  id: string;
  /** Terminal A, by name (ids do not survive a reload; names are what the user picked). */
  from: string;
  /** Agent B's team.toml key. */
  to: string;
  /** The brief; placeholders {from_name}, {from_agent}, {last_reply}, {report_path}. */
  template: string;
  created: number;
}

export const ROUTE_PLACEHOLDERS = ['from_name', 'from_agent', 'last_reply', 'report_path'] as const;

export function renderTemplate(template: string, vars: Record<(typeof ROUTE_PLACEHOLDERS)[number], string>): string {
  return template.replace(/\{(from_name|from_agent|last_reply|report_path)\}/g, (_m, k: keyof typeof vars) => vars[k]);
}

/** A's agent came to rest: Stopped or Completed now, something else before (a repeat of the same state is no transition). */
export function cameToRest(c: StateChange): boolean {
  const cur = c.current;
  if (!cur || !isAgent(cur) || !TURN_ENDED.has(cur.state)) return false;
  const prev = c.previous;
  return !prev || prev.agent !== cur.agent || !TURN_ENDED.has(prev.state) || prev.sessionKey !== cur.sessionKey;
}

/** The newest reply any source kept for the terminal's session. */
export function lastReply(t: TerminalState): string | undefined {
  return t.words.find((w) => w.reply)?.reply;
}

export interface RouterDeps {
  dispatch(req: DispatchRequest): Promise<DispatchResult>;
  boards: Boards;
  /** A fresh task id for agent B. */
  taskId(agent: string): string;
  /** A's report path, when A is itself a handoff agent whose board names one. */
  reportPathOf(terminalName: string): string | undefined;
  log: Logger;
  /** Persist the list (workspace state in VS Code). */
  save(routes: Route[]): void;
}

export class Router {
  private list: Route[] = [];
  private readonly pending = new Map<string, DispatchRequest>();
  private readonly sub: { dispose(): void };
  /** Fired dispatches, newest last (diagnostics and tests). */
  readonly fired: { route: string; agent: string; taskId: string; at: number; result: string }[] = [];

  constructor(private readonly d: RouterDeps) {
    this.sub = d.boards.onDidChange((b) => {
      if (b && !isInFlight(b)) this.flush(b.agent);
    });
  }

  load(routes: readonly Route[]): void {
    this.list = routes
      .filter(
        (r) => r && typeof r.id === 'string' && typeof r.from === 'string' && typeof r.to === 'string' && typeof r.template === 'string',
      )
      .map((r) => ({ ...r }));
  }

  routes(): Route[] {
    return this.list.map((r) => ({ ...r }));
  }

  pendingFor(routeId: string): DispatchRequest | undefined {
    return this.pending.get(routeId);
  }

  add(from: string, to: string, template: string, now = Date.now()): Route {
    if (!from.trim() || !to.trim() || !template.trim()) throw new Error(l10n.t('a route needs a terminal, an agent and a brief template'));
    const r: Route = { id: randomBytes(4).toString('hex'), from, to, template, created: now };
    this.list.push(r);
    this.d.save(this.routes());
    return r;
  }

  remove(id: string): boolean {
    const n = this.list.length;
    this.list = this.list.filter((r) => r.id !== id);
    this.pending.delete(id);
    if (this.list.length !== n) this.d.save(this.routes());
    return this.list.length !== n;
  }

  /** Feed every store change: fires the routes from a terminal that just came to rest. */
  follow(c: StateChange): void {
    if (!cameToRest(c)) return;
    const a = c.current!;
    for (const r of this.list) {
      if (r.from !== a.name) continue;
      const brief = renderTemplate(r.template, {
        from_name: a.name,
        from_agent: a.agent,
        last_reply: lastReply(a) ?? '(no reply text was reported)',
        report_path: this.d.reportPathOf(a.name) ?? '(none)',
      });
      const req: DispatchRequest = { agent: r.to, taskId: this.d.taskId(r.to), brief };
      if (isInFlight(this.d.boards.get(r.to))) {
        this.pending.set(r.id, req);
        this.d.log.info(`route ${printable(a.name)} → ${r.to}: ${r.to} is busy; the brief waits for its task to end`);
        continue;
      }
      void this.fire(r.id, req);
    }
  }

  private flush(agent: string): void {
    for (const [id, req] of this.pending) {
      if (req.agent !== agent) continue;
      this.pending.delete(id);
      void this.fire(id, { ...req, taskId: this.d.taskId(agent) });
      return; // one at a time: the dispatch puts the board in flight again
    }
  }

  private async fire(routeId: string, req: DispatchRequest): Promise<void> {
    const res = await this.d.dispatch(req);
    const result = res.refused ? 'refused' : res.error ? `error: ${res.error}` : res.delivered ? 'delivered' : 'submitted';
    this.fired.push({ route: routeId, agent: req.agent, taskId: req.taskId, at: Date.now(), result });
    if (this.fired.length > 50) this.fired.shift();
    if (res.refused) this.pending.set(routeId, req);
    this.d.log[res.error ? 'warn' : 'info'](`route fired → ${req.agent}::${req.taskId}: ${result}`);
  }

  dispose(): void {
    this.sub.dispose();
  }
}
