/**
 * A real VS Code (code-server 4.100.3) in headless Chromium, driven the way a user drives it: the command
 * palette, the keyboard in a terminal, clicks on the side bar and on notifications, Reload Window. What the
 * tests assert is read back from the page (tree rows, notifications, the status bar, the terminal's text),
 * never through the extension's API: a user has no terminal ids.
 *
 * The extension under test is the packaged .vsix, installed with `code-server --install-extension` into a
 * fresh extensions folder; every other setting is VS Code's default (persistent terminal sessions on,
 * workspace trust on) except telemetry and update checks, and the terminal renderer (DOM, so the text of
 * the terminal can be read back).
 */
import { type ChildProcess, execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Browser, Page } from 'playwright-core';
import { ROOT } from '../repoRoot';

export { ROOT };

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
}

export interface TreeRow {
  /** The row's accessible label: `<label>: <description>` for Agent Lens's rows. */
  aria: string;
  level: number;
  expanded?: boolean;
}

export interface Toast {
  text: string;
  severity: 'info' | 'warning' | 'error';
  /** Links VS Code rendered inside the message text (a link would run what it points at when clicked). */
  links: string[];
  buttons: string[];
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

export class Workbench {
  private constructor(
    readonly page: Page,
    private readonly browser: Browser,
    private readonly server: ChildProcess,
    readonly artifacts: string,
    private readonly tmp: string,
  ) {}

