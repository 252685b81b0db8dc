import type * as vscode from 'vscode';
import type { AgentId } from '../common/agents';
import type { Source } from '../common/sources';
import type { AgentState, WaitKind } from '../common/states';
import type { Board } from '../handoff/board';
import type { Route, Router } from '../handoff/routes';
import type { StateChange, TerminalState } from '../store/types';
import type { Wait } from '../store/waits';
import type { HandoffNotice } from './handoff';
import type { TreeSnapshotItem } from './tree';
import { type UsageFigures, usageJson, type UsageJson } from '../usage/figures';

/**
 * What other extensions get from `vscode.extensions.getExtension('agent-lens.agent-lens').exports`: version 1.
 * Within a major version fields are only added; a change that removes or re-types one is version 2. Texts
 * (names, questions, reasons) are what terminals and agents printed: untrusted, show them as plain text.
 */
export interface AgentLensApi {
  readonly apiVersion: 1;
  /** Every terminal Agent Lens watches, with its agent (`shell`: none) and state. */
  terminals(): AgentTerminal[];
  /** The open waits ("Needs you"), oldest first. */
  waits(): AgentWait[];
  /** Fires with a terminal's id when what it shows changed, it opened or it closed. */
  readonly onDidChangeTerminal: vscode.Event<string>;
  /** Agent Lens's id of a VS Code terminal, to match `terminals()` to `vscode.window.terminals`. */
  terminalId(t: vscode.Terminal): string | undefined;
  /** Not part of the stable API: Agent Lens's own tests and diagnostics read this, and it may change in any release. */
  readonly testing: AgentLensTestSurface;
}

/** One terminal as the API shows it. */
export interface AgentTerminal {
  id: string;
  name: string;
  agent: AgentId;
  state: AgentState;
  /** Which source the shown state came from. */
  source: Source;
  /** Epoch ms when the shown state began. */
  since: number;
  /** Why a turn failed ("interrupted", "API error 529"). */
  reason?: string;
  /** Why the agent waits, while `state` is `waiting`. */
  waitKind?: WaitKind;
  /** The open wait's id (`waits()` has it). */
  waitId?: string;
  /** The agent's own session id, once a source named it. */
  sessionId?: string;
  cwd?: string;
  /** What the agent session has spent, from its own log (src/usage): tokens, context, cost. */
  usage?: UsageJson;
}

/** One open wait as the API shows it. */
export interface AgentWait {
  id: string;
  terminalId: string;
  agent: AgentId;
  kind: WaitKind;
  question?: string;
  options?: string[];
  /** Epoch ms when the dialog or question appeared (whichever source saw it first). */
  openedAt: number;
}

/** The internals the e2e suites read; no promise is made about them. */
export interface AgentLensTestSurface {
  states(): TerminalState[];
  /** Open waits, oldest first, as the store holds them. */
  waits(): Wait[];
  onDidChange: vscode.Event<StateChange>;
  terminalId(t: vscode.Terminal): string | undefined;
  /** Wall-clock milliseconds `activate()` took, and the CPU time it used (wall time includes preemption on a busy machine). */
  activationMs: number;
  activationCpuMs: number;
  /** Work done by the detector so far (milliseconds, chunks, characters), for performance reports. */
  stats(): { ms: number; chunks: number; chars: number };
  /** The detector's rendered screen of a terminal whose output is read. */
  screenText(terminalId: string): string;
  /** This window's hub once it listens (hooks report to it). */
  hub(): { port: number; discoveryFile: string; reporter: string; reports: { received: number; recorded: number } } | undefined;
  /** The handoff service once the hub listens: where its files are, the boards, the routes and what they fired. */
  handoff():
    | { root: string; teamFile: string; cli: string; boards: Board[]; routes: Route[]; fired: Router['fired']; notices: HandoffNotice[] }
    | undefined;
  ui: {
    tree(): TreeSnapshotItem[];
    details(): TreeSnapshotItem[];
    statusBar(): { summary?: string; active?: string; handoff?: string; summaryWarning: boolean };
    /** The last notifications raised (newest last). */
    notifications(): { terminalId: string; waitId: string; message: string; at: number }[];
  };
}

export function publicTerminal(t: TerminalState, usage?: UsageFigures): AgentTerminal {
  const out: AgentTerminal = { id: t.id, name: t.name, agent: t.agent, state: t.state, source: t.source, since: t.since };
  if (t.reason !== undefined) out.reason = t.reason;
  if (t.waitKind !== undefined) out.waitKind = t.waitKind;
  if (t.waitId !== undefined) out.waitId = t.waitId;
  if (t.agentSessionId !== undefined) out.sessionId = t.agentSessionId;
  if (t.cwd !== undefined) out.cwd = t.cwd;
  if (usage) out.usage = usageJson(usage);
  return out;
}

export function publicWait(w: Wait): AgentWait {
  const out: AgentWait = { id: w.id, terminalId: w.terminalId ?? '', agent: w.agent, kind: w.kind, openedAt: w.openedAt };
  if (w.question !== undefined) out.question = w.question;
  if (w.options !== undefined) out.options = [...w.options];
  return out;
}
