import * as assert from 'assert';
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Hub } from '../../../../src/hub/hub';
import { writeDiscovery } from '../../../../src/hub/discovery';
import { REPORT_BODY_LIMIT, REPORT_PATH, type WireReport } from '../../../../src/hooks/wire';
import { hostAgent } from '../../../../src/integrations/plugins/host';
import { ROOT } from '../../helpers';

const BUNDLE = path.join(ROOT, 'dist', 'opencode-plugin.js');

/**
 * The built plugin, loaded as OpenCode and Kilo load it (an ES module whose export is called with the plugin
 * input, then given bus events), in a process that sets `KILO_PID` as Kilo does (its own pid) or not at all.
 */
/** Spawned, not run synchronously: the hub answering it lives in this process. */
async function runPlugin(discovery: string, env: NodeJS.ProcessEnv, setKiloPid: boolean): Promise<void> {
  const script = `
    ${setKiloPid ? 'process.env.KILO_PID = String(process.pid);' : ''}
    const m = await import(${JSON.stringify(BUNDLE)});
    const hooks = await m.AgentLensReporter({ directory: '/work/demo' });
    await hooks.event({ event: { type: 'session.status', properties: { sessionID: 'ses_1', status: { type: 'busy' } } } });
    await new Promise((r) => setTimeout(r, 1500));`;
  const { stdout } = await new Promise<{ stdout: string }>((resolve, reject) =>
    execFile(
      process.execPath,
      ['--input-type=module', '-e', script],
      { env: { PATH: process.env.PATH, ...env, AGENT_LENS_HUB: discovery }, encoding: 'utf8', timeout: 20_000 },
      (err, out, errText) => (err ? reject(new Error(`${err.message}\n${errText}`)) : resolve({ stdout: out })),
    ),
  );
  assert.strictEqual(stdout, '', 'a plugin never prints into its host');
}

describe('OpenCode plugin: which agent it reports as', function () {
  this.timeout(60_000);
  let hub: Hub;
  let dir: string;
  let discovery: string;
  const got: WireReport[] = [];

  before(async function () {
    if (!fs.existsSync(BUNDLE)) this.skip();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'al-ocplugin-'));
    hub = new Hub({ bodyLimit: REPORT_BODY_LIMIT });
    hub.mount(REPORT_PATH, (body) => void got.push(body as WireReport));
    discovery = path.join(dir, 'hub.json');
    writeDiscovery(discovery, { v: 1, port: await hub.listen(), token: hub.token, pid: process.pid });
  });
  after(async () => {
    await hub?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => (got.length = 0));

  it('inside Kilo (KILO_PID is its own pid): kilocode, with the bus event as it came', async () => {
    await runPlugin(discovery, {}, true);
    assert.deepStrictEqual(
      got.map((r) => [r.agent, r.cwd, r.payload]),
      [['kilocode', '/work/demo', { type: 'session.status', properties: { sessionID: 'ses_1', status: { type: 'busy' } } }]],
    );
  });

  it('inside OpenCode, also one started from a Kilo shell (an inherited KILO_PID): opencode', async () => {
    await runPlugin(discovery, {}, false);
    await runPlugin(discovery, { KILO_PID: '1' }, false);
    assert.deepStrictEqual(
      got.map((r) => r.agent),
      ['opencode', 'opencode'],
    );
  });

  it('hostAgent: Kilo only when KILO_PID names this very process', () => {
    assert.strictEqual(hostAgent({ KILO_PID: '4242' }, 4242), 'kilocode');
    assert.strictEqual(hostAgent({ KILO_PID: '4241' }, 4242), 'opencode');
    assert.strictEqual(hostAgent({ KILO_PID: '' }, 4242), 'opencode');
    assert.strictEqual(hostAgent({}, 4242), 'opencode');
  });
});
