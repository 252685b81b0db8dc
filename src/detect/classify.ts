import { endsWithQuestion } from './question';
import { GENERIC_DIALOG } from './signatures/genericDialog';
import type { ScreenView } from './screen';
import type { AgentSignature, Marker, OutcomeMarker, StateRule } from '../agents/screenRules';
import type { AgentKind } from '../common/agents';
import type { AgentState, WaitKind } from '../common/states';

/** Dialogs and footers live in the last rows of a TUI; this many non-empty rows count as "bottom". */
export const BOTTOM_ROWS = 10;
/** Identification needs this much marker weight (one strong marker, or two weak ones). */
export const IDENTIFY_THRESHOLD = 2;

/** What one look at the screen says, before the state machine's timing. */
export interface Candidate {
  state: AgentState;
  ruleId: string;
  /** The text the rule matched, for evidence. */
  text: string;
  waitKind?: WaitKind;
}

/** A prepared view: rows split into the whole screen and its bottom part. */
export interface Frame {
  view: ScreenView;
  /** Indexes into view.rows of the last BOTTOM_ROWS non-empty rows, top to bottom. */
  bottom: number[];
  /** Latest body per private OSC ident, e.g. 7501 → "state=working:app=codex". */
  osc: ReadonlyMap<number, string>;
  /** Indexes of the non-empty rows, bottom first: most TUI rows are blank, and recent text is lowest. */
  filled: number[];
  /** The row above the agent's input editor (-1: the agent frames none, or it is not on screen). See `withInputEdge`. */
  transcriptEnd?: number;
  /** The editor's upper rule (-1: none on screen): its dialogs are drawn below it. See `withInputEdge`. */
  editorTop?: number;
}

export function makeFrame(view: ScreenView, osc: ReadonlyMap<number, string>): Frame {
  const filled: number[] = [];
  for (let i = view.rows.length - 1; i >= 0; i--) {
    if (/\S/.test(view.rows[i])) filled.push(i);
  }
  const bottom = filled.slice(0, BOTTOM_ROWS).reverse();
  return { view, bottom, osc, filled };
}

/**
 * The input editor's upper rule (the upper of the lowest two rows that match `edge`) and the last non-empty row
 * above it; -1 where there is none.
 */
function editorEdges(frame: Frame, edge: RegExp): { top: number; above: number } {
  let edges = 0;
  for (let k = 0; k < frame.filled.length; k++) {
    if (edge.test(frame.view.rows[frame.filled[k]]) && ++edges === 2) return { top: frame.filled[k], above: frame.filled[k + 1] ?? -1 };
  }
  return { top: -1, above: -1 };
}

/** The last non-empty row above the input editor: above the upper of the lowest two rows that match `edge`. */
export function transcriptEndRow(frame: Frame, edge: RegExp): number {
  return editorEdges(frame, edge).above;
}

/** The frame as an agent with an input editor sees it: its edges located once for every marker and dialog. */
export function withInputEdge(frame: Frame, sig: AgentSignature): Frame {
  if (!sig.inputEdge) return frame;
  const { top, above } = editorEdges(frame, sig.inputEdge);
  return { ...frame, transcriptEnd: above, editorTop: top };
}

/** Whether a non-empty row below `row` matches `newer` (`frame.filled` runs bottom first). */
function newerBelow(frame: Frame, row: number, newer: RegExp): boolean {
  for (const r of frame.filled) {
    if (r <= row) return false;
    if (newer.test(frame.view.rows[r])) return true;
  }
  return false;
}

/** First matching text of a marker on the frame, or undefined. */
export function findMarker(frame: Frame, m: Marker): { text: string; row: number } | undefined {
  const { view } = frame;
  if (m.altScreenOnly && !view.altScreen) return undefined;
  if (m.normalScreenOnly && view.altScreen) return undefined;
  switch (m.where) {
    case 'title': {
      const r = m.pattern.exec(view.title);
      return r ? { text: r[0], row: -1 } : undefined;
    }
    case 'osc': {
      for (const [ident, body] of frame.osc) {
        const r = m.pattern.exec(`${ident};${body}`);
        if (r) return { text: r[0], row: -1 };
      }
      return undefined;
    }
    case 'bottom': {
      for (let k = frame.bottom.length - 1; k >= 0; k--) {
        const row = frame.bottom[k];
        const r = m.pattern.exec(view.rows[row]);
        if (r) return { text: r[0], row };
      }
      return undefined;
    }
    case 'screen': {
      for (const row of frame.filled) {
        const r = m.pattern.exec(view.rows[row]);
        if (r) return m.unlessBelow && newerBelow(frame, row, m.unlessBelow) ? undefined : { text: r[0], row };
      }
      return undefined;
    }
    case 'transcriptEnd': {
      const row = frame.transcriptEnd ?? -1;
      const r = row >= 0 ? m.pattern.exec(view.rows[row]) : null;
      return r ? { text: r[0], row } : undefined;
    }
  }
}

