#!/usr/bin/env node
// Runs a mocha suite inside a real VS Code extension host (code-server 4.100.3
// = VS Code 1.100.3), driven by headless Debian chromium via playwright-core.
//
//   node scripts/e2e/run.mjs --extension <dir> --suite <file-or-dir> --artifacts <dir>
//        [--workspace <dir>] [--timeout 600] [--env KEY=VALUE]... [--grep <re>]
//        [--ui bdd|tdd] [--settings <file.json>] [--keep-temp] [--real-home]
//
// Prerequisite: scripts/e2e/setup-code-server.sh (installs into .e2e/cs).
// Exit code: 0 all tests passed; 1 test failures (or no tests ran);
// 2 no results (timeout, crash, bad arguments); 130/143 interrupted.
import { spawn } from 'node:child_process';
import {
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { cpuTimeMs, findExtensionHostPid, listDescendants, readCmdline } from './proc.mjs';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CS_PKG = join(REPO_ROOT, '.e2e', 'cs', 'node_modules', 'code-server');
const CS_STAMP = join(REPO_ROOT, '.e2e', 'cs', '.install-complete');
const HOST_RUNNER_DIR = join(REPO_ROOT, 'test', 'e2e', 'host-runner');
const HOST_RUNNER_ID = 'agent-lens-test.host-runner-0.0.1';
const CHROMIUM = process.env.AGENT_LENS_E2E_CHROMIUM || '/usr/bin/chromium';

const T0 = Date.now();
const since = () => `${((Date.now() - T0) / 1000).toFixed(1)}s`;
const say = (msg) => process.stderr.write(`[e2e ${since()}] ${msg}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ------------------------------------------------------------------ args --
function usage(msg) {
  if (msg) process.stderr.write(`run.mjs: ${msg}\n`);
  process.stderr.write(
    'usage: node scripts/e2e/run.mjs --extension <dir> --suite <file-or-dir> --artifacts <dir>\n' +
      '         [--workspace <dir>] [--timeout <seconds, default 600>] [--env KEY=VALUE]...\n' +
      '         [--grep <regexp>] [--ui bdd|tdd] [--settings <extra-settings.json>]\n' +
      '         [--keep-temp] [--real-home]\n',
  );
  process.exit(msg ? 2 : 0);
}

let args;
try {
  args = parseArgs({
    options: {
      extension: { type: 'string' },
      suite: { type: 'string' },
      artifacts: { type: 'string' },
      workspace: { type: 'string' },
      timeout: { type: 'string', default: '600' },
      env: { type: 'string', multiple: true, default: [] },
      grep: { type: 'string' },
      ui: { type: 'string', default: 'bdd' },
      settings: { type: 'string' },
      'keep-temp': { type: 'boolean', default: false },
      'real-home': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  }).values;
} catch (err) {
  usage(err.message);
}
if (args.help) usage();
if (!args.extension || !args.suite || !args.artifacts) usage('--extension, --suite and --artifacts are required');

const extensionDir = resolve(args.extension);
const suitePath = resolve(args.suite);
const artifacts = resolve(args.artifacts);
const timeoutMs = Number(args.timeout) * 1000;
if (!(timeoutMs > 0)) usage(`bad --timeout ${args.timeout}`);
const extraEnv = {};
for (const kv of args.env) {
  const i = kv.indexOf('=');
  if (i <= 0) usage(`bad --env ${kv} (want KEY=VALUE)`);
  extraEnv[kv.slice(0, i)] = kv.slice(i + 1);
}
if (!existsSync(join(extensionDir, 'package.json'))) usage(`no package.json in ${extensionDir}`);
if (!existsSync(suitePath)) usage(`suite not found: ${suitePath}`);
if (!existsSync(CS_STAMP)) usage('code-server is not installed: run scripts/e2e/setup-code-server.sh first');
if (!existsSync(CHROMIUM)) usage(`chromium not found at ${CHROMIUM} (setup-code-server.sh installs it)`);

// mocha and playwright-core come from the repository's node_modules.
function repoModule(spec) {
  const p = join(REPO_ROOT, 'node_modules', spec);
  if (!existsSync(p)) usage(`cannot find ${p} (run npm ci)`);
  return p;
}
const mochaDir = repoModule('mocha');
const { chromium } = await import(pathToFileURL(join(repoModule('playwright-core'), 'index.js')).href).then((m) => m.default ?? m);

// ----------------------------------------------------------------- state --
const state = {
  tmp: undefined,
  cs: undefined, // code-server ChildProcess (own process group)
  browser: undefined,
  browserPgids: new Set(),
  watchdog: undefined,
  cleaning: undefined,
};

function killGroup(pgid, sig) {
  try {
    process.kill(-pgid, sig);
    return true;
  } catch {
    return false;
  }
}
function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

async function cleanup() {
  if (state.cleaning) return state.cleaning;
  state.cleaning = (async () => {
    if (state.browser) {
      await Promise.race([state.browser.close().catch(() => {}), sleep(5000)]);
    }
    const groups = [...state.browserPgids];
    if (state.cs?.pid) groups.push(state.cs.pid);
    for (const g of groups) killGroup(g, 'SIGTERM');
    const deadline = Date.now() + 5000;
    while (groups.some(groupAlive) && Date.now() < deadline) await sleep(100);
    for (const g of groups) if (groupAlive(g)) killGroup(g, 'SIGKILL');
    if (state.watchdog?.pid) killGroup(state.watchdog.pid, 'SIGKILL');
    if (state.tmp && !args['keep-temp']) rmSync(state.tmp, { recursive: true, force: true });
    else if (state.tmp) say(`kept temp dir ${state.tmp}`);
  })();
  return state.cleaning;
}

// First signal: stop waiting, collect artifacts, clean up, exit 128+n.
// Second signal (or main stuck for 15 s): clean up and exit at once.
let interrupted;
for (const [sig, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
]) {
  process.on(sig, () => {
    const force = () => cleanup().finally(() => process.exit(code));
    if (interrupted) return void force();
    interrupted = { sig, code };
    say(`${sig}: stopping (send again to force)`);
    setTimeout(force, 15000).unref();
  });
}

// Kills code-server and chromium if this process dies without cleaning up
// (e.g. SIGKILL). Reads the process groups to kill from a file.
function startWatchdog(pgidFile, tmp) {
  const script = `
    while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done
    for sig in TERM KILL; do
      for g in $(cat "$1" 2>/dev/null); do kill -$sig -- -$g 2>/dev/null; done
      sleep 2
    done
    [ -n "$2" ] && rm -rf -- "$2"`;
  const wd = spawn('bash', ['-c', script, 'agent-lens-e2e-watchdog', pgidFile, tmp], { detached: true, stdio: 'ignore' });
  wd.unref();
  return wd;
}

function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
  });
}

function findFiles(dir, pred) {
  const out = [];
  try {
    for (const ent of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, ent.name);
      if (ent.isDirectory()) out.push(...findFiles(p, pred));
      else if (pred(ent.name)) out.push(p);
    }
  } catch {
    /* missing */
  }
  return out;
}

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

function copyIfExists(src, dst) {
  try {
    if (existsSync(src)) cpSync(src, dst, { recursive: true, dereference: false });
  } catch (err) {
    say(`could not copy ${src}: ${err.message}`);
  }
}

// ------------------------------------------------------------------ main --
async function main() {
  mkdirSync(artifacts, { recursive: true });
  const resultsPath = join(artifacts, 'results.json');
  const hostLogPath = join(artifacts, 'results.log');
  const reqDir = join(artifacts, 'screenshot-requests');
  for (const f of [resultsPath, hostLogPath]) rmSync(f, { force: true });
  rmSync(reqDir, { recursive: true, force: true });
  mkdirSync(reqDir, { recursive: true });

  const tmp = (state.tmp = mkdtempSync(join(tmpdir(), 'agent-lens-e2e-')));
  const userDataDir = join(tmp, 'user-data');
  const extensionsDir = join(tmp, 'extensions');
  const home = join(tmp, 'home');
  const workspace = args.workspace ? resolve(args.workspace) : join(tmp, 'workspace');
  for (const d of [
    join(userDataDir, 'User'),
    extensionsDir,
    home,
    join(home, '.config'),
    join(home, '.cache'),
    join(home, '.local', 'share'),
    workspace,
  ]) {
    mkdirSync(d, { recursive: true });
  }
  const pgidFile = join(tmp, 'pgids');
  writeFileSync(pgidFile, '');
  state.watchdog = startWatchdog(pgidFile, args['keep-temp'] ? '' : tmp);
  const addPgid = (g) => writeFileSync(pgidFile, `${readFileSync(pgidFile, 'utf8')}${g}\n`);

  // Extensions: symlinks named <publisher>.<name>-<version>.
  const pkg = readJson(join(extensionDir, 'package.json'));
  if (!pkg.publisher || !pkg.name || !pkg.version) throw new Error(`${extensionDir}/package.json lacks publisher/name/version`);
  const extId = `${pkg.publisher}.${pkg.name}`;
  symlinkSync(realpathSync(extensionDir), join(extensionsDir, `${extId}-${pkg.version}`));
  symlinkSync(realpathSync(HOST_RUNNER_DIR), join(extensionsDir, HOST_RUNNER_ID));
  if (pkg.main && !existsSync(resolve(extensionDir, pkg.main)) && !existsSync(resolve(extensionDir, `${pkg.main}.js`))) {
    say(`WARNING: ${extId} main ${pkg.main} does not exist (not built?)`);
  }

  // User settings.
  const settings = {
    'security.workspace.trust.enabled': false,
    'terminal.integrated.environmentChangesRelaunch': false,
    'terminal.integrated.shellIntegration.enabled': true,
    'terminal.integrated.defaultProfile.linux': 'bash',
    'terminal.integrated.showExitAlert': false,
    'telemetry.telemetryLevel': 'off',
    'workbench.startupEditor': 'none',
    'workbench.welcomePage.walkthroughs.openOnInstall': false,
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'workbench.settings.enableNaturalLanguageSearch': false,
    'update.mode': 'none',
    'update.showReleaseNotes': false,
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'extensions.ignoreRecommendations': true,
    'npm.fetchOnlinePackageInfo': false,
    'json.schemaDownload.enable': false,
    'typescript.surveys.enabled': false,
    'git.openRepositoryInParentFolders': 'never',
    'window.commandCenter': false,
    'terminal.integrated.gpuAcceleration': 'off',
    ...(args.settings ? readJson(resolve(args.settings)) : {}),
  };
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));

  // Test configuration: environment variables (inherited by the extension
  // host) and the same as a file in the user-data-dir (host-runner fallback).
  const e2eConfig = {
    suite: suitePath,
    results: resultsPath,
    mocha: mochaDir,
    artifacts,
    ui: args.ui,
    timeoutMs: 120000,
    ...(args.grep ? { grep: args.grep } : {}),
  };
  writeFileSync(join(userDataDir, 'agent-lens-e2e.json'), JSON.stringify(e2eConfig, null, 2));

  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('VSCODE_') || k === 'TERM_PROGRAM' || k === 'TERM_PROGRAM_VERSION') delete env[k];
  Object.assign(env, {
    AGENT_LENS_E2E_SUITE: e2eConfig.suite,
    AGENT_LENS_E2E_RESULTS: e2eConfig.results,
    AGENT_LENS_E2E_MOCHA: e2eConfig.mocha,
    AGENT_LENS_E2E_ARTIFACTS: artifacts,
    AGENT_LENS_E2E_UI: args.ui,
    ...(args.grep ? { AGENT_LENS_E2E_GREP: args.grep } : {}),
    // Keep code-server's config.yaml, coder-logs, deviceid cache (and the
    // terminal's ~/.bash_history) out of the real home directory.
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    ...(args['real-home'] ? {} : { HOME: home }),
    // No extension gallery traffic: point it at a closed local port.
    EXTENSIONS_GALLERY: JSON.stringify({
      serviceUrl: 'http://127.0.0.1:9/gallery',
      itemUrl: 'http://127.0.0.1:9/item',
      resourceUrlTemplate: 'http://127.0.0.1:9/resource/{publisher}/{name}/{version}/{path}',
    }),
    ...extraEnv,
  });

  // ------------------------------------------------------- code-server --
  const port = await freePort();
  const csArgs = [
    join(CS_PKG, 'out', 'node', 'entry.js'),
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--config',
    join(tmp, 'code-server-config.yaml'),
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
    workspace,
  ];
  writeFileSync(join(tmp, 'code-server-config.yaml'), '');
  const csLog = createWriteStream(join(artifacts, 'code-server.log'));
  const tCsStart = Date.now();
  say(`starting code-server on 127.0.0.1:${port} (temp ${tmp})`);
  const cs = (state.cs = spawn(process.execPath, csArgs, { env, cwd: workspace, detached: true, stdio: ['ignore', 'pipe', 'pipe'] }));
  addPgid(cs.pid);
  cs.stdout.pipe(csLog, { end: false });
  cs.stderr.pipe(csLog, { end: false });
  let csExit;
  cs.on('exit', (code, sig) => {
    csExit = { code, sig };
  });

  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (interrupted) throw new Error(`interrupted by ${interrupted.sig}`);
    if (csExit) throw new Error(`code-server exited early (${JSON.stringify(csExit)}); see ${artifacts}/code-server.log`);
    if (Date.now() - tCsStart > 60000) throw new Error('code-server did not answer /healthz within 60 s');
    try {
      const r = await fetch(`${base}/healthz`);
      if (r.ok) break;
    } catch {
      /* not yet */
    }
    await sleep(100);
  }
  const timings = { codeServerListeningMs: Date.now() - tCsStart };
  say(`code-server up after ${timings.codeServerListeningMs} ms`);

  // ----------------------------------------------------------- browser --
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

  // ------------------------------------------------------------- wait --
  // A screenshot of the page, or of the union of the boxes of the first selector in `clip` that matches a
  // visible element (plus `pad` pixels), e.g. the status bar items or a notification toast.
  const screenshot = async (name, clip, pad = 0) => {
    const file = join(artifacts, `${name}.png`);
    const view = page.viewportSize() ?? { width: 1600, height: 1000 };
    for (const sel of clip === undefined ? [] : Array.isArray(clip) ? clip : [clip]) {
      const boxes = [];
      for (const el of await page.locator(sel).all()) {
        const b = await el.boundingBox().catch(() => null);
        if (b && b.width > 0 && b.height > 0) boxes.push(b);
      }
      if (!boxes.length) continue;
      const x = Math.max(0, Math.floor(Math.min(...boxes.map((b) => b.x)) - pad));
      const y = Math.max(0, Math.floor(Math.min(...boxes.map((b) => b.y)) - pad));
      const right = Math.min(view.width, Math.ceil(Math.max(...boxes.map((b) => b.x + b.width)) + pad));
      const bottom = Math.min(view.height, Math.ceil(Math.max(...boxes.map((b) => b.y + b.height)) + pad));
      await page.screenshot({ path: file, clip: { x, y, width: right - x, height: bottom - y } });
      return file;
    }
    if (clip !== undefined) say(`screenshot ${name}: nothing visible matches ${JSON.stringify(clip)}; taking the whole page`);
    await page.screenshot({ path: file });
    return file;
  };
  // What the suite may ask for besides a picture (test/e2e/suite/util.ts ui()): wait for an element (with a
  // text), fill an input, press keys, type, click. Playwright drives the page as a user would.
  const uiAction = async (a) => {
    // `optional`: a step that may find nothing to do (expand a group that is open already).
    if (a.optional) return uiAction({ ...a, optional: false, timeout: a.timeout ?? 2000 }).catch(() => undefined);
    const timeout = a.timeout ?? 15000;
    const loc = (sel) => {
      const l = page.locator(sel);
      return (a.hasText !== undefined ? l.filter({ hasText: a.hasText }) : l).first();
    };
    if (a.waitFor) await loc(a.waitFor).waitFor({ state: a.state ?? 'visible', timeout });
    else if (a.fill) await loc(a.fill).fill(a.text ?? '', { timeout });
    else if (a.press) await (a.selector ? loc(a.selector).press(a.press, { timeout }) : page.keyboard.press(a.press));
    else if (a.type !== undefined) await page.keyboard.type(a.type, { delay: 15 });
    else if (a.click) await loc(a.click).click({ timeout });
    else if (a.hover) await loc(a.hover).hover({ timeout });
    else if (a.sleep) await sleep(a.sleep);
    else throw new Error(`unknown action ${JSON.stringify(a)}`);
  };
  // A request file holds a timestamp (a plain screenshot) or JSON {actions?, shot?, clip?, pad?, after?}:
  // the actions, then the screenshot NAME.png (unless shot is false), then the actions in `after`. A failure
  // is written to NAME.err before NAME.req is removed, so the suite can fail with the reason.
  const serveRequest = async (reqDir, f) => {
    const name = basename(f, '.req');
    const file = join(reqDir, f);
    try {
      if (!/^[\w.-]+$/.test(name)) throw new Error(`bad request name ${JSON.stringify(name)}`);
      const text = readFileSync(file, 'utf8').trim();
      const spec = text.startsWith('{') ? JSON.parse(text) : {};
      for (const a of spec.actions ?? []) await uiAction(a);
      if (spec.shot !== false) await screenshot(name, spec.clip, spec.pad);
      for (const a of spec.after ?? []) await uiAction(a);
      say(spec.shot !== false ? `screenshot ${name}.png (requested by suite)` : `ui request ${name} done`);
    } catch (err) {
      say(`request ${name} failed: ${err.message.split('\n')[0]}`);
      // What the page looked like when it failed, for the reader of the artifacts.
      await page.screenshot({ path: join(artifacts, `${name}-failed.png`) }).catch(() => undefined);
      try {
        writeFileSync(join(reqDir, `${name}.err`), `${err.message}\n`);
      } catch {
        /* the suite then only sees the request gone */
      }
    }
    rmSync(file, { force: true });
  };
  let extHostPid;
  let lastProgress = '';
  const deadline = T0 + timeoutMs;
  let results;
  while (Date.now() < deadline) {
    if (interrupted) {
      say(`interrupted by ${interrupted.sig}`);
      break;
    }
    if (csExit) {
      say(`code-server exited unexpectedly (${JSON.stringify(csExit)})`);
      break;
    }
    if (!extHostPid) {
      extHostPid = findExtensionHostPid(cs.pid);
      if (extHostPid) {
        timings.extensionHostSpawnedMs = Date.now() - tCsStart;
        say(`extension host pid ${extHostPid} (${timings.extensionHostSpawnedMs} ms after code-server start)`);
      }
    }
    if (timings.hostRunnerActivatedMs === undefined && existsSync(hostLogPath)) {
      const m = /^\[([^\]]+)\] host-runner activated/m.exec(readFileSync(hostLogPath, 'utf8'));
      if (m) {
        timings.hostRunnerActivatedMs = Date.parse(m[1]) - tCsStart;
        say(`host-runner activated ${timings.hostRunnerActivatedMs} ms after code-server start; running tests`);
      }
    }
    // Screenshot and UI requests from the suite, in name order.
    for (const f of readdirSync(reqDir)
      .filter((x) => x.endsWith('.req'))
      .sort())
      await serveRequest(reqDir, f);
    // Progress from the host-runner log.
    if (existsSync(hostLogPath)) {
      const lines = readFileSync(hostLogPath, 'utf8')
        .split('\n')
        .filter((l) => /\] (PASS|FAIL|SKIP) /.test(l));
      const last = lines.length ? `${lines.length} test(s) done, last: ${lines[lines.length - 1].replace(/^\[[^\]]+\] /, '')}` : '';
      if (last && last !== lastProgress) {
        say(last);
        lastProgress = last;
      }
    }
    if (existsSync(resultsPath)) {
      results = readJson(resultsPath);
      timings.resultsMs = Date.now() - tCsStart;
      break;
    }
    await sleep(250);
  }
  if (!results && !interrupted) say(csExit ? 'no results' : `TIMEOUT: no results after ${args.timeout} s`);

  // --------------------------------------------------------- artifacts --
  try {
    await screenshot('workbench');
  } catch (err) {
    say(`workbench screenshot failed: ${err.message}`);
  }
  const extHostCpuMs = extHostPid ? cpuTimeMs(extHostPid) : undefined;
  copyIfExists(join(userDataDir, 'logs'), join(artifacts, 'logs'));
  copyIfExists(join(home, '.local', 'share', 'code-server', 'coder-logs'), join(artifacts, 'logs', 'coder-logs'));
  copyIfExists(join(userDataDir, 'User', 'settings.json'), join(artifacts, 'settings.json'));
  // The extension host log, flattened for convenience.
  const extHostLogs = findFiles(join(userDataDir, 'logs'), (n) => n === 'remoteexthost.log').sort();
  if (extHostLogs.length) copyIfExists(extHostLogs[extHostLogs.length - 1], join(artifacts, 'exthost.log'));
  if (blocked.length) writeFileSync(join(artifacts, 'blocked-requests.log'), blocked.join('\n') + '\n');

  // ----------------------------------------------------------- summary --
  const summary = {
    ok: false,
    extension: extId,
    suite: suitePath,
    port,
    codeServerPid: cs.pid,
    extensionHostPid: extHostPid ?? results?.extensionHostPid,
    extensionHostCpuMs: extHostCpuMs,
    timings,
    passed: results?.passed,
    failed: results?.failed,
    pending: results?.pending,
    blockedRequests: blocked.length,
  };
  let exitCode;
  if (!results) exitCode = 2;
  else if (results.failed > 0) exitCode = 1;
  else if (results.passed + results.pending === 0) {
    say('no tests ran');
    exitCode = 1;
  } else exitCode = 0;
  summary.ok = exitCode === 0;
  summary.exitCode = exitCode;
  writeFileSync(join(artifacts, 'run-summary.json'), JSON.stringify(summary, null, 2) + '\n');

  const out = [];
  out.push('');
  out.push(`Agent Lens E2E: ${extId} in VS Code ${results?.vscodeVersion ?? '?'} (code-server)`);
  out.push(
    `  timings: code-server up ${timings.codeServerListeningMs} ms, ext host spawned ${timings.extensionHostSpawnedMs ?? '?'} ms, ` +
      `host-runner activated ${timings.hostRunnerActivatedMs ?? '?'} ms, results ${timings.resultsMs ?? '-'} ms (from code-server start)`,
  );
  out.push(
    `  extension host pid ${summary.extensionHostPid ?? '?'}, cpu ${extHostCpuMs !== undefined ? Math.round(extHostCpuMs) + ' ms' : '?'}`,
  );
  if (results) {
    for (const t of results.tests.filter((x) => x.state === 'failed')) {
      out.push(`  FAILED ${t.fullTitle}`);
      const msg = t.error?.stack || t.error?.message || '(no error)';
      out.push(
        ...String(msg)
          .split('\n')
          .slice(0, 15)
          .map((l) => `      ${l}`),
      );
    }
    out.push(`  ${results.passed} passed, ${results.failed} failed, ${results.pending} pending`);
  } else {
    out.push('  NO RESULTS (see code-server.log, exthost.log, results.log, browser-console.log, workbench.png)');
    if (existsSync(hostLogPath)) {
      const lines = readFileSync(hostLogPath, 'utf8').split('\n');
      const started = lines.filter((l) => /\] START /.test(l)).map((l) => l.replace(/^.*?\] START /, ''));
      const ended = new Set(
        lines
          .filter((l) => /\] (PASS|FAIL|SKIP) /.test(l))
          .map((l) => l.replace(/^.*?\] (PASS|FAIL|SKIP) {2}/, '').replace(/( \(\d+ ms\)|: .*)$/, '')),
      );
      const running = started.filter((t) => !ended.has(t));
      if (running.length) out.push(`  still running: ${running[running.length - 1]}`);
    }
  }
  if (blocked.length) out.push(`  ${blocked.length} non-local request(s) blocked (blocked-requests.log)`);
  out.push(`  artifacts: ${artifacts}`);
  process.stdout.write(out.join('\n') + '\n');
  return exitCode;
}

let code = 2;
try {
  code = await main();
} catch (err) {
  say(`ERROR: ${err.stack || err}`);
  code = 2;
}
await cleanup();
process.exit(interrupted ? interrupted.code : code);
