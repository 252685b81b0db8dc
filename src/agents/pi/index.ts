import type { AgentDescriptor } from '../descriptor';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'pi',
  rank: 13,
  screen,
  // pi's ExtensionSelectorComponent (ctx.ui.select / confirm): a border, the title, `→ Yes` / `  No`, the hint.
  menu: {
    border: /^─{20,}\s*$/,
    hint: /^ ↑↓ navigate {1,4}enter select {1,4}escape\/ctrl\+c cancel\s*$/,
    cursor: '→',
    ticker: / \(\d{1,5}s\)$/,
    keys: { up: '\x1b[A', down: '\x1b[B', pick: '\r' },
  },
  doc: {
    identifiedBy: 'command line (`pi`, headless `-p`), process, its window title `π - <folder>`, its header',
    verified:
      'all seven, live in the harness against the loopback chat-completions mock (pi takes any OpenAI-compatible endpoint): answer, question, a tool that runs without asking (pi has no approvals), the dialog of its own example extension `permission-gate` approved and denied (also from VS Code: its selector answered with the arrow keys and Enter read off the screen, and the third option of a question an extension asks), Esc, HTTP 500 (three retries, then failed), HTTP 400, Ctrl+D, headless `-p`, a numbered plan that quotes a dialog, its first start without a model (waiting)',
  },
};
