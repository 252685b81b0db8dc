import type { AgentKind } from '../common/agents';
import { createClaudeDecoder } from './claude';
import { createCodexDecoder } from './codex';
import { createDroidDecoder } from './droid';
import { createCopilotDecoder } from './copilot';
import { createGeminiDecoder } from './gemini';
import { createQwenDecoder } from './qwen';
import type { LineDecoder } from './types';
import type { UsageSink } from '../common/usage';
import { createContinueDecoder, type SnapshotDecoder } from './continue';

export { createOpenCodeDecoder } from './opencode';
export { createContinueDecoder, MAX_SESSION_FILE_BYTES, type SnapshotDecoder } from './continue';
export type { OpenCodeDecoder, OpenCodeRows, SessionRow, MessageRow, PartRow } from './opencode';
export type { LineDecoder, LogEvent } from './types';

/**
 * The decoder of each agent whose session logs are JSON lines (OpenCode's are database rows:
 * createOpenCodeDecoder). test/unit/agents/registry.test.ts keeps it equal to the descriptors' `logs`.
 */
export const LINE_DECODERS = {
  'claude-code': createClaudeDecoder,
  codex: createCodexDecoder,
  gemini: createGeminiDecoder,
  copilot: createCopilotDecoder,
  qwen: createQwenDecoder,
  droid: createDroidDecoder,
} satisfies Partial<
  Record<AgentKind, (onProblem?: (kind: string, detail: string) => void, file?: string, usage?: UsageSink) => LineDecoder>
>;

export type LineLogAgent = keyof typeof LINE_DECODERS;

export function isLineLogAgent(a: string): a is LineLogAgent {
  return Object.hasOwn(LINE_DECODERS, a);
}

/**
 * A fresh decoder for one log file; decoders are stateful, so use one per file. `file` is where the agent keeps it,
 * for a log that names its session only there (Copilot's folder per session); `usage` gets what the lines say
 * about tokens, context and cost (src/usage).
 */
export function decoderFor(
  agent: LineLogAgent,
  onProblem?: (kind: string, detail: string) => void,
  file?: string,
  usage?: UsageSink,
): LineDecoder {
  return LINE_DECODERS[agent](onProblem, file, usage);
}

/**
 * The decoder of each agent whose session file is one JSON object rewritten whole (Continue's). The registry test
 * keeps it equal to the descriptors' `json-snapshot` logs.
 */
export const SNAPSHOT_DECODERS = {
  'continue-cli': createContinueDecoder,
} satisfies Partial<Record<AgentKind, (onProblem?: (kind: string, detail: string) => void, usage?: UsageSink) => SnapshotDecoder>>;

export type SnapshotLogAgent = keyof typeof SNAPSHOT_DECODERS;

export function isSnapshotLogAgent(a: string): a is SnapshotLogAgent {
  return Object.hasOwn(SNAPSHOT_DECODERS, a);
}
