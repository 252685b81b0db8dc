import { type HookTable, row } from '../../hooks/install/hookRow';
import { OUR_HOOK_NAME } from '../../hooks/install/ownEntries';

/** Gemini CLI counts hook timeouts in milliseconds. */
const MS = 10_000;

/** The hooks Agent Lens writes into Gemini CLI's settings, each named (Gemini shows a running hook's name). */
export const hookRows: HookTable = {
  name: OUR_HOOK_NAME,
  rows: [row('Notification', MS), row('AfterAgent', MS), row('BeforeAgent', MS), row('SessionEnd', MS), row('AfterTool', MS, true)],
};