  static async start(o: WorkbenchOptions): Promise<Workbench> {
    if (!fs.existsSync(CS_ENTRY)) throw new Error('code-server is not installed: run scripts/e2e/setup-code-server.sh');
    const extensions = await installExtension();
    const artifacts = path.join(ARTIFACTS, o.name);
    fs.mkdirSync(artifacts, { recursive: true });
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'al-user-'));
    const userData = path.join(tmp, 'user-data');
    fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
    fs.writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify({ ...USER_SETTINGS, ...o.settings }, null, 2));
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
    const wb = new Workbench(page, browser, server, artifacts, tmp);
    await page.goto(`${base}/?folder=${encodeURIComponent(o.workspace)}`, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    await wb.ready(o.trust ?? true);
    return wb;
  }

  /** The workbench is up, the trust question answered, and Agent Lens's view open in the side bar. */
  private async ready(trust: boolean): Promise<void> {
    await this.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    const trustButton = this.page.locator('.monaco-dialog-box .monaco-button', {
      hasText: trust ? 'Yes, I trust the authors' : 'No, I don’t trust the authors',
    });
    await trustButton.click({ timeout: 8000 }).catch(() => undefined);
    await this.showAgentLens();
  }

  /** Clicks Agent Lens in the activity bar (once its view container is there) unless its view is open. */
  async showAgentLens(): Promise<void> {
    const item = this.page.locator('.activitybar .action-item a[aria-label^="Agent Lens"]').first();
    await item.waitFor({ timeout: 60_000 });
    const open = await this.page.locator('.part.sidebar .title-label h2', { hasText: /agent lens/i }).count();
    if (!open) await item.click();
    await this.page.locator('.part.sidebar .title-label h2', { hasText: /agent lens/i }).waitFor({ timeout: 15_000 });
  }

  /** Runs a command from the command palette, by its title as the palette lists it. */
  async palette(title: string): Promise<void> {
    await this.page.keyboard.press('F1');
    const input = this.page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ timeout: 10_000 });
    await input.fill(`>${title}`);
    // The row whose label is exactly the title (several commands can contain it, e.g. Rename… and Rename with arg).
    const exact = new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(,|$)`);
    const row = this.page
      .locator('.quick-input-widget .monaco-list-row')
      .filter({ has: this.page.locator('.label-name', { hasText: exact }) })
      .first();
    await row.waitFor({ timeout: 10_000 });
    await row.click();
  }

  /** A new terminal from the palette, as a user opens one; waits until its prompt is drawn. */
  async newTerminal(): Promise<void> {
    const before = await this.terminalTabs();
    await this.palette('Terminal: Create New Terminal');
    await waitUntil(
      'a new terminal tab',
      async () =>
        (await this.terminalTabs()).length > before.length ||
        (before.length === 0 && (await this.page.locator('.terminal-wrapper.active .xterm').count()) > 0),
      20_000,
    );
    await waitUntil('the shell prompt', async () => /[$#]\s*$/m.test(await this.terminalText()), 20_000);
  }

  /** The names on the terminal tabs (the tabs list is shown once there are two terminals or more). */
  async terminalTabs(): Promise<string[]> {
    const names = await this.page.locator('.terminal-tabs-entry .monaco-icon-label .label-name, a.single-terminal-tab').allInnerTexts();
    return names.map((n) => n.trim()).filter(Boolean);
  }

  /** The visible text of the active terminal (xterm's DOM renderer rows). */
  async terminalText(): Promise<string> {
    return (
      await this.page
        .locator('.terminal-wrapper.active .xterm-rows')
        .first()
        .innerText()
        .catch(() => '')
    ).replace(/\u00a0/g, ' ');
  }

  /** Clicks into the active terminal and types, as keys; `enter` presses Enter as a separate key after a pause. */
  async typeInTerminal(text: string, enter = true): Promise<void> {
    await this.page.locator('.terminal-wrapper.active .xterm-screen').first().click();
    await this.page.keyboard.type(text, { delay: 10 });
    if (enter) {
      await sleep(300);
      await this.page.keyboard.press('Enter');
    }
  }

  async waitTerminalText(re: RegExp, timeoutMs = 30_000): Promise<string> {
    let last = '';
    await waitUntil(
      `the terminal to show ${re}`,
      async () => re.test((last = await this.terminalText())),
      timeoutMs,
      () => last.slice(-600),
    );
    return last;
  }

  /** Agent Lens's tree as the side bar shows it. */
  async rows(): Promise<TreeRow[]> {
    return this.page.evaluate(() =>
      [...document.querySelectorAll('.part.sidebar .monaco-list-row')].map((r) => ({
        aria: r.getAttribute('aria-label') ?? '',
        level: Number(r.getAttribute('aria-level') ?? 1),
        expanded: r.hasAttribute('aria-expanded') ? r.getAttribute('aria-expanded') === 'true' : undefined,
      })),
    );
  }

  async waitRow(what: string, pred: (r: TreeRow) => boolean, timeoutMs = 30_000): Promise<TreeRow> {
    let found: TreeRow | undefined;
    let seen: TreeRow[] = [];
    await waitUntil(
      what,
      async () => (found = (seen = await this.rows()).find(pred)) !== undefined,
      timeoutMs,
      () => JSON.stringify(seen.map((r) => r.aria)),
    );
    return found!;
  }

  /** Notification toasts on screen, with the links VS Code rendered inside their messages. */
  async toasts(): Promise<Toast[]> {
    return this.page.evaluate(() =>
      [...document.querySelectorAll('.notifications-toasts .notification-toast')].map((t) => ({
        text: (t.querySelector('.notification-list-item-message') as HTMLElement | null)?.innerText ?? '',
        severity: ((icon: string) => (icon.includes('codicon-error') ? 'error' : icon.includes('codicon-warning') ? 'warning' : 'info'))(
          t.querySelector('.notification-list-item-icon')?.className ?? '',
        ) as Toast['severity'],
        links: [...t.querySelectorAll('.notification-list-item-message a')].map((a) => a.getAttribute('href') ?? a.textContent ?? ''),
        buttons: [...t.querySelectorAll('.notification-list-item-buttons-container .monaco-button')].map(
          (b) => (b as HTMLElement).innerText,
        ),
      })),
    );
  }

  async waitToast(what: string, pred: (t: Toast) => boolean, timeoutMs = 30_000): Promise<Toast> {
    let found: Toast | undefined;
    let seen: Toast[] = [];
    await waitUntil(
      what,
      async () => (found = (seen = await this.toasts()).find(pred)) !== undefined,
      timeoutMs,
      () => JSON.stringify(seen.map((t) => t.text)),
    );
    return found!;
  }

  /** Closes every notification toast (as the user does with their ×), so the next ones stand alone. */
  async clearToasts(): Promise<void> {
    await this.palette('Notifications: Clear All Notifications');
    await waitUntil('the toasts to go', async () => (await this.toasts()).length === 0, 5000);
  }

  /** Agent Lens's status bar items, by their accessible labels. */
  async statusItems(): Promise<string[]> {
    return this.page
      .locator('.statusbar-item[id^="agent-lens.agent-lens."] a')
      .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? (e as HTMLElement).innerText));
  }

  /** Hovers a tree row (its inline actions appear) and clicks the inline action with this label. */
  async clickRowAction(rowAria: RegExp, action: string): Promise<void> {
    for (const r of await this.page.locator('.part.sidebar .monaco-list-row').all()) {
      if (!rowAria.test((await r.getAttribute('aria-label')) ?? '')) continue;
      await r.hover();
      await r.locator(`.actions .action-label[aria-label="${action}"]`).click({ timeout: 5000 });
      return;
    }
    throw new Error(`no row matches ${rowAria}: ${JSON.stringify((await this.rows()).map((x) => x.aria))}`);
  }

  /** Clicks a tree row, as a user does to open what it points at. */
  async clickRow(rowAria: RegExp): Promise<void> {
    for (const r of await this.page.locator('.part.sidebar .monaco-list-row').all()) {
      if (rowAria.test((await r.getAttribute('aria-label')) ?? '')) return r.click();
    }
    throw new Error(`no row matches ${rowAria}: ${JSON.stringify((await this.rows()).map((x) => x.aria))}`);
  }

  /** The open quick input: its title, prompt message, and the labels of its items. */
  async quickInput(): Promise<{ visible: boolean; title: string; message: string; items: string[] }> {
    const w = this.page.locator('.quick-input-widget');
    const visible = await w.isVisible().catch(() => false);
    if (!visible) return { visible, title: '', message: '', items: [] };
    return {
      visible,
      title: await w
        .locator('.quick-input-title')
        .innerText()
        .catch(() => ''),
      message: await w
        .locator('.quick-input-message')
        .innerText()
        .catch(() => ''),
      items: await w
        .locator('.monaco-list-row')
        .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? (e as HTMLElement).innerText)),
    };
  }

  async waitQuickInput(
    what: string,
    pred: (q: Awaited<ReturnType<Workbench['quickInput']>>) => boolean,
    timeoutMs = 15_000,
  ): Promise<Awaited<ReturnType<Workbench['quickInput']>>> {
    let q = await this.quickInput();
    await waitUntil(
      what,
      async () => pred((q = await this.quickInput())),
      timeoutMs,
      () => JSON.stringify(q),
    );
    return q;
  }

  /** Types into the open quick input (an input box or a quick pick's filter) and presses Enter. */
  async answerQuickInput(text: string): Promise<void> {
    const input = this.page.locator('.quick-input-widget .quick-input-box input');
    await input.fill(text);
    await sleep(200);
    await this.page.keyboard.press('Enter');
  }

  /** Waits until a terminal has the keyboard (what a row's click opens takes a moment on a busy machine). */
  async waitTerminalFocus(timeoutMs = 15_000): Promise<void> {
    await waitUntil(
      'a terminal to have the keyboard focus',
      async () => this.page.evaluate(() => document.activeElement?.classList.contains('xterm-helper-textarea') ?? false),
      timeoutMs,
    );
  }

  async press(key: string): Promise<void> {
    await this.page.keyboard.press(key);
  }

  /** Clicks one of Agent Lens's status bar items (`summary`, `active`, `handoff`). */
  async clickStatusItem(item: 'summary' | 'active' | 'handoff'): Promise<void> {
    await this.page
      .locator(`[id="agent-lens.agent-lens.agentLens.${item}"] a, [id="agent-lens.agent-lens.agentLens.${item}"]`)
      .first()
      .click();
  }

  /** Terminal: Rename… from the palette, with the new name typed into its input box. */
  async renameTerminal(name: string): Promise<void> {
    await this.palette('Terminal: Rename...');
    await this.page.locator('.quick-input-widget .quick-input-box input').waitFor({ timeout: 10_000 });
    await this.answerQuickInput(name);
  }

  /** Agent Lens: Install Agent Hooks… from the palette; Enter accepts the agents it ticked (those found here). */
  async installHooks(): Promise<void> {
    await this.palette('Agent Lens: Install Agent Hooks…');
    await this.waitQuickInput('the hooks picker', (q) => q.visible && q.items.some((i) => /Claude Code/.test(i)));
    await this.press('Enter');
    await this.waitToast('the install notice', (t) => /Claude Code/.test(t.text), 20_000);
  }

  /** Developer: Reload Window, then waits for the workbench and Agent Lens's view again. */
  async reload(): Promise<void> {
    await this.palette('Developer: Reload Window');
    await this.page.waitForEvent('load', { timeout: 60_000 }).catch(() => undefined);
    await sleep(1000);
    await this.ready(true);
  }

  async screenshot(name: string): Promise<string> {
    const file = path.join(this.artifacts, `${name}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  /** Closes the browser and code-server with everything it started (terminals, their agents). */
  async close(): Promise<void> {
    await this.screenshot('last').catch(() => undefined);
    // VS Code's logs, Agent Lens's output channel among them (logs/*/exthost*/output_logging_*/), for a failure's reader.
    try {
      fs.cpSync(path.join(this.tmp, 'user-data', 'logs'), path.join(this.artifacts, 'logs'), { recursive: true, force: true });
    } catch {
      /* no logs written yet */
    }
    await Promise.race([this.browser.close().catch(() => undefined), sleep(5000)]);
    killGroup(this.server.pid, 'SIGTERM');
    const end = Date.now() + 5000;
    while (groupAlive(this.server.pid) && Date.now() < end) await sleep(100);
    killGroup(this.server.pid, 'SIGKILL');
    fs.rmSync(this.tmp, { recursive: true, force: true });
  }
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
