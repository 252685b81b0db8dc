import type { AgentKind } from '../common/agents';
import type { AgentState, WaitKind } from '../common/states';

/**
 * Where a pattern is matched:
 * - `title`: the window title set with OSC 0/2;
 * - `screen`: any visible row of the active buffer;
 * - `bottom`: the last `BOTTOM_ROWS` non-empty rows, where TUIs draw their dialogs and footers;
 * - `osc`: the body of a private OSC sequence the agent emits (e.g. `7501;state=working:app=codex`), as `<ident>;<body>`;
 * - `transcriptEnd`: the last non-empty row above the agent's input editor (`AgentSignature.inputEdge`), where an
 *   inline TUI without a turn footer leaves the newest turn's last words (pi).
 */
export type Where = 'title' | 'screen' | 'bottom' | 'osc' | 'transcriptEnd';

export interface Marker {
  /** Stable id, printed as evidence and counted by `npm run compat`. */
  id: string;
  where: Where;
  /** Bounded patterns only: they run on single screen rows or short OSC bodies. */
  pattern: RegExp;
  /** Only counts while the alternate screen is active (the agent's TUI), not in plain scrolling output. */
  altScreenOnly?: boolean;
  /** Only counts on the normal screen (text printed after a TUI left the alternate screen). */
  normalScreenOnly?: boolean;
  /** A row below the match that matches this makes it history (a spinner row above a newer reply block). */
  unlessBelow?: RegExp;
}

/** Adds evidence that this agent is running. Identification needs a total weight of 2. */
export interface IdentifyMarker extends Marker {
  weight: 1 | 2;
}

/** A rule that names a state while it matches. */
export interface StateRule extends Marker {
  state: AgentState;
  waitKind?: WaitKind;
  /** A notice the agent prints in its transcript, not a dialog: the input box under it does not make it a quote. */
  notice?: true;
}

/**
 * Turn outcome markers: the lowest one on screen is the most recent turn's outcome. `completion` markers
 * (the completion shape) read as `stopped` from the screen, because the screen cannot tell success from
 * failure; a reply ending with a question turns them into waiting.
 */
export interface OutcomeMarker extends Marker {
  state: 'stopped' | 'failed';
  completion?: boolean;
  /** When the nearest non-empty row above the marker matches, the turn failed (an error block above a bare turn footer). */
  failedIfAbove?: RegExp;
  /**
   * The marker row starts the reply itself (Gemini's `✦ …`, no completion line): the reply runs down to the
   * first row matching this (the status row or rule under the transcript), and its last row is what may ask.
   */
  replyEnd?: RegExp;
}

/**
 * A transcript whose last row is not a turn footer means a turn is in progress, even before any spinner
 * shows (OpenCode spends seconds bootstrapping a session after Enter with nothing else on screen).
 */
export interface TurnInProgress {
  id: string;
  /** The row that closes the input box; the transcript is everything above the box. */
  inputBoxEnd: RegExp;
  /** Rows that start the input box (scanning up from its end while they match). */
  inputBoxRow: RegExp;
  /** The last transcript row of a turn at rest (its footer). */
  restingLast: RegExp;
  /** Present only on the start screen, where there is no transcript. */
  startScreen: RegExp;
}

/** The agent's own state report inside the byte stream (Codex's OSC 7501 "program status"). */
export interface ProgramStatus {
  id: string;
  /** OSC number, e.g. 7501. */
  osc: number;
  /** Extracts the status word from the OSC body; undefined when the body is not this agent's. */
  parse(body: string): string | undefined;
  /** Status word → state. `idle` is refined by outcome markers (an interrupt reports plain idle). */
  states: Record<string, AgentState | 'clear'>;
}

export interface AgentSignature {
  agent: AgentKind;
  displayName: string;
  /** CLI version the screen rules were checked against (recordings), or `unverified`. */
  seenIn: string;
  /** Executable basenames (without .exe/.cmd/.js). */
  commands: string[];
  /**
   * Names another program has too (`kilo` is also an editor that opens a file): they mean this agent only when
   * what follows is nothing, an option or one of its headless subcommands.
   */
  sharedCommands?: string[];
  /** Another program's subcommand that starts it: `cursor agent` (the editor's launcher) is Cursor Agent. */
  launchers?: { command: string; subcommand: string }[];
  /** Package names that launch it through npx/pnpm dlx/bunx/uvx/pipx and similar runners. */
  packages: string[];
  /** Process names (`comm`, image names) seen in the terminal's process tree. */
  processNames: string[];
  identify: IdentifyMarker[];
  /** Checked in this order: waiting rules first, then working. */
  waiting: StateRule[];
  working: StateRule[];
  outcomes: OutcomeMarker[];
  exit: Marker[];
  programStatus?: ProgramStatus;
  turnInProgress?: TurnInProgress;
  /**
   * A row of the agent's input box at rest (its prompt line, or the agent and model line in it). Dialogs take
   * the input box's place, so a dialog's words above such a row are the transcript's: a reply that quotes one.
   */
  inputRow?: RegExp;
  /** Prefixes stripped from a reply line before checking whether it ends with a question. */
  replyPrefix?: RegExp;
  /** A run without the TUI (plain output, then exit): Working while it runs, its exit code its outcome. */
  headless?: HeadlessRun;
  /** Where a new turn begins in the transcript: every rule above the newest one is history (stale lines). */
  turnStart?: TurnStart;
  /**
   * The rows that frame the input editor at the bottom of an inline TUI (pi: a full-width rule above and below).
   * The editor is the span between the lowest two; the row above it is the `transcriptEnd`.
   */
  inputEdge?: RegExp;
}

/** A transcript row that starts a turn (a submitted prompt or command), not the input box that looks like it. */
export interface TurnStart {
  id: string;
  pattern: RegExp;
  /** The row is the input box when the nearest non-empty row above it matches this (its top border). */
  inputBoxAbove: RegExp;
}

/** How a headless run is started (command line) and recognised from its output (scripts hide the command line). */
export interface HeadlessRun {
  /** The first argument that makes a run headless (`codex exec`, `opencode run`). */
  subcommands?: string[];
  /** Options that make a run headless anywhere in the arguments (`claude -p`, `gemini --prompt=…`). */
  flags?: string[];
  /** A row the run prints on the normal screen (never in the TUI), once identified. */
  header?: RegExp;
}
