import { randomBytes } from 'crypto';
import * as vscode from 'vscode';
import { AGENTS } from '../agents/registry';
import type { DialogKeys } from '../agents/descriptor';
import { answerMenu, type CursorMenu, type MenuReader, shapeReader } from '../answer/cursorMenu';
import { NUMBERED_MENU } from '../answer/numberedMenu';
import { answerWithKey, type KeyChoice, type KeyIO, type KeyOutcome, planKey } from '../answer/screenKeys';
import { findAgents, foregroundOf, processesUnder } from '../sources/process/processTree';
import type { AgentStore } from '../store/store';
import type { Wait } from '../store/waits';
import type { TerminalAdapter } from './terminals';

const KEYS: Partial<Record<string, DialogKeys>> = Object.fromEntries(AGENTS.flatMap((a) => (a.dialogKeys ? [[a.id, a.dialogKeys]] : [])));
const MENUS: Partial<Record<string, MenuReader>> = Object.fromEntries(AGENTS.flatMap((a) => (a.menu ? [[a.id, shapeReader(a.menu)]] : [])));
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
/** Why nothing was typed, shown in the notice (src/views/answerTexts.ts keyRefusedNotice). */
const noLongerOpen = (): string => vscode.l10n.t('the dialog is no longer open');

/** A dialog offered for an answer by key: its wait, and for a selector what it showed when last read and how it is read. */
interface KeyOffer {
  waitId: string;
  menu?: { shown: CursorMenu; reader: MenuReader };
}

/**
 * Dialogs answered with keys read off their terminal's screen, for agents whose own hook cannot hold them.
 * Permission dialogs with numbered options (Codex, Gemini CLI): offered only for a dialog the agent's own hook
 * reported, whose command the screen shows with both an allow-once and a deny option; one digit is typed
 * (src/answer/screenKeys.ts). Selector dialogs (pi's extensions: pi has no hook and its log records no dialog, so
 * the screen is the only witness), and any dialog in the generic shape no hook reported: offered while the screen
 * shows one whole; the user picks from it as read when they click, and the cursor is moved and Enter typed only
 * on that same dialog (src/answer/cursorMenu.ts). Either way only after two matching reads, while the wait is open
 * and its agent is the terminal's foreground process. Handles are per wait, random, in memory, and go with it.
 */
export class KeyAnswers {
  private readonly handles = new Map<string, KeyOffer>();
  private readonly ofWait = new Map<string, string>();

  constructor(
    private readonly store: AgentStore,
    private readonly terminals: TerminalAdapter,
  ) {}

  /**
   * The handle of a wait whose dialog can be answered by key right now, if any, and whether it is a selector: the
   * agent's own selector shape (pi), else its numbered permission dialog its hook reported (Codex, Gemini CLI),
   * else the generic shape (numbered options with a cursor) for a dialog no hook of the agent reported.
   */
  offered(w: Wait): { handle: string; menu: boolean } | undefined {
    if (w.closedAt !== undefined || !w.terminalId || w.kind === 'reply-question') return undefined;
    const rows = this.screen(w.terminalId);
    const own = MENUS[w.agent];
    if (own) return this.menuOffer(w, own, rows);
    const keys = KEYS[w.agent];
    if (keys && w.seenBy.includes('hook')) {
      if (w.kind !== 'permission') return undefined;
      if ([planKey(rows, keys, 'allow', w.detail), planKey(rows, keys, 'deny', w.detail)].some((p) => 'refused' in p)) return undefined;
      return { handle: this.handleFor(w.id), menu: false };
    }
    return this.menuOffer(w, NUMBERED_MENU, rows);
  }

  private menuOffer(w: Wait, reader: MenuReader, rows: readonly string[]): { handle: string; menu: true } | undefined {
    const shown = reader.read(rows);
    return shown && { handle: this.handleFor(w.id, { shown, reader }), menu: true };
  }

