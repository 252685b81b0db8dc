import { type HookTable, row } from '../hookRow';

/** Seconds. */
const S = 10;
/** Codex clamps SessionEnd and Interrupt hooks to 3 s and warns at every start about a longer timeout. */
const SHORT = 3;

/** The hooks Agent Lens writes into Codex's hooks.json. Codex matchers are regexes; no matcher matches everything. */
export const hookRows: HookTable = {
  rows: [
    row('PermissionRequest', S),
    row('Stop', S),
    row('UserPromptSubmit', S),
    row('Interrupt', SHORT),
    row('SessionEnd', SHORT),
    row('PostToolUse', S, true),
  ],
};
