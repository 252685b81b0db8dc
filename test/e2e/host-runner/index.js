// Agent Lens E2E host runner: a test-only VS Code extension that runs a mocha
// suite inside the real extension host and writes the results as JSON.
// Started by scripts/e2e/run.mjs; does nothing unless it is configured.
//
// Configuration (first source that names a suite wins):
//   1. environment variables (code-server's extension host inherits the
//      environment code-server was started with):
//        AGENT_LENS_E2E_SUITE      absolute path: compiled mocha test file, or a
//                                  directory searched recursively for *.test.js
//                                  / *.test.cjs / *.test.mjs
//        AGENT_LENS_E2E_RESULTS    absolute path of the JSON results file
//        AGENT_LENS_E2E_MOCHA      absolute path of the mocha package directory
//        AGENT_LENS_E2E_ARTIFACTS  (optional) artifacts dir, for screenshot requests
//        AGENT_LENS_E2E_UI         (optional) mocha ui, default "bdd" ("tdd" works)
//        AGENT_LENS_E2E_TIMEOUT_MS (optional) per-test timeout, default 120000
//        AGENT_LENS_E2E_GREP       (optional) mocha grep
//   2. a JSON file named by AGENT_LENS_E2E_CONFIG, or
//   3. <user-data-dir>/agent-lens-e2e.json
//      with keys suite, results, mocha, artifacts, ui, timeoutMs, grep.
//
// Results file: {passed, failed, pending, tests: [{title, fullTitle, state,
// durationMs, error}], ...}; written atomically (temp file + rename).
// Progress lines are appended to <results minus .json>.log.
'use strict';

const fs = require('fs');
const path = require('path');

let api;

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function loadConfig(context) {
  const env = process.env;
  if (env.AGENT_LENS_E2E_SUITE) {
    return {
      source: 'env',
      suite: env.AGENT_LENS_E2E_SUITE,
      results: env.AGENT_LENS_E2E_RESULTS,
      mocha: env.AGENT_LENS_E2E_MOCHA,
      artifacts: env.AGENT_LENS_E2E_ARTIFACTS,
      ui: env.AGENT_LENS_E2E_UI,
      timeoutMs: env.AGENT_LENS_E2E_TIMEOUT_MS,
      grep: env.AGENT_LENS_E2E_GREP,
    };
  }
  const candidates = [];
  if (env.AGENT_LENS_E2E_CONFIG) candidates.push(env.AGENT_LENS_E2E_CONFIG);
  // globalStorageUri = <user-data-dir>/User/globalStorage/<publisher.name>
  if (context.globalStorageUri && context.globalStorageUri.scheme === 'file') {
    candidates.push(path.resolve(context.globalStorageUri.fsPath, '..', '..', '..', 'agent-lens-e2e.json'));
  }
  for (const file of candidates) {
    const cfg = readJson(file);
    if (cfg && cfg.suite) return { source: file, ...cfg };
  }
  return undefined;
}

function findTestFiles(suite) {
  const st = fs.statSync(suite);
  if (!st.isDirectory()) return [suite];
  const out = [];
  const walk = (dir) => {
    for (const ent of fs.readdirSync(dir, { withFileTypes: true })) {
      if (ent.name === 'node_modules' || ent.name.startsWith('.')) continue;
      const p = path.join(dir, ent.name);
      if (ent.isDirectory()) walk(p);
      else if (/\.test\.(c|m)?js$/.test(ent.name)) out.push(p);
    }
  };
  walk(suite);
  return out.sort();
}

function writeJsonAtomic(file, data) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, JSON.stringify(data, null, 2) + '\n');
  fs.renameSync(tmp, file);
}

function errorInfo(err) {
  if (!err) return null;
  const info = {
    message: String(err.message !== undefined ? err.message : err),
    stack: err.stack ? String(err.stack) : undefined,
  };
  if (err.showDiff !== false && ('actual' in Object(err) || 'expected' in Object(err))) {
    try {
      info.actual = JSON.parse(JSON.stringify(err.actual === undefined ? null : err.actual));
      info.expected = JSON.parse(JSON.stringify(err.expected === undefined ? null : err.expected));
    } catch {
      /* not serialisable */
    }
  }
  return info;
}

function makeApi(cfg, log) {
  const artifacts = cfg.artifacts || (cfg.results ? path.dirname(cfg.results) : undefined);
  return {
    artifactsDir: artifacts,
    log,
    /**
     * Ask scripts/e2e/run.mjs for a screenshot of the workbench, saved as
     * <artifacts>/<name>.png. Resolves with the PNG path once it exists.
     */
    async requestScreenshot(name, timeoutMs = 15000) {
      if (!artifacts) throw new Error('no artifacts dir configured');
      if (!/^[\w.-]+$/.test(name)) throw new Error(`bad screenshot name: ${name}`);
      const dir = path.join(artifacts, 'screenshot-requests');
      fs.mkdirSync(dir, { recursive: true });
      const req = path.join(dir, `${name}.req`);
      const png = path.join(artifacts, `${name}.png`);
      try {
        fs.unlinkSync(png);
      } catch {
        /* none yet */
      }
      fs.writeFileSync(req, new Date().toISOString() + '\n');
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (!fs.existsSync(req) && fs.existsSync(png)) return png;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`screenshot ${name} not taken within ${timeoutMs} ms`);
    },
  };
}

