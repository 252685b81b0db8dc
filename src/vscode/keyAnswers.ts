import { randomBytes } from 'crypto';
import type * as vscode from 'vscode';
import { AGENTS } from '../agents/registry';
import type { DialogKeys } from '../agents/descriptor';
import { answerWithKey, type KeyChoice, type KeyOutcome, planKey } from '../answer/screenKeys';
import { findAgents, foregroundOf, processesUnder } from '../sources/process/processTree';
import type { AgentStore } from '../store/store';
import type { Wait } from '../store/waits';
import type { TerminalAdapter } from './terminals';

const KEYS: Partial<Record<string, DialogKeys>> = Object.fromEntries(AGENTS.flatMap((a) => (a.dialogKeys ? [[a.id, a.dialogKeys]] : [])));
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Permission dialogs answered with one key read off their terminal's screen (Codex, Gemini CLI: agents whose hook
 * cannot hold the dialog). Offered only for a dialog the agent's own hook reported, whose command the screen shows
 * with both an allow-once and a deny option; typed only after two matching reads, while the wait is open and its
 * agent is the terminal's foreground process (src/answer/screenKeys.ts). Handles are per wait, random, in memory.
 */
export class KeyAnswers {
  private readonly handles = new Map<string, string>();
  private readonly ofWait = new Map<string, string>();

  constructor(
    private readonly store: AgentStore,
    private readonly terminals: TerminalAdapter,
  ) {}

  /** The handle of a wait whose dialog can be answered by key right now, if any. */
  offered(w: Wait): string | undefined {
    const keys = KEYS[w.agent];
    if (!keys || w.kind !== 'permission' || !w.seenBy.includes('hook') || w.closedAt !== undefined || !w.terminalId) return undefined;
    const rows = this.rows(w.terminalId);
    if ([planKey(rows, keys, 'allow', w.detail), planKey(rows, keys, 'deny', w.detail)].some((p) => 'refused' in p)) return undefined;
    let h = this.ofWait.get(w.id);
    if (!h) {
      h = randomBytes(16).toString('hex');
      this.ofWait.set(w.id, h);
      this.handles.set(h, w.id);
    }
    return h;
  }

  /** The open wait behind a handle. */
  wait(handle: string): Wait | undefined {
    const id = this.handles.get(handle);
    const w = id ? this.store.wait(id) : undefined;
    return w?.closedAt === undefined ? w : undefined;
  }

  /** Types the key of `choice` into the wait's terminal, as screenKeys allows; once per handle. */
  async answer(handle: string, choice: KeyChoice): Promise<KeyOutcome> {
    const w = this.wait(handle);
    const keys = w && KEYS[w.agent];
    const terminal = w?.terminalId ? this.terminals.terminalOf(w.terminalId) : undefined;
    if (!w || !keys || !terminal) return { ok: false, why: 'the dialog is no longer open', typed: false };
    this.handles.delete(handle);
    return answerWithKey(
      {
        rows: () => this.rows(w.terminalId!),
        write: (data) => terminal.sendText(data, false),
        mayType: async () => this.store.wait(w.id)?.closedAt === undefined && (await foreground(terminal, w)),
        sleep,
      },
      keys,
      choice,
      w.detail,
    );
  }

  /** A terminal's screen as its detector has it, row by row. */
  screen(terminalId: string): string[] {
    return this.rows(terminalId);
  }

  private rows(terminalId: string): string[] {
    return (this.terminals.session(terminalId)?.screenText() ?? '').split('\n');
  }
}

/** Whether the wait's agent is the foreground process of its terminal (Linux and macOS; never on Windows). */
async function foreground(terminal: vscode.Terminal, w: Wait): Promise<boolean> {
  const shell = await terminal.processId;
  if (!shell) return false;
  const agent = findAgents(await processesUnder(shell)).find((a) => a.agent === w.agent);
  return !!agent && (await foregroundOf(shell, agent.pid)) === 'foreground';
}
