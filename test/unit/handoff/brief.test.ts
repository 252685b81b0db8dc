import * as assert from 'assert';
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { contract, renderBrief, renderReadMd } from '../../../src/handoff/brief';
import { HandoffService } from '../../../src/handoff/service';
import { writeDiscovery } from '../../../src/hub/discovery';
import { Hub } from '../../../src/hub/hub';
import { SILENT } from '../../../src/common/log';
import { HUB_FACTS, typingTarget } from '../helpers';

let tmp: string;

describe('brief and read.md: the curl example sends the token down a pipe, never in argv', () => {
  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-lens-brief-'))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const facts = {
    ...HUB_FACTS,
    agent: 'w',
    taskId: '0102-01',
    briefPath: '/r/w/briefs/0102-01-brief.md',
    reportPath: '/r/w/reports/0102-01-report.md',
  };

  it('the curl example reads the token header from stdin (-H @-), never from a variable on the command line', () => {
    const texts = [
      renderBrief({ agent: 'w', taskId: '0102-01', task: 'Fix it.' }, facts, 'linux'),
      renderReadMd('w', undefined, { ...HUB_FACTS, agent: 'w', briefsDir: '/r/w/briefs', reportsDir: '/r/w/reports' }, 'linux'),
    ];
    for (const text of texts) {
      const curl = text.split('\n').filter((l) => /\bcurl\b/.test(l) && !l.startsWith('or with'));
      assert.strictEqual(curl.length, 1, text);
      // node's argv names the hub file; the token it reads from there only goes down the pipe.
      const [feed, argv] = curl[0].split(' | curl ');
      assert.match(feed, /^node -p "'X-Handoff-Token: ' \+ require\('\$H'\)\.token"$/);
      assert.match(argv, / -H @- /);
      assert.doesNotMatch(argv, /X-Handoff-Token/, 'the header is not spelled out on curl’s command line');
      assert.doesNotMatch(text, /TOKEN=|\$TOKEN|\$\{?TOKEN|X-Handoff-Token: \$/, 'no shell variable carries the token into an argv');
      assert.match(curl[0], /--noproxy '\*'/, 'a proxy from the environment never sees the token');
    }
  });

  it('a Windows report path stays a valid JSON string in every JSON body (its backslashes escaped)', () => {
    const reportPath = 'C:\\Users\\张三\\My Project\\.agent-lens\\handoff\\w\\reports\\0102-01-report.md';
    for (const platform of ['linux', 'win32'] as const) {
      const text = contract({ ...facts, reportPath }, platform);
      const fenced = /```handoff\n(\{.*\})\n```/.exec(text)?.[1];
      assert.strictEqual((JSON.parse(fenced!) as { report_path: string }).report_path, reportPath, platform);
    }
    const curlBody = /--data-binary '(\{.*\})'/.exec(contract({ ...facts, reportPath }, 'linux'))?.[1];
    assert.strictEqual((JSON.parse(curlBody!) as { report_path: string }).report_path, reportPath);
  });

  it('on Windows: agent-lens.cmd in PowerShell (and cmd.exe), no curl recipe and nothing of a POSIX shell', () => {
    const win = {
      ...facts,
      hubFile: 'C:\\Users\\张三\\.agent-lens\\hubs\\x.json',
      cli: 'C:\\Users\\张三\\.agent-lens\\bin\\agent-lens.cmd',
      briefPath: 'C:\\Users\\张三\\proj\\.agent-lens\\handoff\\w\\briefs\\0102-01-brief.md',
      reportPath: 'C:\\Users\\张三\\proj\\.agent-lens\\handoff\\w\\reports\\0102-01-report.md',
    };
    const texts = [
      renderBrief({ agent: 'w', taskId: '0102-01', task: 'Fix it.' }, win, 'win32'),
      renderReadMd('w', undefined, { ...win, briefsDir: 'C:\\h\\w\\briefs', reportsDir: 'C:\\h\\w\\reports' }, 'win32'),
    ];
    for (const text of texts) {
      assert.ok(text.includes("& 'C:\\Users\\张三\\.agent-lens\\bin\\agent-lens.cmd' task report --id 'w::"), text);
      assert.ok(text.includes('```cmd\n"C:\\Users\\张三\\.agent-lens\\bin\\agent-lens.cmd" task report'), text);
      assert.doesNotMatch(text, /\bcurl\b|require\(|\$\(|\$\{|```sh/, 'no POSIX recipe on Windows');
      assert.ok(text.includes('named by the environment variable `AGENT_LENS_HUB`'));
    }
    assert.ok(texts[0].includes('- Your handoff folder: `C:\\Users\\张三\\proj\\.agent-lens\\handoff\\w`'), texts[0]);
    assert.ok(texts[1].includes("--status progress --summary 'understood: …'") && !texts[1].includes('--status done'));
  });

  it('on macOS and Linux: the sh lines and the curl recipe', () => {
    for (const platform of ['linux', 'darwin'] as const) {
      const text = contract(facts, platform);
      assert.ok(text.includes("'/home/u/.agent-lens/bin/agent-lens' task report --id 'w::0102-01' --status progress"), platform);
      assert.match(text, /\| curl -sS/);
      assert.doesNotMatch(text, /```powershell|agent-lens\.cmd/);
    }
  });

  it('the curl example, run as written, rings the doorbell', async function () {
    if (spawnSync('curl', ['--version']).status !== 0) this.skip();
    fs.writeFileSync(path.join(tmp, 'team.toml'), '[w]\nmode = "embedded"\n');
    const hub = new Hub({ bodyLimit: 64 * 1024 });
    const hubFile = path.join(tmp, 'hub.json');
    const service = new HandoffService({
      root: tmp,
      teamFile: path.join(tmp, 'team.toml'),
      hub,
      hubFile,
      hubEnv: 'AGENT_LENS_HUB',
      cli: '/bin/false',
      finder: { find: async () => typingTarget([]) },
      log: SILENT,
      sleep: async () => undefined,
    });
    service.start();
    try {
      const port = await hub.listen();
      writeDiscovery(hubFile, { v: 1, port, token: hub.token, pid: process.pid });
      const text = contract({ ...facts, port, hubFile, reportPath: path.join(tmp, 'w', 'reports', '0102-01-report.md') }, 'linux');
      const block = text.slice(text.indexOf('```sh', text.indexOf('or with curl')) + 6);
      const script = block.slice(0, block.indexOf('```'));
      const env = { PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}`, AGENT_LENS_HUB: hubFile };
      const out = await new Promise<string>((resolve, reject) => {
        const c = spawn('bash', ['-c', script], { env });
        let s = '';
        c.stdout.on('data', (d) => (s += d));
        c.stderr.on('data', (d) => (s += d));
        c.on('error', reject);
        c.on('close', () => resolve(s));
      });
      assert.match(out, /"ok":true/, out);
      assert.strictEqual(service.boards.get('w').last_event?.summary, '…');
    } finally {
      service.dispose();
      await hub.close();
    }
  });
});
