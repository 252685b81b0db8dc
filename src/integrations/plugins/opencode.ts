// agent-lens-report plugin for OpenCode: written by Agent Lens; remove it with "Agent Lens: Uninstall Agent Hooks".
/**
 * Listens on OpenCode's event bus and hands the events the mapping reads (src/agents/opencode/hooks.ts) to
 * the hub, in the order they happened, one at a time. Runs inside OpenCode: it never prints, never throws
 * into the host, and does nothing outside a VS Code terminal (no `AGENT_LENS_HUB`).
 */
import { readDiscovery } from '../../hub/discovery';
import { ancestry, post } from '../reporter/client';
import { TEXT_KEPT, type WireReport } from '../../hooks/wire';

const FORWARDED = new Set([
  'permission.asked',
  'permission.replied',
  'question.asked',
  'question.replied',
  'question.rejected',
  'session.status',
  'session.error',
  'session.created',
  'message.part.updated',
]);
const QUEUE_LIMIT = 256;
const REQUEST_MS = 3000;

type BusEvent = { type?: string; properties?: Record<string, unknown> };

/** Only what the mapping reads: bus events carry whole messages and diffs. */
function slim(e: BusEvent): Record<string, unknown> | undefined {
  const p = e.properties ?? {};
  if (e.type === 'message.part.updated') {
    const part = p.part as Record<string, unknown> | undefined;
    const time = part?.time as Record<string, unknown> | undefined;
    if (part?.type !== 'text' || time?.end === undefined) return undefined;
    const text = typeof part.text === 'string' ? part.text.slice(-TEXT_KEPT) : '';
    return { type: e.type, properties: { sessionID: p.sessionID, part: { type: 'text', text, time: { end: time.end } } } };
  }
  if (e.type === 'session.created') {
    const info = p.info as Record<string, unknown> | undefined;
    return { type: e.type, properties: { sessionID: p.sessionID, info: { parentID: info?.parentID } } };
  }
  return { type: e.type, properties: p };
}

export const AgentLensReporter = async (input: { directory?: string }) => {
  const hubFile = process.env.AGENT_LENS_HUB;
  if (!hubFile) return {};
  const queue: string[] = [];
  let sending = false;
  const pump = async () => {
    if (sending) return;
    sending = true;
    try {
      while (queue.length) {
        const hub = readDiscovery(hubFile);
        const body = queue.shift()!;
        if (hub) await post(hub, body, REQUEST_MS);
      }
    } finally {
      sending = false;
    }
  };
  const chain = ancestry(process.pid);
  return {
    event: async ({ event }: { event: BusEvent }) => {
      try {
        if (!event?.type || !FORWARDED.has(event.type)) return;
        const payload = slim(event);
        if (!payload) return;
        const r: WireReport = {
          v: 1,
          agent: 'opencode',
          at: performance.timeOrigin + performance.now(),
          pid: process.pid,
          ancestry: chain,
          ...(input?.directory ? { cwd: input.directory } : {}),
          payload,
        };
        if (queue.length >= QUEUE_LIMIT) queue.shift();
        queue.push(JSON.stringify(r));
        void pump();
      } catch {
        /* never into OpenCode */
      }
    },
  };
};
