import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { agentLensHome, reporterCommandPath } from '../integrations/commands';
import { nodeForHooks } from './hub';
import { defaultInstallContext, type HookTarget, hookTargets, InstallError } from '../integrations/install/targets';
import { hookTargetName } from '../views/hookRows';
import type { HookStatus } from '../integrations/install/status';
import { hookNotice } from '../views/messages';
import type { TreeRow } from '../views/treeRow';
import { hookPicks } from '../views/picks';
import { agentFound } from '../integrations/install/found';
import { printable } from '../common/printable';
import * as ui from './ui';
import type { AgentKind } from '../common/agents';
import type { Handlers } from './commandTable';

/** A command's argument: a tree row's hook, or `{agent, scope?, dir?}` from scripts and tests. */
type Target = Pick<TreeRow, 'hook'> | { agent: AgentKind; scope?: 'user' | 'system'; dir?: string };

/**
 * Install / Uninstall Agent Hooks, and each agent's install state for the tree. Every change is reversible:
 * uninstall removes only our entries and restores the file byte for byte when nothing else changed.
 */
export class HookCommands {
  private cached: HookStatus[] = [];

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly changed: () => void,
  ) {
    this.refresh();
  }

  handlers(): Handlers {
    return { installHooks: (t?: Target) => this.run('install', t), uninstallHooks: (t?: Target) => this.run('uninstall', t) };
  }

  statuses(): HookStatus[] {
    return this.cached;
  }

  refresh(): void {
    this.cached = this.targets().map((t) => t.status());
  }

  private targets(dirs: Partial<Record<AgentKind, string>> = {}): HookTarget[] {
    const hermesDir = this.context.asAbsolutePath(path.join('resources', 'hermes', 'agent-lens'));
    const hermes = fs.existsSync(hermesDir)
      ? fs
          .readdirSync(hermesDir)
          .filter((f) => /\.(py|yaml)$/.test(f))
          .map((f) => path.join(hermesDir, f))
      : [];
    const ctx = defaultInstallContext(
      reporterCommandPath(agentLensHome()),
      this.context.asAbsolutePath(path.join('dist', 'opencode-plugin.js')),
      hermes,
      // Windows hook lines start Node themselves: the one the reporter would run with.
      nodeForHooks(),
    );
    return hookTargets(ctx, dirs);
  }

  private async run(action: 'install' | 'uninstall', arg?: Target): Promise<HookStatus[]> {
    const chosen = arg ? this.fromArg(arg) : await this.pick(action);
    const out: HookStatus[] = [];
    for (const t of chosen) {
      const who = hookTargetName(t.agent, t.scope);
      try {
        const wrote = action === 'install' ? t.install() : t.uninstall();
        this.log.info(`${action} hooks for ${who} in ${printable(t.path)}: ${wrote ? 'written' : 'nothing to change'}`);
        void ui.show(hookNotice(action, who, t.path, { note: t.note }));
      } catch (e) {
        const msg = e instanceof InstallError ? e.message : `${t.path}: ${(e as Error).message}`;
        this.log.error(`${action} hooks for ${who}: ${printable(msg)}`);
        void ui.show(hookNotice(action, who, t.path, { error: msg }));
      }
      out.push(t.status());
    }
    this.refresh();
    this.changed();
    return out;
  }

  private fromArg(arg: Target): HookTarget[] {
    const h = 'hook' in arg && arg.hook ? arg.hook : (arg as { agent: AgentKind; scope?: 'user' | 'system'; dir?: string });
    const dir = 'dir' in h ? h.dir : undefined;
    return this.targets(dir ? { [h.agent]: dir } : {}).filter((t) => t.agent === h.agent && t.scope === (h.scope ?? 'user'));
  }

  private async pick(action: 'install' | 'uninstall'): Promise<HookTarget[]> {
    const targets = this.targets();
    const found = new Map(targets.map((t) => [t, agentFound(t.agent, t.path)]));
    // Install ticks the agents found on this machine; when none is found (a fresh machine), every user-level one.
    const anyFound = [...found.values()].some((f) => f.found);
    const items = hookPicks(
      targets.map((t) => {
        const s = t.status();
        const f = found.get(t)!;
        const picked =
          action === 'install' ? s.state !== 'installed' && t.scope === 'user' && (f.found || !anyFound) : s.state !== 'absent';
        return { agent: t.agent, scope: t.scope, state: s.state, found: f, path: t.path, note: t.note, picked };
      }),
    );
    const picked = await ui.pickMany(items, {
      title:
        action === 'install'
          ? vscode.l10n.t('Install Agent Lens hooks: agents then report when they wait')
          : vscode.l10n.t('Remove Agent Lens hooks'),
      placeHolder: vscode.l10n.t('Choose agents'),
    });
    return picked?.map((p) => targets[p.index]) ?? [];
  }
}
