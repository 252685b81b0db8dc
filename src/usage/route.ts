import type { Hub } from '../hub/hub';
import { type UsageFigures, usageJson, type UsageJson } from './figures';

/** `GET /usage` on the hub: every session's figures, for `agent-lens status`. */
export const USAGE_PATH = '/usage';

export interface SessionUsageJson extends UsageJson {
  /** The terminal that shows the session, where one does. */
  terminal: { id: string; name: string } | null;
}

export function mountUsage(hub: Pick<Hub, 'mount'>, all: () => (UsageFigures & { terminal?: { id: string; name: string } })[]): void {
  hub.mount(USAGE_PATH, () => ({ sessions: all().map((f): SessionUsageJson => ({ ...usageJson(f), terminal: f.terminal ?? null })) }), {
    method: 'GET',
  });
}
