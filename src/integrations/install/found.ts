/**
 * Which agents are on this machine, for the install picker's defaults: an agent counts as found when one of
 * its commands (from its signature, the one list of what names an agent) is an executable on PATH, or when
 * the folder its hook file lives in exists (the agent has run here and made its config folder).
 */
import * as l10n from '@vscode/l10n';
import { hostPlatform } from '../../common/platform';
import * as fs from 'fs';
import * as path from 'path';
import { SIGNATURES } from '../../detect/signatures';
import type { AgentKind } from '../../common/agents';

/** Folders below an agent's config folder that hold what we install (Copilot's `hooks/`), which the agent need not have made. */
const PLUGIN_FOLDERS = new Set(['plugin', 'plugins', 'agent-lens', 'hooks']);

export interface Found {
  found: boolean;
  /** What showed it, for the picker's description (so in the window's language): `claude on PATH`, `~/.claude exists`. */
  why?: string;
}

function executableOnPath(cmd: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string | undefined {
  const exts = platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';').map((e) => e.toLowerCase()) : [''];
  for (const dir of (env.PATH ?? env.Path ?? '').split(path.delimiter).filter(Boolean)) {
    for (const ext of exts) {
      const file = path.join(dir, cmd + ext);
      try {
        if (!fs.statSync(file).isFile()) continue;
        if (platform !== 'win32') fs.accessSync(file, fs.constants.X_OK);
        return file;
      } catch {
        /* not here */
      }
    }
  }
  return undefined;
}

export function agentFound(
  agent: AgentKind,
  hookFile: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = hostPlatform(),
): Found {
  const sig = SIGNATURES.find((s) => s.agent === agent);
  for (const cmd of sig?.commands ?? []) if (executableOnPath(cmd, env, platform)) return { found: true, why: l10n.t('{0} on PATH', cmd) };
  // A plugin lands in <config>/plugin(s)/…, Copilot's hooks file in <config>/hooks/: its config folder is what counts.
  let dir = path.dirname(hookFile);
  while (PLUGIN_FOLDERS.has(path.basename(dir))) dir = path.dirname(dir);
  try {
    if (fs.statSync(dir).isDirectory()) return { found: true, why: l10n.t('{0} exists', dir) };
  } catch {
    /* never ran here */
  }
  return { found: false };
}
