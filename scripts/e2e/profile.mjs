// The throwaway VS Code profile the E2E runner starts code-server with: the artifacts folder, the temp dirs,
// the linked extensions, the user settings, the test configuration and the extension host's environment.
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readJson } from './files.mjs';
import { say } from './log.mjs';
import { HOST_RUNNER_DIR, HOST_RUNNER_ID } from './paths.mjs';
import { state } from './teardown.mjs';

/** Empties the results of a previous run; returns where this run's results, host log and requests go. */
export function prepareArtifacts(artifacts) {
  mkdirSync(artifacts, { recursive: true });
  const resultsPath = join(artifacts, 'results.json');
  const hostLogPath = join(artifacts, 'results.log');
  const reqDir = join(artifacts, 'screenshot-requests');
  for (const f of [resultsPath, hostLogPath]) rmSync(f, { force: true });
  rmSync(reqDir, { recursive: true, force: true });
  mkdirSync(reqDir, { recursive: true });
  return { resultsPath, hostLogPath, reqDir };
}

/** The temp dir (state.tmp) with the user-data, extensions, home and (unless --workspace) workspace folders. */
export function makeTempDirs(workspaceArg) {
  const tmp = (state.tmp = mkdtempSync(join(tmpdir(), 'agent-lens-e2e-')));
  const userDataDir = join(tmp, 'user-data');
  const extensionsDir = join(tmp, 'extensions');
  const home = join(tmp, 'home');
  const workspace = workspaceArg ? resolve(workspaceArg) : join(tmp, 'workspace');
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
  return { tmp, userDataDir, extensionsDir, home, workspace };
}

// Extensions: symlinks named <publisher>.<name>-<version>.
export function linkExtensions(extensionDir, extensionsDir) {
  const pkg = readJson(join(extensionDir, 'package.json'));
  if (!pkg.publisher || !pkg.name || !pkg.version) throw new Error(`${extensionDir}/package.json lacks publisher/name/version`);
  const extId = `${pkg.publisher}.${pkg.name}`;
  symlinkSync(realpathSync(extensionDir), join(extensionsDir, `${extId}-${pkg.version}`));
  symlinkSync(realpathSync(HOST_RUNNER_DIR), join(extensionsDir, HOST_RUNNER_ID));
  if (pkg.main && !existsSync(resolve(extensionDir, pkg.main)) && !existsSync(resolve(extensionDir, `${pkg.main}.js`))) {
    say(`WARNING: ${extId} main ${pkg.main} does not exist (not built?)`);
  }
  return extId;
}

// User settings.
export function writeSettings(userDataDir, settingsFile) {
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
    ...(settingsFile ? readJson(resolve(settingsFile)) : {}),
  };
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
}

// Test configuration: environment variables (inherited by the extension
// host) and the same as a file in the user-data-dir (host-runner fallback).
export function writeE2eConfig({ userDataDir, suitePath, resultsPath, mochaDir, artifacts, args }) {
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
  return e2eConfig;
}

export function hostEnv({ e2eConfig, artifacts, args, home, extraEnv }) {
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
  return env;
}
