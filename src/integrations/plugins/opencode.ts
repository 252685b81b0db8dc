// agent-lens-report plugin for OpenCode: written by Agent Lens; remove it with "Agent Lens: Uninstall Agent Hooks".
/**
 * Listens on OpenCode's event bus (or Kilo's: its fork, with the same plugin API and events) and hands the events
 * the mapping reads (src/agents/opencode/hooks.ts) to the hub, in the order they happened, one at a time; a
 * permission or question it holds open for an answer from VS Code (answer(), below). Runs inside OpenCode: it
 * never prints, never throws into the host, and does nothing outside a VS Code terminal (no `AGENT_LENS_HUB`).
 */
import { type Discovery, readDiscovery } from '../../hub/discovery';
import { ancestry, post, request } from '../reporter/client';
import { askedQuestions, chosenOptions, decisionOf, HOLD_GIVE_UP_MS, HOLD_PATH } from '../../hooks/decision';
import { TEXT_KEPT, type WireReport } from '../../hooks/wire';
import { hostAgent } from './host';

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
/** The dialogs OpenCode lets a plugin answer through its own API (harness/facts/answering-dialogs.md §3). */
const DIALOGS = new Set(['permission.asked', 'question.asked']);
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

/** A report in the queue; a dialog's is held open at the hub for an answer from VS Code (see answer()). */
type Queued = { body: string; dialog?: BusEvent };

export const AgentLensReporter = async (input: { directory?: string; client?: unknown }) => {
  const hubFile = process.env.AGENT_LENS_HUB;
  if (!hubFile) return {};
  const queue: Queued[] = [];
  let sending = false;
  const pump = async () => {
    if (sending) return;
    sending = true;
    try {
      while (queue.length) {
        const hub = readDiscovery(hubFile);
        const { body, dialog } = queue.shift()!;
        // A dialog's report goes after those before it, on a connection of its own that it holds: the queue goes on.
        if (hub && dialog) void answer(hub, body, dialog, input?.client);
        else if (hub) await post(hub, body, REQUEST_MS);
      }
    } finally {
      sending = false;
    }
  };
  const chain = ancestry(process.pid);
  const agent = hostAgent(process.env, process.pid);
  return {
    event: async ({ event }: { event: BusEvent }) => {
      try {
        if (!event?.type || !FORWARDED.has(event.type)) return;
        const payload = slim(event);
        if (!payload) return;
        const r: WireReport = {
          v: 1,
          agent,
          at: performance.timeOrigin + performance.now(),
          pid: process.pid,
          ancestry: chain,
          ...(input?.directory ? { cwd: input.directory } : {}),
          payload,
        };
        if (queue.length >= QUEUE_LIMIT) queue.shift();
        queue.push({ body: JSON.stringify(r), ...(DIALOGS.has(event.type) ? { dialog: event } : {}) });
        void pump();
      } catch {
        /* never into OpenCode */
      }
    },
  };
};

/** OpenCode's v1 SDK client as plugins get it: its raw HTTP client, routed inside OpenCode. */
type RawClient = {
  _client?: {
    post?: (o: { url: string; path: Record<string, string>; body: unknown; headers: Record<string, string> }) => Promise<unknown>;
  };
};

/**
 * Reports a dialog on a held connection; when the user decides in VS Code, replies through OpenCode's own API
 * for this very request id: `once` or `reject` (with the user's words) for a permission, the chosen option of
 * each question — checked against this event's own questions — for a question. Anything else replies nothing,
 * and the dialog stays in the TUI. OpenCode's own `permission.replied` / `question.replied` closes the wait.
 */
async function answer(hub: Discovery, body: string, dialog: BusEvent, client: unknown): Promise<void> {
  try {
    const got = await request(hub, HOLD_PATH, body, HOLD_GIVE_UP_MS);
    // A hub without the route (`agent-lens serve`, an older window) has not recorded the report: send it plainly.
    if (got?.status === 404) await post(hub, body, REQUEST_MS);
    const send = (client as RawClient | undefined)?._client?.post;
    const id = dialog.properties?.id;
    if (got?.status !== 200 || !send || typeof id !== 'string') return;
    const d = decisionOf(JSON.parse(got.text));
    const headers = { 'Content-Type': 'application/json' };
    if (dialog.type === 'permission.asked' && d && d.behavior !== 'answer') {
      const reply = d.behavior === 'allow' ? { reply: 'once' } : { reply: 'reject', ...(d.message ? { message: d.message } : {}) };
      await send({ url: '/permission/{requestID}/reply', path: { requestID: id }, body: reply, headers });
    }
    const asked = askedQuestions({ questions: dialog.properties?.questions });
    const chosen = asked && d?.behavior === 'answer' ? chosenOptions(asked, d.answers) : undefined;
    if (dialog.type === 'question.asked' && chosen)
      await send({ url: '/question/{requestID}/reply', path: { requestID: id }, body: { answers: chosen.map((c) => [c]) }, headers });
  } catch {
    /* never into OpenCode: the dialog stays in its TUI */
  }
}
