import * as l10n from '@vscode/l10n';
import type { AgentKind } from '../common/agents';
import type { WaitKind } from '../common/states';
import { agentName, duration, stateLabel, waitLabel } from '../views/labels';
import { plain } from '../views/untrusted';
import type { NotifyEventKind } from './config';

/**
 * What a click on a desktop notification opens: a URI the window built from its own terminal id, for the channels
 * that can hand it to VS Code (desktop). Never built from outside text; push channels never carry it.
 */
interface Clickable {
  click?: string;
}

/** Something a person away from the window may want to hear of. */
export type NotifyEvent =
  | (Clickable & {
      kind: 'wait';
      /** The wait's id: one notification per wait, across channels. */
      id: string;
      agent: AgentKind;
      terminal: string;
      folder?: string;
      waitKind: WaitKind;
      /** The question or the command to approve: sent only to channels with details on. */
      detail?: string;
      openedAt: number;
      at: number;
    })
  | (Clickable & {
      kind: 'turn';
      id: string;
      agent: AgentKind;
      terminal: string;
      folder?: string;
      /** Only these two: a turn the user stopped (Esc, a denied dialog) is no news to them. */
      state: 'completed' | 'failed';
      reason?: string;
      /** How long the turn worked. */
      workedMs: number;
      at: number;
    })
  | (Clickable & {
      kind: 'usage';
      /** One per session and kind of warning. */
      id: string;
      agent: AgentKind;
      terminal: string;
      folder?: string;
      /** What passed its mark, as the row's tooltip says it ("context 93% full: …"). */
      warning: string;
      at: number;
    })
  | { kind: 'test'; at: number };

/** What a push says: one title and one body, plain text with nothing outside text can turn into a link or markup. */
export interface Message {
  title: string;
  body: string;
  /** For ntfy's tags and priorities, and webhooks' JSON. */
  event: NotifyEventKind | 'test' | 'summary';
  /** The events folded into it. */
  count: number;
  /** The event's click URI (one event only; a summary has none). */
  click?: string;
}

const TITLE_MAX = 120;

/**
 * Outside text (a terminal's name, a folder, a question) as a push carries it: one plain line, and `://` and
 * `www.` broken, so no phone or chat client turns a URL in it into a link.
 */
export function outside(s: string, max: number): string {
  return plain(s, max)
    .replace(/:\/\//g, '[:]//')
    .replace(/\bwww\./gi, (w) => `${w.slice(0, 3)}[.]`);
}
const BODY_MAX = 600;

/** The event as a channel sends it; the question or command only with `details`. */
export function messageOf(e: NotifyEvent, details: boolean): Message {
  if (e.kind === 'test')
    return { title: l10n.t('Agent Lens: test notification'), body: l10n.t('This channel works.'), event: 'test', count: 1 };
  const where = placeOf(e.terminal, e.folder, details);
  if (e.kind === 'wait') {
    const title = l10n.t('{0} needs you: {1}', agentName(e.agent), waitLabel({ kind: e.waitKind }));
    const asks = details && e.detail ? `\n${outside(e.detail, BODY_MAX)}` : '';
    const body = l10n.t('in {0}, for {1}', where, duration(e.at - e.openedAt)) + asks;
    return {
      title: outside(title, TITLE_MAX),
      body,
      event: eventKindOf(e) as 'wait' | 'reply',
      count: 1,
      ...(e.click ? { click: e.click } : {}),
    };
  }
  if (e.kind === 'usage') {
    const title = l10n.t('{0}: {1}', agentName(e.agent), e.warning);
    return {
      title: outside(title, TITLE_MAX),
      body: l10n.t('in {0}', where),
      event: 'usage',
      count: 1,
      ...(e.click ? { click: e.click } : {}),
    };
  }
  const title = l10n.t('{0}: turn {1}', agentName(e.agent), stateLabel({ state: e.state, reason: details ? e.reason : undefined }));
  const body = l10n.t('in {0}, after {1} of work', where, duration(e.workedMs));
  return { title: outside(title, TITLE_MAX), body, event: turnKind(e.state), count: 1, ...(e.click ? { click: e.click } : {}) };
}

/**
 * Where the agent runs, as a push says it: the terminal, and its folder — only the folder's name unless `details`
 * is on (a full path says more about the user than the agent, the terminal and the kind of wait the push is
 * for), left out when it is the name already shown.
 */
function placeOf(terminal: string, folder: string | undefined, details: boolean): string {
  const name = folderName(folder);
  const shown = details ? folder : name !== terminal ? name : undefined;
  return [outside(terminal, 60), shown ? outside(shown, 80) : undefined].filter(Boolean).join(' · ');
}

/** A folder's own name, the last part of its path, whichever separator the agent's system writes. */
export function folderName(folder: string | undefined): string | undefined {
  return folder?.split(/[\\/]/).filter(Boolean).pop();
}

/** Several messages held back by a channel's minimum interval, as one. */
export function summaryOf(ms: readonly Message[]): Message {
  if (ms.length === 1) return ms[0];
  const body = ms.map((m) => `• ${m.title}`).join('\n');
  return { title: l10n.t('Agent Lens: {0} agents need you or finished', ms.length), body, event: 'summary', count: ms.length };
}

/** The kind of event a channel subscribes to that this message is. */
export function eventKindOf(e: NotifyEvent): NotifyEventKind | 'test' {
  if (e.kind === 'test') return 'test';
  if (e.kind === 'wait') return e.waitKind === 'reply-question' ? 'reply' : 'wait';
  if (e.kind === 'usage') return 'usage';
  return turnKind(e.state);
}

function turnKind(state: 'completed' | 'failed'): NotifyEventKind {
  return state === 'failed' ? 'turn-failed' : 'turn-completed';
}
