import * as l10n from '@vscode/l10n';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { configDirOf } from '../../agents/registry';
import type { OpenCodeFamily } from '../../agents/opencode/family';
import { OUR_COMMAND_MARK } from '../commands';
import { InstallError, type InstallState } from './jsonHooks';
import { writeFileAtomic } from '../../common/fsutil';
import { readBytes } from './settingsFile';

/**
 * Where each agent reads the hooks or plugins Agent Lens installs. `env` and `home` are parameters so tests (and
 * agents started with their own config folder) can point elsewhere.
 */

export function claudeSettingsFile(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string {
  return path.join(configDirOf('claude-code', env, home), 'settings.json');
}

export function codexUserHooksFile(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string {
  return path.join(configDirOf('codex', env, home), 'hooks.json');
}

export const CODEX_SYSTEM_HOOKS_FILE = '/etc/codex/hooks.json';

/** Whether we may write `file`: its folder, or the folder's parent when the folder does not exist yet. */
export function systemWritable(file = CODEX_SYSTEM_HOOKS_FILE): boolean {
  const dir = path.dirname(file);
  try {
    fs.accessSync(fs.existsSync(dir) ? dir : path.dirname(dir), fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/*
 * What a user must know about an agent's hooks, shown in the install notice and the hook row's tooltip: functions, so
 * the text is looked up once the window's bundle is configured (a module constant would be read before).
 */

export const codexUserNote = (): string =>
  l10n.t(
    'Codex runs user-level hooks only after you approve them: at the next start it shows "Hooks need review"; choose "Trust all and continue". Codex asks again whenever a hook changes (after an update of these hooks, too). `codex exec` silently skips hooks that are not trusted yet.',
  );

export const codexSystemNote = (): string =>
  l10n.t(
    'System-level hooks (/etc/codex/hooks.json) are trusted by policy: Codex runs them without asking, in `codex exec` too. They report to Agent Lens when Codex runs in a VS Code terminal; anywhere else the reporter exits at once.',
  );

export const droidNote = (): string =>
  l10n.t(
    'droid reads an event\'s hooks from hooks.json instead of the "hooks" of settings.json when hooks.json has that event: hooks of yours for the same events in settings.json stop running until you move them into hooks.json (droid\'s /hooks saves them there).',
  );

export function geminiSettingsFile(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string {
  return path.join(configDirOf('gemini', env, home), 'settings.json');
}

/** Where the OpenCode plugin goes: OpenCode's plugin folder, or Kilo's (it loads the same file, and reports as Kilo). */
export function opencodePluginFile(env: NodeJS.ProcessEnv = process.env, home = os.homedir(), agent: OpenCodeFamily = 'opencode'): string {
  return path.join(configDirOf(agent, env, home), 'plugin', 'agent-lens.js');
}

/** The folder of Agent Lens's Hermes plugin: all of it is ours. */
export function hermesPluginTarget(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string {
  return path.join(configDirOf('hermes', env, home), 'plugins', 'agent-lens');
}

// ---- plugin files ---------------------------------------------------------------------------------------------

/** Every plugin file we write carries this in its first line (`// …` in JS, `# …` in Python and YAML). */
export const PLUGIN_MARK = `${OUR_COMMAND_MARK} plugin`;

/**
 * The first lines Agent Lens has written into plugin files, exactly (the OpenCode bundle's banner in
 * esbuild.mjs, the Hermes files in resources/hermes). A file is ours only when its first line is one of these,
 * not when it merely mentions PLUGIN_MARK. When a banner changes, add the new one and keep the old, so updates
 * and uninstall still know the files older versions left.
 */
export const PLUGIN_BANNERS: readonly string[] = [
  `// ${PLUGIN_MARK} for OpenCode: written by Agent Lens; remove it with "Agent Lens: Uninstall Agent Hooks".`,
  `# ${PLUGIN_MARK} for Hermes: written by Agent Lens; remove it with "Agent Lens: Uninstall Agent Hooks".`,
];

export interface PluginFile {
  source: string;
  target: string;
}

/**
 * A plugin: its files, and `dir` when the whole folder is ours (Hermes), so files of ours an older version left
 * there are removed and the folder goes when it empties. OpenCode's and Kilo's plugin folders are shared: no `dir`.
 */
export interface Plugin {
  files: PluginFile[];
  dir?: string;
}

export function opencodePlugin(
  source: string,
  env: NodeJS.ProcessEnv = process.env,
  home = os.homedir(),
  agent: OpenCodeFamily = 'opencode',
): Plugin {
  return { files: [{ source, target: opencodePluginFile(env, home, agent) }] };
}

export function hermesPlugin(sources: readonly string[], env: NodeJS.ProcessEnv = process.env, home = os.homedir()): Plugin {
  const dir = hermesPluginTarget(env, home);
  return { dir, files: sources.map((source) => ({ source, target: path.join(dir, path.basename(source)) })) };
}

function marked(bytes: Buffer): boolean {
  const nl = bytes.indexOf(0x0a);
  const first = bytes.subarray(0, nl < 0 ? bytes.length : nl).toString('utf8');
  return PLUGIN_BANNERS.includes(first.endsWith('\r') ? first.slice(0, -1) : first);
}

/** Files of ours in the plugin's own folder that it no longer ships. */
function leftovers(p: Plugin): string[] {
  if (!p.dir || !fs.existsSync(p.dir)) return [];
  const ours = new Set(p.files.map((f) => path.resolve(f.target)));
  return fs
    .readdirSync(p.dir, { withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(p.dir!, e.name))
    .filter((f) => !ours.has(path.resolve(f)) && marked(readBytes(f) ?? Buffer.alloc(0)));
}

/** A file of someone else's at one of our targets is never ours: 'absent' (installing refuses to overwrite it). */
export function pluginState(p: Plugin): InstallState {
  let same = 0;
  let stale = leftovers(p).length > 0;
  for (const f of p.files) {
    const have = readBytes(f.target);
    if (!have || !marked(have)) continue;
    if (have.equals(fs.readFileSync(f.source))) same++;
    else stale = true;
  }
  if (stale) return 'outdated';
  if (!same) return 'absent';
  return same < p.files.length ? 'partial' : 'installed';
}

function foreign(target: string, doing: string): InstallError {
  return new InstallError(
    l10n.t(
      '{0} exists and Agent Lens did not write it (its first line is not the banner Agent Lens writes), so it was left alone: {1}.',
      target,
      doing,
    ),
    target,
  );
}

/** Copies the plugin's files into place. Returns whether anything changed. */
export function installPlugin(p: Plugin): boolean {
  const sources = p.files.map((f) => ({ ...f, bytes: fs.readFileSync(f.source) }));
  // Checked first, so a refused install changes nothing; an unmarked source could never be uninstalled.
  for (const f of sources) {
    if (!marked(f.bytes))
      throw new Error(
        l10n.t('{0}: a plugin source must start with one of the banners in PLUGIN_BANNERS (src/integrations/install/agents.ts)', f.source),
      );
    const have = readBytes(f.target);
    if (have && !marked(have)) throw foreign(f.target, l10n.t('move or rename it, then install again'));
  }
  let changed = false;
  for (const f of sources) {
    if (readBytes(f.target)?.equals(f.bytes)) continue;
    fs.mkdirSync(path.dirname(f.target), { recursive: true });
    writeFileAtomic(f.target, f.bytes, 0o644);
    changed = true;
  }
  const old = leftovers(p);
  for (const f of old) fs.rmSync(f, { force: true });
  return changed || old.length > 0;
}

/** Python leaves compiled copies of our modules beside them: `__pycache__/<module>.<tag>.pyc`. */
function removeCompiled(dir: string, modules: readonly string[]): void {
  const cache = path.join(dir, '__pycache__');
  if (!fs.existsSync(cache)) return;
  for (const name of fs.readdirSync(cache)) {
    if (modules.some((m) => name.startsWith(`${m}.`) && name.endsWith('.pyc'))) fs.rmSync(path.join(cache, name), { force: true });
  }
  if (!fs.readdirSync(cache).length) fs.rmdirSync(cache);
}

/** Deletes the plugin's files (only those carrying our mark; anything else is an error). Returns whether it did. */
export function uninstallPlugin(p: Plugin): boolean {
  const targets = [...p.files.map((f) => f.target), ...leftovers(p)];
  const present = targets.filter((t) => readBytes(t) !== undefined);
  for (const t of present) if (!marked(readBytes(t)!)) throw foreign(t, l10n.t('remove it yourself if you want it gone'));
  for (const t of present) fs.rmSync(t, { force: true });
  if (p.dir && fs.existsSync(p.dir)) {
    const modules = targets.filter((t) => t.endsWith('.py')).map((t) => path.basename(t, '.py'));
    removeCompiled(p.dir, modules);
    if (!fs.readdirSync(p.dir).length) fs.rmdirSync(p.dir);
  }
  return present.length > 0;
}
