import * as l10n from '@vscode/l10n';
import type { Board } from '../handoff/board';
import type { Router } from '../handoff/routes';
import type { HandoffService } from '../handoff/service';
import { isDrivable } from '../handoff/team/schema';
import type { HandoffView } from './handoffRows';

/** What the side bar shows of the handoff: the registered agents with their boards, the routes and the stray events. */
export function handoffView(s: HandoffService, router: Router | undefined): HandoffView {
  const agents: HandoffView['agents'] = s.agents().map((a) => ({
    key: a.key,
    name: a.display_name ?? a.key,
    mode: a.mode,
    drivable: isDrivable(a.mode),
    note: a.note,
    icon: a.icon,
    board: s.boards.get(a.key),
  }));
  const registered = new Set(agents.map((a) => a.key));
  // Boards of agents no longer (or never) registered still show, so an event is never invisible.
  for (const b of s.boards.all())
    if (!registered.has(b.agent) && b.state !== 'idle')
      agents.push({ key: b.agent, name: l10n.t('{0} (not registered)', b.agent), mode: '?', drivable: true, note: undefined, board: b });
  const routes = (router?.routes() ?? []).map((r) => ({ ...r, pending: router!.pendingFor(r.id) !== undefined }));
  return { agents, teamFile: s.registry.file, registryError: s.registry.error()?.message, ungrouped: s.boards.ungrouped, routes };
}

/**
 * Which boards just came to done or blocked (what a user is told of), given each board's state last time;
 * `last` is brought up to date.
 */
export function newlySettled(last: Map<string, string>, boards: readonly Board[]): Board[] {
  const out: Board[] = [];
  for (const b of boards) {
    const before = last.get(b.agent);
    last.set(b.agent, b.state);
    if (before !== b.state && (b.state === 'done' || b.state === 'blocked')) out.push(b);
  }
  return out;
}
