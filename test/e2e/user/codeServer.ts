/**
 * Starting and stopping the VS Code under test for workbench.ts: code-server 4.100.3 with the packaged .vsix
 * installed into a fresh extensions folder, and headless Chromium open on its workbench. Every VS Code setting
 * is the default (persistent terminal sessions on, workspace trust on) except telemetry and update checks, and
 * the terminal renderer (DOM, so the text of the terminal can be read back).
 */
import { type ChildProcess, execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Browser, Page } from 'playwright-core';
import { ROOT } from '../repoRoot';

const CS_ENTRY = path.join(ROOT, '.e2e', 'cs', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const CHROMIUM = process.env.AGENT_LENS_E2E_CHROMIUM || '/usr/bin/chromium';
export const ARTIFACTS = process.env.AGENT_LENS_E2E_ARTIFACTS ?? path.join(ROOT, 'artifacts', 'e2e-user');
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** What VS Code settings a user changed: nothing that alters behaviour. */
const USER_SETTINGS = {
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'update.showReleaseNotes': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'workbench.enableExperiments': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'npm.fetchOnlinePackageInfo': false,
  'json.schemaDownload.enable': false,
  'git.openRepositoryInParentFolders': 'never',
  // The DOM renderer, so the terminal's text is in the page (headless Chromium has no GPU anyway).
  'terminal.integrated.gpuAcceleration': 'off',
};

export interface WorkbenchOptions {
  /** Artifacts go to ARTIFACTS/<name>/. */
  name: string;
  /** HOME of code-server and so of every terminal and agent in it. */
  home: string;
  workspace: string;
  /** Added to code-server's environment (and so to every terminal's). */
  env?: Record<string, string>;
  settings?: Record<string, unknown>;
  /** Answer the workspace-trust question: trust (default), or stay in Restricted Mode. */
  trust?: boolean;
  /** VS Code's display language (`--locale`), with a language pack declaring it (test/e2e/user/displayLanguage). */
  locale?: 'zh-cn';
}

let installed: Promise<string> | undefined;

/** Installs the .vsix once per run into a fresh extensions folder, as a user would: `code-server --install-extension`. */
function installExtension(): Promise<string> {
  installed ??= (async () => {
    const vsix = process.env.AGENT_LENS_E2E_VSIX ?? path.join(ROOT, 'artifacts', 'agent-lens.vsix');
    if (!fs.existsSync(vsix)) throw new Error(`no .vsix at ${vsix}: run npm run test:e2e (it packages one)`);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'al-user-ext-'));
    const ud = path.join(dir, 'ud');
    execFileSync(
      process.execPath,
      [CS_ENTRY, '--install-extension', vsix, '--extensions-dir', path.join(dir, 'ext'), '--user-data-dir', ud],
      {
        env: { ...process.env, HOME: dir, XDG_CONFIG_HOME: path.join(dir, '.config'), XDG_DATA_HOME: path.join(dir, '.local/share') },
        stdio: 'ignore',
      },
    );
    return path.join(dir, 'ext');
  })();
  return installed;
}

const PACK_SOURCE = path.join(ROOT, 'test', 'e2e', 'user', 'displayLanguage');
const PACK_ID = 'agent-lens-test.display-language-zh-cn';

/**
 * Installs the zh-cn display-language fixture beside the .vsix, as a user installs a language pack, and writes the
 * language-pack index VS Code keeps in its user-data folder. VS Code writes that index when a pack is installed
 * from its UI; code-server's `--install-extension` does not, and without it `--locale zh-cn` falls back to English.
 */
