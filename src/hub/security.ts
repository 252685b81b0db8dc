import { timingSafeEqual } from 'crypto';
import type { IncomingMessage } from 'http';
import { JsonDepthError, parseJson } from '../common/json';

/** Why a request is refused, as the hub answers it. */
export class HubError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * DNS rebinding: a page on evil.example that resolves to 127.0.0.1 sends `Host: evil.example`. Only the
 * loopback names with our own port are accepted.
 */
export function checkHost(req: IncomingMessage, port: number): void {
  const host = (req.headers.host ?? '').toLowerCase();
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) throw new HubError(403, 'forbidden host');
}

/** Browsers send Origin on cross-site requests; our clients (the reporter, plugins, scripts) never do. */
export function checkOrigin(req: IncomingMessage): void {
  if (req.headers.origin !== undefined) throw new HubError(403, 'forbidden origin');
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'none') throw new HubError(403, 'forbidden origin');
}

/**
 * Constant-time comparison of the token, given as `Authorization: Bearer …` (the hook reporter) or
 * `X-Handoff-Token: …` (the doorbell contract briefs give agents); a length mismatch is refused without comparing.
 */
export function checkToken(req: IncomingMessage, token: string): void {
  const auth = req.headers.authorization ?? '';
  const m = /^Bearer ([\w-]{1,256})$/.exec(auth);
  const handoff = req.headers['x-handoff-token'];
  const given = Buffer.from(m ? m[1] : typeof handoff === 'string' && handoff.length <= 256 ? handoff.trim() : '');
  const want = Buffer.from(token);
  if (given.length !== want.length || !timingSafeEqual(given, want)) throw new HubError(403, 'missing or wrong token');
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Reads a JSON body of at most `limit` bytes: 413 above it, 415 for another content type, 400 for bad UTF-8 or JSON. */
export function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (!/^application\/json\s*(;\s*charset=utf-8\s*)?$/.test(type))
    return Promise.reject(new HubError(415, 'expected Content-Type: application/json'));
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > limit) return Promise.reject(new HubError(413, `body over ${limit} bytes`));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > limit) {
        failed = true;
        reject(new HubError(413, `body over ${limit} bytes`));
        return;
      }
      chunks.push(c);
    });
    req.on('error', (e) => {
      if (!failed) reject(new HubError(400, `request failed: ${e.message}`));
      failed = true;
    });
    req.on('end', () => {
      if (failed) return;
      try {
        resolve(parseJson(UTF8.decode(Buffer.concat(chunks))));
      } catch (e) {
        reject(
          new HubError(
            400,
            e instanceof TypeError ? 'body is not UTF-8' : e instanceof JsonDepthError ? `body is ${e.message}` : 'body is not JSON',
          ),
        );
      }
    });
  });
}
