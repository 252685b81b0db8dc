import * as l10n from '@vscode/l10n';
/** Why a send failed, by kind: a channel logs each kind once, not every failure. */
export class SendError extends Error {
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(message);
  }
}

export interface PostOptions {
  /** Per attempt. */
  timeoutMs?: number;
  /** Further attempts after a network failure, a timeout, 429 or a 5xx; a 4xx is final. */
  retries?: number;
  /** Pause before retry n (1-based); tests pass 0. */
  backoffMs?: (n: number) => number;
}

const DEFAULTS = { timeoutMs: 10_000, retries: 2, backoffMs: (n: number) => 1000 * 2 ** (n - 1) };

/**
 * POSTs JSON and resolves once the server took it (2xx). Redirects are not followed: a token sent to one server
 * must not go on to another. The URL, which may itself be a secret (a webhook's), is never in the error.
 */
export async function postJson(url: string, body: unknown, headers: Record<string, string>, o: PostOptions = {}): Promise<void> {
  const { timeoutMs, retries, backoffMs } = { ...DEFAULTS, ...o };
  let last: SendError | undefined;
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, backoffMs(attempt)));
    last = await attempt1(url, body, headers, timeoutMs);
    if (!last) return;
    if (!/^(network|timeout|http 429|http 5\d\d)$/.test(last.kind)) break;
  }
  throw last!;
}

async function attempt1(url: string, body: unknown, headers: Record<string, string>, timeoutMs: number): Promise<SendError | undefined> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    // The body is read so the connection can be reused, and dropped: it may echo what was sent.
    await res.arrayBuffer().catch(() => undefined);
    if (res.status >= 200 && res.status < 300) return undefined;
    // The test notice shows these (src/notify/channelPicks.ts testResultNotice): in the window's language.
    return new SendError(
      `http ${res.status}`,
      res.status >= 300 && res.status < 400
        ? l10n.t('the server answered {0} (a redirect, not followed)', res.status)
        : l10n.t('the server answered {0}', res.status),
    );
  } catch (e) {
    const timeout = (e as Error).name === 'TimeoutError';
    return new SendError(
      timeout ? 'timeout' : 'network',
      timeout ? l10n.t('no answer within {0} ms', timeoutMs) : l10n.t('could not connect ({0})', causeOf(e)),
    );
  }
}

/** The network error's code (ECONNREFUSED, ENOTFOUND, …), never fetch's own message: that one quotes the URL. */
function causeOf(e: unknown): string {
  const c = (e as { cause?: { code?: string } }).cause;
  return c?.code ?? (e as Error).name;
}
