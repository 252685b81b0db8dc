import * as path from 'path';
import type { AgentHome } from '../homes';
import { hookTargets } from '../../src/integrations/install/targets';

/** Installs our hooks into a harness home with the same installers the extension's command uses. */
export type HookedAgent = 'claude-code' | 'codex' | 'opencode' | 'gemini' | 'qwen' | 'kilocode' | 'droid' | 'copilot';

export function installOurHooks(agent: HookedAgent, h: AgentHome, reporter: string, opencodePluginSource: string): void {
  const dirs = {
    'claude-code': h.env.CLAUDE_CONFIG_DIR ?? path.join(h.home, '.claude'),
    codex: h.env.CODEX_HOME ?? path.join(h.home, '.codex'),
    opencode: path.join(h.env.XDG_CONFIG_HOME ?? path.join(h.home, '.config'), 'opencode'),
    gemini: path.join(h.home, '.gemini'),
    qwen: h.env.QWEN_HOME ?? path.join(h.home, '.qwen'),
    kilocode: path.join(h.env.XDG_CONFIG_HOME ?? path.join(h.home, '.config'), 'kilo'),
    droid: path.join(h.env.FACTORY_HOME_OVERRIDE ?? h.home, '.factory'),
    copilot: h.env.COPILOT_HOME ?? path.join(h.home, '.copilot'),
  };
  const t = hookTargets({ env: h.env, home: h.home, reporter, opencodePluginSource, hermesSources: [] }, dirs).find(
    (x) => x.agent === agent && x.scope === 'user',
  )!;
  t.install();
  if (t.status().state !== 'installed') throw new Error(`${agent} hooks not installed in ${t.path}: ${JSON.stringify(t.status())}`);
}
