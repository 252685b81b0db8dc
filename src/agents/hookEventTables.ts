// Generated from the folders of src/agents by test/unit/agents/generate.ts (npm run agents:generate): do not edit.
// The hook events of each agent that has a table of them, for the reporter (src/agents/hookEvents.ts).
import { events as claudeCode } from './claude-code/hooks';
import { events as codex } from './codex/hooks';
import { events as gemini } from './gemini/hooks';
import { events as hermes } from './hermes/hooks';
import { events as copilot } from './copilot/hooks';
import { events as qwen } from './qwen/hooks';
import { events as droid } from './droid/hooks';

export const EVENT_TABLES = {
  'claude-code': claudeCode,
  codex: codex,
  gemini: gemini,
  hermes: hermes,
  copilot: copilot,
  qwen: qwen,
  droid: droid,
} as const;
