import { askedQuestions, type AskedQuestion } from '../hooks/decision';
import type { AgentKind } from '../common/agents';

/** A dialog an agent's hook or plugin holds open for an answer, as its report describes it. */
export interface HeldDialog {
  /** The wait it is (src/store/waits.ts). */
  kind: 'permission' | 'question';
  tool: string;
  /** What the confirmation shows in full. */
  input: Record<string, unknown>;
  /** A question dialog's questions: it is answered by choosing one of each one's options. */
  questions?: AskedQuestion[];
}

type Payload = Record<string, unknown>;
/** The dialog a report holds; `undefined`: a dialog that cannot be answered from VS Code (left to the terminal). */
type Reader = (payload: Payload) => HeldDialog | undefined;

const record = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Payload) : {});
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A question dialog, or undefined when one of its questions cannot be answered by choosing. */
function question(tool: string, input: Record<string, unknown>): HeldDialog | undefined {
  const questions = askedQuestions(input);
  return questions && { kind: 'question', tool, input, questions };
}

/** OpenCode's dialogs, and Kilo's (the same bus events, the same reply API). */
const OPENCODE_DIALOGS = {
  holds: (p: Payload) => p.type === 'permission.asked' || p.type === 'question.asked',
  read: (p: Payload): HeldDialog | undefined => {
    const props = record(p.properties);
    if (p.type === 'question.asked') return question('question', { questions: props.questions });
    const meta = record(props.metadata);
    return {
      kind: 'permission',
      tool: text(props.permission),
      input: { ...(typeof meta.command === 'string' ? { command: meta.command } : {}), patterns: props.patterns ?? [] },
    };
  },
};

/**
 * Which reports hold a dialog, per agent, and what it asks (the agents' own payloads: harness/facts/
 * answering-dialogs.md). Claude Code: its `PermissionRequest` hook, also fired for AskUserQuestion, in the main
 * session only (a subagent's dialog would stay hidden while held: it is answered by keys or in the terminal). OpenCode and Kilo: its
 * plugin's `permission.asked` and `question.asked` bus events (the plugin replies through the agent's own API).
 */
export const HELD_DIALOGS: Partial<Record<AgentKind, { holds(payload: Payload): boolean; read: Reader }>> = {
  'claude-code': {
    holds: (p) => p.hook_event_name === 'PermissionRequest',
    read: (p) => {
      // A subagent's request (it names its agent_id): Claude Code draws its dialog only once the hook returns
      // (2.1.328, measured: held, a background subagent's dialog stayed hidden), so it is never held.
      if (p.agent_id !== undefined) return undefined;
      const input = record(p.tool_input);
      const tool = text(p.tool_name);
      return tool === 'AskUserQuestion' ? question(tool, input) : { kind: 'permission', tool, input };
    },
  },
  opencode: OPENCODE_DIALOGS,
  kilocode: OPENCODE_DIALOGS,
};
