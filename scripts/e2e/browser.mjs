// Headless chromium for the E2E runner (playwright-core): launched with no way out but 127.0.0.1, its process
// groups recorded for cleanup, and the workbench page opened with its console logged.
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { say } from './log.mjs';
import { CHROMIUM } from './paths.mjs';
import { listDescendants, readCmdline } from './proc.mjs';
import { state } from './teardown.mjs';

/** Launches chromium (state.browser) and hands its process groups to addPgid. */
export async function launchBrowser(chromium, tmp, addPgid) {
  const browserHome = join(tmp, 'browser-home');
  mkdirSync(browserHome, { recursive: true });
  const before = new Set(listDescendants(process.pid));
  state.browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    env: { ...process.env, HOME: browserHome, XDG_CONFIG_HOME: join(browserHome, '.config'), XDG_CACHE_HOME: join(browserHome, '.cache') },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      // Never reach anything but 127.0.0.1: no DNS, and a dead proxy for
      // everything that is not loopback.
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
      '--proxy-server=http://127.0.0.1:9',
      '--proxy-bypass-list=127.0.0.1;localhost',
    ],
  });
  for (const pid of listDescendants(process.pid)) {
    if (before.has(pid)) continue;
    const cmd = readCmdline(pid)[0] || '';
    if (/chrom/i.test(cmd)) {
      try {
        const pgid = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[2]);
        if (pgid > 1 && pgid !== process.pid) state.browserPgids.add(pgid);
      } catch {
        /* gone */
      }
    }
  }
  for (const g of state.browserPgids) addPgid(g);
}

/** Opens the workspace in the workbench; returns the page and the list of blocked non-local requests. */
export async function openWorkbench({ base, workspace, artifacts, timings, tCsStart }) {
  const context = await state.browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const page = await context.newPage();
  const consoleLog = createWriteStream(join(artifacts, 'browser-console.log'));
  page.on('console', (m) => consoleLog.write(`[${new Date().toISOString()}] ${m.type()}: ${m.text()}\n`));
  page.on('pageerror', (e) => consoleLog.write(`[${new Date().toISOString()}] pageerror: ${e.stack || e}\n`));
  const blocked = [];
  context.on('requestfailed', (r) => {
    const u = r.url();
    if (!/^(https?|wss?):\/\/(127\.0\.0\.1|localhost)[:/]/.test(u) && !/^(data|blob|vscode-\w+):/.test(u)) blocked.push(u);
  });

  const url = `${base}/?folder=${encodeURIComponent(workspace)}`;
  say(`opening ${url}`);
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60000 });
  timings.pageLoadedMs = Date.now() - tCsStart;
  return { page, blocked };
}
