import * as path from 'path';
import type { AgentDescriptor } from '../descriptor';
import { hookRows } from './install';
import { screen } from './screen';

export const agent: AgentDescriptor = {
  id: 'qwen',
  rank: 10,
  screen,
  // `$QWEN_HOME` is the configuration folder itself (Qwen Code's Storage.getGlobalQwenDir), `~/.qwen` without it.
  configDir: (env, home) => (env.QWEN_HOME ? path.resolve(home, env.QWEN_HOME.replace(/^~(?=$|\/)/, home)) : path.join(home, '.qwen')),
  hooks: 'settings',
  hookRows,
  logs: {
    format: 'jsonl',
    setting: 'agentLens.sessionLogs.qwenDirs',
    under: 'projects',
    // projects/<sanitized cwd>/chats/<session id>.jsonl (beside it `<id>.runtime.json`, not a log).
    depth: 2,
    isSession: (file, dir) =>
      file.endsWith('.jsonl') && path.basename(path.dirname(file)) === 'chats' && path.dirname(path.dirname(path.dirname(file))) === dir,
  },
  // `› 1. Yes, allow once` / `2. Always allow …` / `3. …` / `4. No, suggest changes (esc)`: a digit picks at once.
  dialogKeys: { allowOnce: /^Yes, allow once\b/, deny: /^No\b/ },
  doc: {
    identifiedBy:
      'command line (`qwen`; package `@qwen-code/qwen-code`; headless `-p`, `--prompt`), process, its window title `Qwen - <folder>`',
    verified:
      'all seven, live in the harness against the loopback chat-completions mock (Qwen Code takes any OpenAI-compatible endpoint): answer, question, shell approvals approved and denied, Esc, HTTP 500, HTTP 400, `/quit`, headless `-p`, a numbered plan that quotes a dialog; its hooks and its session log',
  },
};
