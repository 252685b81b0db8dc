import { type HookTable, OUR_HOOK_NAME, row } from '../hookRow';

/** Gemini CLI counts hook timeouts in milliseconds. */
const MS = 10_000;

/** The hooks Agent Lens writes into Gemini CLI's settings, each named (Gemini shows a running hook's name). */
export const hookRows: HookTable = {
  name: OUR_HOOK_NAME,
  rows: [row('Notification', MS), row('AfterAgent', MS), row('BeforeAgent', MS), row('SessionEnd', MS), row('AfterTool', MS, true)],
};