/** Total identification weight per agent with the markers that matched. */
export function identify(frame: Frame, sigs: readonly AgentSignature[]): { agent: AgentKind; weight: number; ids: string[] } | undefined {
  let best: { agent: AgentKind; weight: number; ids: string[] } | undefined;
  for (const sig of sigs) {
    let weight = 0;
    const ids: string[] = [];
    for (const m of sig.identify) {
      if (findMarker(frame, m)) {
        weight += m.weight;
        ids.push(m.id);
      }
    }
    if (weight >= IDENTIFY_THRESHOLD && (!best || weight > best.weight)) best = { agent: sig.agent, weight, ids };
  }
  return best;
}

/**
 * The first rule that matches in the newest turn: a row above `boundary` (the latest turn outcome on screen)
 * belongs to an earlier turn and decides nothing, however long it stays on screen.
 * Titles and OSC bodies (row -1) are always current.
 */
function firstRule(frame: Frame, rules: readonly StateRule[], boundary = -1, rowsOnly = false): Candidate | undefined {
  for (const r of rules) {
    const hit = findMarker(frame, r);
    if (hit && (hit.row < 0 ? !rowsOnly : hit.row > boundary))
      return { state: r.state, ruleId: r.id, text: hit.text, waitKind: r.waitKind };
  }
  return undefined;
}

/**
 * The lowest row that looks like the agent's input box (`AgentSignature.inputRow`), or -1. A dialog takes the
 * input box's place: what is above it is transcript (a reply quoting a dialog); a submitted prompt that looks
 * like it sits above a real dialog, which stays below.
 */
export function inputBoxAt(frame: Frame, sig: AgentSignature): number {
  // An inline editor framed by rules (pi): its dialogs are drawn inside the frame, the transcript above it.
  if (sig.inputEdge) return frame.editorTop ?? -1;
  if (!sig.inputRow) return -1;
  for (const r of frame.filled) if (sig.inputRow.test(frame.view.rows[r])) return r;
  return -1;
}

/** The lowest outcome marker on screen: the most recent turn's outcome. */
function lastOutcome(frame: Frame, outcomes: readonly OutcomeMarker[]): { marker: OutcomeMarker; row: number; text: string } | undefined {
  let best: { marker: OutcomeMarker; row: number; text: string } | undefined;
  for (const m of outcomes) {
    const hit = findMarker(frame, m);
    if (hit && (!best || hit.row > best.row)) best = { marker: m, row: hit.row, text: hit.text };
  }
  return best;
}

function rowAbove(frame: Frame, row: number): string | undefined {
  for (let r = row - 1; r >= 0; r--) {
    const text = frame.view.rows[r];
    if (text.replace(/[┃│]/g, ' ').trim() !== '') return text;
  }
  return undefined;
}

/** A transcript whose last row is not a turn footer: the turn runs, though nothing spins yet. */
function turnInProgress(frame: Frame, sig: AgentSignature): Candidate | undefined {
  const tp = sig.turnInProgress;
  if (!tp || !frame.view.altScreen) return undefined;
  const rows = frame.view.rows;
  let end = -1;
  for (const r of frame.filled) {
    if (tp.inputBoxEnd.test(rows[r])) {
      end = r;
      break;
    }
  }
  if (end < 0) return undefined;
  let top = end - 1;
  while (top >= 0 && tp.inputBoxRow.test(rows[top])) top--;
  for (let r = top; r >= 0; r--) {
    const text = rows[r];
    if (text.trim() === '') continue;
    if (tp.startScreen.test(text)) return undefined;
    for (let k = r; k >= 0; k--) if (tp.startScreen.test(rows[k])) return undefined;
    if (tp.restingLast.test(text)) return undefined;
    return { state: 'working', ruleId: tp.id, text: text.replace(/[┃│]/g, ' ').trim() };
  }
  return undefined;
}

/** The row of the newest turn start in the transcript (-1: none on screen). */
export function newestTurnStart(frame: Frame, sig: AgentSignature): number {
  const ts = sig.turnStart;
  if (!ts) return -1;
  const rows = frame.view.rows;
  for (const r of frame.filled) {
    if (!ts.pattern.test(rows[r])) continue;
    const above = rowAbove(frame, r);
    if (above !== undefined && ts.inputBoxAbove.test(above)) continue;
    return r;
  }
  return -1;
}

