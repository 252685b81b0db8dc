import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { agentLensHome } from '../commands';
import { uninstallFrom } from './settingsFile';
import { hookTargets } from './targets';

/**
 * Removes every hook and plugin Agent Lens installed, for the `vscode:uninstall` script (src/cli/uninstall.ts):
 * once the extension is gone nothing would ever take them out, and agents would keep running hook commands.
 * Settings files come from two lists: the install records (`<home>/installs/*.json`, which also name files in
 * an agent's custom config folder) and the default place of every agent. Each removal is the same as
 * "Uninstall Agent Hooks" (the user's other settings stay; an untouched file gets its original bytes back).
 * Plugins installed into a custom folder are not recorded, so only their default places are cleaned.
 * Never throws: a file that cannot be changed is listed in `failed`.
 */

export interface UninstallReport {
  /** Files and folders something of ours was removed from. */
  removed: string[];
  failed: { path: string; error: string }[];
}

export function uninstallAll(
  env: NodeJS.ProcessEnv = process.env,
  home = os.homedir(),
  hermesSources: readonly string[] = [],
): UninstallReport {
  const report: UninstallReport = { removed: [], failed: [] };
  const seen = new Set<string>();
  const attempt = (where: string, run: () => boolean) => {
    const key = path.resolve(where);
    if (seen.has(key)) return;
    seen.add(key);
    try {
      if (run()) report.removed.push(where);
    } catch (e) {
      report.failed.push({ path: where, error: e instanceof Error ? e.message : String(e) });
    }
  };
  for (const file of recordedFiles(env)) attempt(file, () => uninstallFrom(file, { env }));
  let targets: ReturnType<typeof hookTargets> = [];
  try {
    // The reporter and plugin sources matter only to installing; uninstalling finds our entries by their mark.
    targets = hookTargets({ env, home, reporter: '', opencodePluginSource: '', hermesSources });
  } catch (e) {
    report.failed.push({ path: home, error: e instanceof Error ? e.message : String(e) });
  }
  for (const t of targets) attempt(t.path, () => t.uninstall());
  return report;
}

/** The settings files the install records name (absolute paths only: a record is ours, but still data read from disk). */
function recordedFiles(env: NodeJS.ProcessEnv): string[] {
  const dir = path.join(agentLensHome(env), 'installs');
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const n of names) {
    try {
      const file = (JSON.parse(fs.readFileSync(path.join(dir, n), 'utf8')) as { file?: unknown }).file;
      if (typeof file === 'string' && path.isAbsolute(file)) out.push(file);
    } catch {
      /* a garbled record: the default places below are still cleaned */
    }
  }
  return out;
}