async function displayLanguage(extensions: string, userData: string, locale: string): Promise<void> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'al-lang-'));
  try {
    const vsix = path.join(out, 'lang.vsix');
    execFileSync(
      process.execPath,
      [path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--out', vsix],
      {
        cwd: PACK_SOURCE,
        stdio: 'ignore',
      },
    );
    execFileSync(
      process.execPath,
      [CS_ENTRY, '--install-extension', vsix, '--force', '--extensions-dir', extensions, '--user-data-dir', out],
      {
        env: { ...process.env, HOME: out },
        stdio: 'ignore',
      },
    );
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
  const version = (JSON.parse(fs.readFileSync(path.join(PACK_SOURCE, 'package.json'), 'utf8')) as { version: string }).version;
  const main = path.join(extensions, `${PACK_ID}-${version}`, 'translations', 'main.i18n.json');
  if (!fs.existsSync(main)) throw new Error(`the display-language fixture did not install: no ${main}`);
  const index = {
    [locale]: {
      hash: `agentlens-${version}`,
      extensions: [{ extensionIdentifier: { id: PACK_ID }, version }],
      translations: { vscode: main },
      label: '中文(简体)',
    },
  };
  fs.writeFileSync(path.join(userData, 'languagepacks.json'), JSON.stringify(index));
}

async function freePort(): Promise<number> {
  const net = await import('net');
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** A running code-server and the Chromium page on its workbench. */
export interface CodeServer {
  page: Page;
  browser: Browser;
  server: ChildProcess;
  /** ARTIFACTS/<name>/. */
  artifacts: string;
  /** code-server's user-data folder, removed by shutdown. */
  tmp: string;
}

/** Starts code-server on a free port with a fresh user-data folder, and opens the workspace in Chromium. */
export async function launch(o: WorkbenchOptions): Promise<CodeServer> {
  if (!fs.existsSync(CS_ENTRY)) throw new Error('code-server is not installed: run scripts/e2e/setup-code-server.sh');
  const extensions = await installExtension();
  const artifacts = path.join(ARTIFACTS, o.name);
  fs.mkdirSync(artifacts, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'al-user-'));
  const userData = path.join(tmp, 'user-data');
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify({ ...USER_SETTINGS, ...o.settings }, null, 2));
  if (o.locale) await displayLanguage(extensions, userData, o.locale);
  const port = await freePort();
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    HOME: o.home,
    XDG_CONFIG_HOME: path.join(o.home, '.config'),
    XDG_DATA_HOME: path.join(o.home, '.local/share'),
    XDG_CACHE_HOME: path.join(o.home, '.cache'),
    ...o.env,
  };
  for (const k of Object.keys(env)) if (k.startsWith('VSCODE_') || k.startsWith('AGENT_LENS_HUB')) delete env[k];
  env.EXTENSIONS_GALLERY = JSON.stringify({ serviceUrl: 'http://127.0.0.1:9/gallery', itemUrl: 'http://127.0.0.1:9/item' });
  const log = fs.openSync(path.join(artifacts, 'code-server.log'), 'a');
  const args = [
    CS_ENTRY,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    '--user-data-dir',
    userData,
    '--extensions-dir',
    extensions,
    ...(o.locale ? ['--locale', o.locale] : []),
    o.workspace,
  ];
  const server = spawn(process.execPath, args, { env, cwd: o.workspace, detached: true, stdio: ['ignore', log, log] });
  const base = `http://127.0.0.1:${port}`;
  await waitUntil('code-server to answer', async () => (await fetch(`${base}/healthz`).catch(() => undefined))?.ok, 60_000);
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
      '--proxy-server=http://127.0.0.1:9',
      '--proxy-bypass-list=127.0.0.1;localhost',
    ],
  });
  const page = await (await browser.newContext({ viewport: { width: 1600, height: 1000 } })).newPage();
  const consoleLog = fs.createWriteStream(path.join(artifacts, 'browser-console.log'), { flags: 'a' });
  page.on('console', (m) => consoleLog.write(`${new Date().toISOString()} ${m.type()}: ${m.text()}\n`));
  await page.goto(`${base}/?folder=${encodeURIComponent(o.workspace)}`, { waitUntil: 'domcontentloaded', timeout: 60_000 });
  return { page, browser, server, artifacts, tmp };
}

/** Keeps VS Code's logs for a failure's reader, then closes the browser and code-server with everything it started. */
export async function shutdown(cs: CodeServer): Promise<void> {
  // VS Code's logs, Agent Lens's output channel among them (logs/*/exthost*/output_logging_*/), for a failure's reader.
  try {
    fs.cpSync(path.join(cs.tmp, 'user-data', 'logs'), path.join(cs.artifacts, 'logs'), { recursive: true, force: true });
  } catch {
    /* no logs written yet */
  }
  await Promise.race([cs.browser.close().catch(() => undefined), sleep(5000)]);
  killGroup(cs.server.pid, 'SIGTERM');
  const end = Date.now() + 5000;
  while (groupAlive(cs.server.pid) && Date.now() < end) await sleep(100);
  killGroup(cs.server.pid, 'SIGKILL');
  fs.rmSync(cs.tmp, { recursive: true, force: true });
}

function killGroup(pid: number | undefined, sig: NodeJS.Signals): void {
  try {
    if (pid) process.kill(-pid, sig);
  } catch {
    /* gone */
  }
}

function groupAlive(pid: number | undefined): boolean {
  try {
    if (pid) process.kill(-pid, 0);
    return !!pid;
  } catch {
    return false;
  }
}

/** Polls `probe` until it is true; the error says what was awaited and, when given, what was last seen. */
export async function waitUntil(
  what: string,
  probe: () => Promise<boolean | undefined> | boolean | undefined,
  timeoutMs: number,
  seen?: () => string,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${seen ? `; last seen: ${seen()}` : ''}`);
    await sleep(200);
  }
}
