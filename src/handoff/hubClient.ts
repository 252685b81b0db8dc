import * as l10n from '@vscode/l10n';
import * as http from 'http';
import { readDiscovery } from '../hub/discovery';

/** The variable naming the hub file (port and token) for every client: the extension sets it in its terminals; `serve` users export it. */
export const HUB_ENV = 'AGENT_LENS_HUB';

export class ClientError extends Error {}

export interface HubAddress {
  port: number;
  token: string;
}

/** The hub named by `AGENT_LENS_HUB`; a clear error when the variable or its file is missing. */
export function hubFromEnv(env: NodeJS.ProcessEnv = process.env): HubAddress {
  const file = env[HUB_ENV];
  if (!file)
    throw new ClientError(
      `${HUB_ENV} is not set: run this in a VS Code terminal opened after Agent Lens started, or export ${HUB_ENV}=<the --info-file of agent-lens serve>`,
    );
  const d = readDiscovery(file);
  if (!d)
    throw new ClientError(
      `${HUB_ENV}=${file}: no hub there (the file is missing or not an Agent Lens hub file): reload VS Code or restart agent-lens serve`,
    );
  return d;
}

export interface Answer {
  status: number;
  body: unknown;
}

/** One request to the hub with the handoff token header; the token never appears in a URL or argv. */
export function request(hub: HubAddress, method: 'GET' | 'POST', path: string, body?: unknown, timeoutMs = 30_000): Promise<Answer> {
  const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: hub.port,
        path,
        method,
        agent: false,
        timeout: timeoutMs,
        headers: {
          host: `127.0.0.1:${hub.port}`,
          'x-handoff-token': hub.token,
          ...(data ? { 'content-type': 'application/json', 'content-length': data.length } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            /* keep the text */
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(l10n.t('no answer from the hub on port {0} within {1} s', hub.port, timeoutMs / 1000))));
    req.on('error', (e) =>
      reject(
        new ClientError(`cannot reach the hub on 127.0.0.1:${hub.port}: ${e.message} (is VS Code or agent-lens serve still running?)`),
      ),
    );
    req.end(data);
  });
}
