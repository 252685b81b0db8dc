/**
 * The reporter's wire constants, apart from the zod schema (./report.ts) so the reporter bundle, which runs
 * on every hook, stays small and starts fast.
 */

import type { ReportingAgent } from '../agents/hookEvents';

export type { ReportingAgent } from '../agents/hookEvents';

export const REPORT_PATH = '/v1/hooks';

/** A report's size limit in bytes (the hub answers 413 above it; the reporter trims long texts first). */
export const REPORT_BODY_LIMIT = 256 * 1024;

/** Longest text field the reporter forwards (a reply's last message, a tool's output): the mapping needs the end. */
export const TEXT_KEPT = 8000;

/** What the reporter sends (./report.ts validates it at the hub). */
export interface WireReport {
  v: 1;
  agent: ReportingAgent;
  at: number;
  pid?: number;
  ancestry?: number[];
  cwd?: string;
  payload: Record<string, unknown>;
}
