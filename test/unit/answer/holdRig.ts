/**
 * A real hub on loopback with the hook route and the hold route mounted as the extension mounts them, a real
 * store and hook source, and a sender the test places: reports claiming process AGENT are verified as sent from
 * below it, in terminal T; OTHER_AGENT's in terminal U. The provenance check and the setting are the test's.
 */
import * as http from 'http';
import { HOLD_PATH } from '../../../src/hooks/decision';
import { holdRoute } from '../../../src/answer/holdRoute';
import { PendingAnswers } from '../../../src/answer/pending';
import type { Provenance } from '../../../src/answer/provenance';
import { type Logger, logTo } from '../../../src/common/log';
import { REPORT_BODY_LIMIT, REPORT_PATH } from '../../../src/hooks/wire';
import { Hub, type HubLimits } from '../../../src/hub/hub';
import type { PeerVerdict } from '../../../src/hub/peer';
import { HookSource } from '../../../src/sources/hooks/hookSource';
import { AgentStore } from '../../../src/store/store';

export const AGENT = 7000;
export const OTHER_AGENT = 8000;
export const SESSION = '7d3b1c1e-0000-4000-8000-0000000a0001';
export const OTHER_SESSION = '7d3b1c1e-0000-4000-8000-0000000a0002';

export interface Answer {
  status?: number;
  body: string;
  /** The connection failed or was destroyed before an answer. */
  error?: string;
  /** performance.now() when it came. */
  at: number;
}

/** One request in flight: its answer once it comes (`got`), and its request to destroy. */
export interface Sent {
  req: http.ClientRequest;
  answer: Promise<Answer>;
  got?: Answer;
  sentAt: number;
}

export interface RigOptions {
  enabled?: () => boolean;
  provenance?: (v: PeerVerdict) => Provenance;
  giveUpMs?: number;
  limits?: Partial<HubLimits>;
  /** The process whose reports are placed in T (default AGENT). */
  agentPid?: number;
  /** Ask the kernel who sent each report (the real PeerFinder) instead of placing the sender as its claim says. */
  kernel?: boolean;
}

export interface Rig {
  hub: Hub;
  store: AgentStore;
  hooks: HookSource;
  pending: PendingAnswers;
  /** Every verdict the hold route asked provenance about. */
  verdicts: PeerVerdict[];
  logs: string[];
  sent: Sent[];
  post(route: string, body: unknown, raw?: boolean): Sent;
  close(): Promise<void>;
}

/** A report as the answering hook or the reporter sends it, from below `pid`. */
export function report(payload: Record<string, unknown>, pid = AGENT): Record<string, unknown> {
  return { v: 1, agent: 'claude-code', at: Date.now(), pid, ancestry: [pid, 1234], payload };
}

export function permissionRequest(more: Record<string, unknown> = {}, pid = AGENT): Record<string, unknown> {
  return report(
    {
      session_id: SESSION,
      cwd: '/tmp/w',
      hook_event_name: 'PermissionRequest',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf build', description: 'Remove the build directory' },
      ...more,
    },
    pid,
  );
}

/** Sends one POST with the token; its answer is recorded on the returned object as well. */
export function postTo(port: number, token: string, route: string, body: unknown, raw = false): Sent {
  const text = raw ? String(body) : JSON.stringify(body);
  const sentAt = performance.now();
  let req!: http.ClientRequest;
  const answer = new Promise<Answer>((resolve) => {
    req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: route,
        method: 'POST',
        agent: false,
        headers: {
          host: `127.0.0.1:${port}`,
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
        },
      },
      (res) => {
        let b = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (b += c));
        res.on('end', () => resolve({ status: res.statusCode, body: b, at: performance.now() }));
        res.on('error', (e) => resolve({ status: res.statusCode, body: b, error: e.message, at: performance.now() }));
      },
    );
    req.on('error', (e) => resolve({ body: '', error: e.message, at: performance.now() }));
    req.end(text);
  });
  const sent: Sent = { req, answer, sentAt };
  void answer.then((a) => (sent.got = a));
  return sent;
}

export async function until(cond: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startRig(o: RigOptions = {}): Promise<Rig> {
  const store = new AgentStore();
  store.openTerminal('T', 'claude');
  store.openTerminal('U', 'claude elsewhere');
  const agent = o.agentPid ?? AGENT;
  const hooks = new HookSource(store, {
    terminalFor: (pids) => (pids.includes(agent) ? 'T' : pids.includes(OTHER_AGENT) ? 'U' : undefined),
    // The kernel's answer, as the test places the sender: its parent is the process the report claims.
    ...(o.kernel
      ? {}
      : {
          identify: (_c: unknown, claim: { pid?: number }): PeerVerdict => ({
            provenance: 'verified',
            peer: { pid: 90_000, chain: [claim.pid ?? 90_001, 1234], sid: 1234 },
          }),
        }),
  });
  const pending = new PendingAnswers();
  const hub = new Hub({ bodyLimit: REPORT_BODY_LIMIT, limits: o.limits });
  const verdicts: PeerVerdict[] = [];
  const logs: string[] = [];
  const log: Logger = logTo((_l, m) => void logs.push(m));
  hub.mount(REPORT_PATH, hooks.handle);
  hub.mount(
    HOLD_PATH,
    holdRoute({
      hooks,
      waits: store,
      pending,
      enabled: o.enabled ?? (() => true),
      provenance: (v) => {
        verdicts.push(v);
        return o.provenance ? o.provenance(v) : { ok: true, agentPid: AGENT };
      },
      log,
      ...(o.giveUpMs !== undefined ? { giveUpMs: o.giveUpMs } : {}),
    }),
  );
  const port = await hub.listen();
  const sent: Sent[] = [];
  return {
    hub,
    store,
    hooks,
    pending,
    verdicts,
    logs,
    sent,
    post: (route, body, raw) => {
      const s = postTo(port, hub.token, route, body, raw);
      sent.push(s);
      return s;
    },
    close: async () => {
      for (const s of sent) s.req.destroy();
      await hub.close();
      pending.dispose();
      store.dispose();
    },
  };
}

/** The open permission wait of terminal T. */
export function waitOfT(rig: Rig): string | undefined {
  return rig.store.waits().find((w) => w.terminalId === 'T' && w.kind === 'permission')?.id;
}