/**
 * A dialog no rule names must not read as idle: choices with a selection cursor, or a confirm/cancel hint
 * beside choices or a question, in the bottom rows. What a dialog has and a reply that lists steps (or quotes a
 * dialog) lacks: it is the last thing on screen (few rows under its choices, its key hints in the last rows) and
 * the input box is gone: only rows below `input` count (`inputBoxAt`; -1: no input box shows). Waiting (kind `prompt`).
 */
export function genericDialog(frame: Frame, input = -1): Candidate | undefined {
  const g = GENERIC_DIALOG;
  const raw = frame.bottom.filter((r) => r > input).map((r) => frame.view.rows[r]);
  const boxed = raw.map((r) => g.leftBorder.test(r));
  const rows = raw.map((r, i) => (boxed[i] ? r.replace(g.leftBorder, '').replace(g.rightBorder, '') : r));
  const optionAt = rows.map((r) => g.option.test(r));
  const options = rows.filter((_, i) => optionAt[i]);
  const cursor = rows.find((r, i) => g.cursorOption.test(r) || (boxed[i] && g.boxedCursorOption.test(r)));
  const hintAt = lastIndex(rows, (r) => g.hint.test(r));
  const hint = hintAt >= 0 && rows.slice(hintAt + 1).filter((r) => !isBorder(r)).length <= g.rowsUnderHint ? rows[hintAt] : undefined;
  const asks = rows.find((r, i) => g.question.test(r) && !optionAt[i]);
  const choice = rows.find((r) => g.cursorChoice.test(r));
  const last = lastIndex(optionAt, (x) => x);
  const under = rows.slice(last + 1).filter((r) => !isBorder(r)).length;
  const shown = (cursor && options.length >= 2 && under <= g.rowsUnder) || (hint && (options.length >= 2 || asks || choice));
  if (!shown) return undefined;
  const evidence = [asks, ...(options.length ? options.slice(0, 3) : [choice]), hint].filter((r): r is string => !!r).map((r) => r.trim());
  return { state: 'waiting', ruleId: g.id, text: [...new Set(evidence)].join(' / '), waitKind: 'prompt' };
}

/** A row of box-drawing and block characters only (a rule, a box's edge). */
function isBorder(row: string): boolean {
  return /^[\s\u2500-\u259f]*$/.test(row);
}

function lastIndex<T>(xs: readonly T[], test: (x: T) => boolean): number {
  for (let i = xs.length - 1; i >= 0; i--) if (test(xs[i])) return i;
  return -1;
}

/** The reply's last row, when the reply ends with a question: above a completion line, or down to `replyEnd`. */
export function replyQuestion(frame: Frame, outcomeRow: number, sig: AgentSignature, replyEnd?: RegExp): string | undefined {
  const rows = frame.view.rows;
  if (replyEnd) return replyQuestionBelow(rows, outcomeRow, sig, replyEnd);
  for (let r = outcomeRow - 1, seen = 0; r >= 0 && seen < 3; r--) {
    const text = rows[r].replace(/[┃│]/g, ' ').trim();
    if (text === '' || /^[─━╌-]+$/.test(text)) continue;
    seen++;
    return endsWithQuestion(rows[r].replace(sig.replyPrefix ?? /^\s*/, '')) ? text : undefined;
  }
  return undefined;
}

function replyQuestionBelow(rows: readonly string[], start: number, sig: AgentSignature, replyEnd: RegExp): string | undefined {
  let last: string | undefined;
  for (let r = start; r < rows.length && !(r > start && replyEnd.test(rows[r])); r++) if (rows[r].trim() !== '') last = rows[r];
  return last !== undefined && endsWithQuestion(last.replace(sig.replyPrefix ?? /^\s*/, '')) ? last.trim() : undefined;
}

