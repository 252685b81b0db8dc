import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import { HandoffService } from '../src/handoff/service';
import { Hub } from '../src/hub/hub';
import { SILENT } from '../src/common/log';

type Print = (s: string) => void;

const EVENTS = 2000;
const CONCURRENCY = 20;

function post(port: number, token: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/handoff',
        method: 'POST',
        agent: false,
        headers: {
          host: `127.0.0.1:${port}`,
          'x-handoff-token': token,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The doorbell over real HTTP: events per second with status.json written atomically for each, and latency per event. */
export async function benchHandoff(print: Print): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-bench-handoff-'));
  fs.writeFileSync(path.join(root, 'team.toml'), '[w]\nmode = "embedded"\n');
  const hub = new Hub({ bodyLimit: 256 * 1024 });
  const finder = { find: async () => ({ title: 'bench', id: 'b', activate: async () => undefined, write: async () => undefined }) };
  const service = new HandoffService({
    root,
    teamFile: path.join(root, 'team.toml'),
    hub,
    hubFile: path.join(root, 'hub.json'),
    hubEnv: 'AGENT_LENS_HUB',
    cli: 'agent-lens',
    finder,
    log: SILENT,
    sleep: async () => undefined,
  });
  service.start();
  const port = await hub.listen();
  try {
    await service.dispatch({ agent: 'w', taskId: 'bench', brief: 'b' });
    const lat: number[] = [];
    const started = performance.now();
    let next = 0;
    let bad = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < EVENTS) {
          const i = next++;
          const t = performance.now();
          const status = await post(
            port,
            hub.token,
            JSON.stringify({ id: 'w::bench', status: 'progress', summary: `step ${i} 进度`, report_path: null }),
          );
          lat.push(performance.now() - t);
          if (status !== 200) bad++;
        }
      }),
    );
    const secs = (performance.now() - started) / 1000;
    lat.sort((a, b) => a - b);
    const pct = (p: number) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))].toFixed(2);
    print(
      `handoff    : doorbell over HTTP, ${EVENTS} progress events from ${CONCURRENCY} clients, each folded and written to status.json (temp + fsync + rename) and events.jsonl`,
    );
    print(
      `             ${(EVENTS / secs).toFixed(0)} events/s; latency p50 ${pct(50)} ms, p99 ${pct(99)} ms${bad ? `; ${bad} not 200` : ''}`,
    );
  } finally {
    service.dispose();
    await hub.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}
