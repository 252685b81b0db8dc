import { createClaudeDecoder } from './claude';
import { createCodexDecoder } from './codex';
import type { LineDecoder } from './types';

export { createOpenCodeDecoder } from './opencode';
export type { OpenCodeDecoder, OpenCodeRows, SessionRow, MessageRow, PartRow } from './opencode';
export type { LineDecoder, LogEvent } from './types';

/** The agents whose session logs are JSON lines (OpenCode's are database rows: createOpenCodeDecoder). */
export type LineLogAgent = 'claude-code' | 'codex';

/** A fresh decoder for one log file; decoders are stateful, so use one per file. */
export function decoderFor(agent: LineLogAgent, onProblem?: (kind: string, detail: string) => void): LineDecoder {
  return agent === 'claude-code' ? createClaudeDecoder(onProblem) : createCodexDecoder(onProblem);
}