  /** The open wait behind a handle. */
  wait(handle: string): Wait | undefined {
    const id = this.handles.get(handle)?.waitId;
    const w = id ? this.store.wait(id) : undefined;
    return w?.closedAt === undefined ? w : undefined;
  }

  /** The selector dialog behind a handle as the screen shows it now (else as last read), for the user to pick from. */
  menu(handle: string): CursorMenu | undefined {
    const w = this.wait(handle);
    const offer = this.handles.get(handle)?.menu;
    if (!w?.terminalId || !offer) return undefined;
    return offer.reader.read(this.screen(w.terminalId)) ?? offer.shown;
  }

  /** Types the key of `choice` into the wait's terminal, as screenKeys allows; once per handle. */
  async answer(handle: string, choice: KeyChoice): Promise<KeyOutcome> {
    const w = this.wait(handle);
    const keys = w && KEYS[w.agent];
    const io = w && this.io(w);
    if (!w || !keys || !io || this.handles.get(handle)?.menu) return { ok: false, why: noLongerOpen(), typed: false };
    this.forget(handle);
    return answerWithKey(io, keys, choice, w.detail);
  }

  /**
   * Picks `label` in the selector dialog as the user saw it (`shown`, read when they clicked), as cursorMenu
   * allows: only while the screen shows that very dialog. Once per handle.
   */
  async choose(handle: string, shown: CursorMenu, label: string): Promise<KeyOutcome> {
    const w = this.wait(handle);
    const menu = this.handles.get(handle)?.menu;
    const io = w && this.io(w);
    if (!w || !menu || !io) return { ok: false, why: noLongerOpen(), typed: false };
    this.forget(handle);
    return answerMenu(io, menu.reader, shown, label);
  }

  /** Drops the handles of waits that have closed (called as the views refresh). */
  prune(): void {
    for (const h of [...this.handles.keys()]) if (!this.wait(h)) this.forget(h);
  }

  /** A terminal's screen as its detector has it, row by row. */
  screen(terminalId: string): string[] {
    return (this.terminals.session(terminalId)?.screenText() ?? '').split('\n');
  }

  /**
   * The wait's handle, the same for as long as the wait is open (a row drawn a moment ago still answers), with the
   * dialog as last read. What is typed is checked against the dialog the user saw when they clicked, not this.
   */
  private handleFor(waitId: string, menu?: KeyOffer['menu']): string {
    const old = this.ofWait.get(waitId);
    const had = old ? this.handles.get(old) : undefined;
    if (old && had && !had.menu === !menu) {
      if (menu) had.menu = menu;
      return old;
    }
    if (old) this.forget(old);
    const h = randomBytes(16).toString('hex');
    this.ofWait.set(waitId, h);
    this.handles.set(h, { waitId, ...(menu ? { menu } : {}) });
    return h;
  }

  private forget(handle: string): void {
    const id = this.handles.get(handle)?.waitId;
    this.handles.delete(handle);
    if (id && this.ofWait.get(id) === handle) this.ofWait.delete(id);
  }

  private io(w: Wait): KeyIO | undefined {
    const terminal = w.terminalId ? this.terminals.terminalOf(w.terminalId) : undefined;
    if (!terminal) return undefined;
    return {
      rows: () => this.screen(w.terminalId!),
      write: (data) => terminal.sendText(data, false),
      mayType: async () => this.store.wait(w.id)?.closedAt === undefined && (await foreground(terminal, w)),
      sleep,
    };
  }
}

/** Whether the wait's agent is the foreground process of its terminal (Linux and macOS; never on Windows). */
async function foreground(terminal: vscode.Terminal, w: Wait): Promise<boolean> {
  const shell = await terminal.processId;
  if (!shell) return false;
  const agent = findAgents(await processesUnder(shell)).find((a) => a.agent === w.agent);
  return !!agent && (await foregroundOf(shell, agent.pid)) === 'foreground';
}
