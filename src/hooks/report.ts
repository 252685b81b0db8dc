import { z } from 'zod';

/**
 * What the reporter (`agent-lens report`, run by an agent's hook or plugin) sends to the hub: the hook's own
 * payload untouched, plus who sent it and when. One report per hook run, POSTed to `/v1/hooks`.
 */

import { REPORTING_AGENTS } from '../agents/hookEvents';

export { REPORT_BODY_LIMIT, REPORT_PATH, type ReportingAgent } from './wire';
export { REPORTING_AGENTS } from '../agents/hookEvents';

export const reportSchema = z.object({
  v: z.literal(1),
  agent: z.enum(REPORTING_AGENTS),
  /** Epoch ms (fractional) when the hook ran, on this machine's clock: orders reports of one session. */
  at: z.number().finite().positive(),
  /** The agent process that ran the hook (the hook's parent), when known. */
  pid: z.number().int().positive().optional(),
  /** The reporter's ancestors from its parent up (Linux /proc), to find the terminal whose shell started the agent. */
  ancestry: z.array(z.number().int().positive()).max(64).optional(),
  /** The folder the agent works in, where the payload does not say (OpenCode, Hermes). */
  cwd: z.string().max(4096).optional(),
  /**
   * The hook's stdin JSON (Claude Code, Codex, Gemini CLI), the bus event `{type, properties}` (OpenCode) or
   * `{hook, ...kwargs}` (Hermes).
   */
  payload: z.record(z.unknown()),
});

export type Report = z.infer<typeof reportSchema>;