/** The agent's own status report (Codex's OSC 7501), refined by the screen's outcome; undefined: none. */
function programStatus(frame: Frame, sig: AgentSignature, outcome: ReturnType<typeof lastOutcome>): Candidate | undefined {
  const ps = sig.programStatus;
  const psBody = ps ? frame.osc.get(ps.osc) : undefined;
  const psWord = ps && psBody !== undefined ? ps.parse(psBody) : undefined;
  const psState = ps && psWord ? ps.states[psWord] : undefined;
  if (!ps || !psState) return undefined;
  const text = `OSC ${ps.osc} ${psBody}`;
  if (psState === 'clear') return { state: 'exited', ruleId: ps.id, text };
  if (psState === 'waiting') return { state: 'waiting', ruleId: ps.id, text, waitKind: 'permission' };
  if (psState === 'completed' && outcome?.marker.completion) {
    const q = replyQuestion(frame, outcome.row, sig, outcome.marker.replyEnd);
    if (q) return { state: 'waiting', ruleId: `${ps.id}+reply-question`, text: q, waitKind: 'reply-question' };
  }
  // The program reports a plain idle after an interrupt; the screen says the turn was stopped.
  if (psState === 'idle' && outcome && !outcome.marker.completion) {
    return { state: outcome.marker.state, ruleId: outcome.marker.id, text: outcome.text };
  }
  return { state: psState, ruleId: ps.id, text };
}

const WAITING_RULES = new WeakMap<AgentSignature, { dialogs: StateRule[]; notices: StateRule[] }>();

/** An agent's waiting rules split once: dialogs (never above the input box) and notices in its transcript. */
function waitingRules(sig: AgentSignature): { dialogs: StateRule[]; notices: StateRule[] } {
  let split = WAITING_RULES.get(sig);
  if (!split) {
    split = { dialogs: sig.waiting.filter((r) => !r.notice), notices: sig.waiting.filter((r) => r.notice) };
    WAITING_RULES.set(sig, split);
  }
  return split;
}

/**
 * A dialog of the newest turn: the agent's own rules, else the generic shape; never above its input box. With
 * `rowsOnly`, only what is drawn counts (the program's own status outranks its title).
 */
function dialogOnScreen(frame: Frame, sig: AgentSignature, boundary: number, rowsOnly: boolean): Candidate | undefined {
  // A dialog takes the input box's place: its words above the input box are a reply's.
  const input = inputBoxAt(frame, sig);
  const { dialogs, notices } = waitingRules(sig);
  return (
    firstRule(frame, dialogs, Math.max(boundary, input), rowsOnly) ??
    genericDialog(frame, input) ??
    firstRule(frame, notices, boundary, rowsOnly)
  );
}

/**
 * What the screen says about an identified agent, in priority order: exit hints, dialogs, the agent's own
 * program status, working cues, the latest turn outcome, else idle.
 */
export function classify(screen: Frame, sig: AgentSignature): Candidate {
  const frame = withInputEdge(screen, sig);
  for (const m of sig.exit) {
    const hit = findMarker(frame, m);
    if (hit) return { state: 'exited', ruleId: m.id, text: hit.text };
  }
  const turn = newestTurnStart(frame, sig);
  const found = lastOutcome(frame, sig.outcomes);
  // An outcome above the newest turn start is an earlier turn's: it says nothing about this one.
  const outcome = found && (found.row < 0 || found.row > turn) ? found : undefined;
  const boundary = Math.max(outcome ? outcome.row : -1, turn);
  const status = programStatus(frame, sig, outcome);
  const dialog = status && status.state !== 'working' ? undefined : dialogOnScreen(frame, sig, boundary, status !== undefined);
  // The program may go on saying "working" while it asks something itself (Codex's "Task is still running"
  // after Ctrl+C): the dialog on screen is what the user has to answer.
  if (dialog) return dialog;
  if (status) return status;
  const working = firstRule(frame, sig.working, boundary);
  if (working) return working;
  const pending = turnInProgress(frame, sig);
  if (pending) return pending;
  if (outcome) {
    const fa = outcome.marker.failedIfAbove;
    if (fa) {
      const above = rowAbove(frame, outcome.row);
      if (above !== undefined && fa.test(above))
        return { state: 'failed', ruleId: `${outcome.marker.id}+error-above`, text: above.replace(/[┃│]/g, ' ').trim() };
    }
    if (outcome.marker.completion) {
      const q = replyQuestion(frame, outcome.row, sig, outcome.marker.replyEnd);
      if (q) return { state: 'waiting', ruleId: `${outcome.marker.id}+reply-question`, text: q, waitKind: 'reply-question' };
    }
    return { state: outcome.marker.state, ruleId: outcome.marker.id, text: outcome.text };
  }
  return { state: 'idle', ruleId: `${sig.agent}.default-idle`, text: '' };
}

/** Ids of every marker of a signature that matches this frame (coverage reports; not on the hot path). */
export function matchingIds(screen: Frame, sig: AgentSignature): string[] {
  const frame = withInputEdge(screen, sig);
  const ids: string[] = [];
  for (const m of [...sig.identify, ...sig.waiting, ...sig.working, ...sig.outcomes, ...sig.exit]) if (findMarker(frame, m)) ids.push(m.id);
  return ids;
}
