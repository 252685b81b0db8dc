import { type HookTable, row } from '../hookRow';

/** Seconds. */
const S = 10;

/**
 * The hooks Agent Lens writes into droid's `hooks.json` (Claude Code's groups; only the tool events read a
 * matcher). PreToolUse runs for every tool call, ungated: it is what names the tool of the dialog the next
 * Notification announces. Notification is only reported, never held: droid awaits it before it draws the dialog,
 * so a held hook would hide the very dialog it is about (the dialog is answered with its keys).
 */
export const hookRows: HookTable = {
  file: { name: 'hooks.json', eventsAtTop: true },
  rows: [
    row('PreToolUse', S, false, '*'),
    row('Notification', S),
    row('Stop', S),
    row('UserPromptSubmit', S),
    row('SessionEnd', S),
    row('PostToolUse', S, true, '*'),
  ],
};