async function runSuite(cfg, vscode) {
  const startedAt = Date.now();
  const resultsPath = cfg.results;
  const logPath = resultsPath.replace(/\.json$/, '') + '.log';
  fs.mkdirSync(path.dirname(resultsPath), { recursive: true });
  const log = (line) => {
    try {
      fs.appendFileSync(logPath, `[${new Date().toISOString()}] ${line}\n`);
    } catch {
      /* best effort */
    }
  };
  api = makeApi(cfg, log);
  globalThis.agentLensE2E = api;
  log(`host-runner activated pid=${process.pid} ppid=${process.ppid} vscode=${vscode.version} config=${cfg.source}`);

  const tests = [];
  const summary = () => ({
    passed: tests.filter((t) => t.state === 'passed').length,
    failed: tests.filter((t) => t.state === 'failed').length,
    pending: tests.filter((t) => t.state === 'pending').length,
    tests,
    suite: cfg.suite,
    vscodeVersion: vscode.version,
    extensionHostPid: process.pid,
    configSource: cfg.source,
    startedAt: new Date(startedAt).toISOString(),
    durationMs: Date.now() - startedAt,
  });

  try {
    if (!cfg.mocha) throw new Error('AGENT_LENS_E2E_MOCHA (mocha package dir) is not set');
    const Mocha = require(cfg.mocha);
    const { constants } = Mocha.Runner;

    function Reporter(runner, options) {
      Mocha.reporters.Base.call(this, runner, options);
      const record = (test, state, err) => {
        const entry = {
          title: test.title,
          fullTitle: test.fullTitle(),
          state,
          durationMs: typeof test.duration === 'number' ? test.duration : 0,
          error: errorInfo(err),
        };
        if (test.type === 'hook') entry.hook = true;
        if (test.file) entry.file = test.file;
        tests.push(entry);
      };
      runner.on(constants.EVENT_SUITE_BEGIN, (s) => {
        if (!s.root) log(`SUITE ${s.fullTitle()}`);
      });
      runner.on(constants.EVENT_TEST_BEGIN, (t) => log(`START ${t.fullTitle()}`));
      runner.on(constants.EVENT_TEST_PASS, (t) => {
        record(t, 'passed');
        log(`PASS  ${t.fullTitle()} (${t.duration} ms)`);
      });
      runner.on(constants.EVENT_TEST_FAIL, (t, err) => {
        record(t, 'failed', err);
        log(`FAIL  ${t.fullTitle()}: ${err && err.message}`);
        if (err && err.stack)
          log(
            String(err.stack)
              .split('\n')
              .map((l) => '      ' + l)
              .join('\n'),
          );
      });
      runner.on(constants.EVENT_TEST_PENDING, (t) => {
        record(t, 'pending');
        log(`SKIP  ${t.fullTitle()}`);
      });
    }
    Mocha.utils.inherits(Reporter, Mocha.reporters.Base);

    const mocha = new Mocha({
      ui: cfg.ui || 'bdd',
      timeout: Number(cfg.timeoutMs) || 120000,
      color: false,
      reporter: Reporter,
    });
    if (cfg.grep) mocha.grep(cfg.grep);
    const files = findTestFiles(cfg.suite);
    if (files.length === 0) throw new Error(`no test files found in ${cfg.suite}`);
    log(`loading ${files.length} file(s): ${files.join(', ')}`);
    for (const f of files) mocha.addFile(f);
    if (files.some((f) => f.endsWith('.mjs'))) await mocha.loadFilesAsync();
    else mocha.loadFiles();
    mocha.lazyLoadFiles(true); // already loaded
    await new Promise((resolve) => mocha.run(() => resolve()));
  } catch (err) {
    // Suite failed to load (syntax error, missing module, bad config...).
    tests.push({
      title: 'load test suite',
      fullTitle: '[host-runner] load test suite',
      state: 'failed',
      durationMs: Date.now() - startedAt,
      error: errorInfo(err),
    });
    log(`ERROR loading/running suite: ${err && err.stack ? err.stack : err}`);
  }
  const result = summary();
  writeJsonAtomic(resultsPath, result);
  log(`DONE passed=${result.passed} failed=${result.failed} pending=${result.pending} in ${result.durationMs} ms`);
}

function activate(context) {
  const cfg = loadConfig(context);
  if (!cfg || !cfg.suite) return undefined; // not under test: do nothing
  const vscode = require('vscode');
  if (!cfg.results) cfg.results = path.join(path.dirname(cfg.suite), 'results.json');
  // Run after activation returns so the rest of the startup is not blocked.
  setTimeout(() => {
    runSuite(cfg, vscode).catch((err) => {
      try {
        writeJsonAtomic(cfg.results, {
          passed: 0,
          failed: 1,
          pending: 0,
          tests: [
            { title: 'host-runner', fullTitle: '[host-runner] internal error', state: 'failed', durationMs: 0, error: errorInfo(err) },
          ],
        });
      } catch {
        /* nothing left to do */
      }
    });
  }, 0);
  // Tests can reach the helper via globalThis.agentLensE2E or
  // vscode.extensions.getExtension("agent-lens-test.host-runner").exports.
  return {
    get artifactsDir() {
      return api && api.artifactsDir;
    },
    requestScreenshot: (...a) => api.requestScreenshot(...a),
  };
}

function deactivate() {}

module.exports = { activate, deactivate };
