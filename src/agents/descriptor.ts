import type { AgentKind } from '../common/agents';
import type { AgentSignature } from './screenRules';
import type { HookTable } from './hookRow';

/**
 * Everything Agent Lens knows about one agent, kept in the agent's own folder (src/agents/<id>/). The registry
 * (./registry.ts) lists them; every other list of agents — signatures, hooks, session logs, settings, the
 * README's table — is derived from it or checked against it (test/unit/agents/registry.test.ts).
 */
export interface AgentDescriptor {
  id: AgentKind;
  /** Its commands, npm packages, process names, headless flags and screen rules, as the detector reads them. */
  screen: AgentSignature;
  /** The folder it keeps its configuration in, as the environment it was started with says (hooks, logs). */
  configDir?: (env: NodeJS.ProcessEnv, home: string) => string;
  /** How it tells Agent Lens what it does by itself: hooks in its settings file, or a plugin it loads. */
  hooks?: 'settings' | 'plugin';
  /** The hooks Agent Lens writes into its settings file (`hooks: 'settings'`). */
  hookRows?: HookTable;
  /** Its session logs, read for completed / failed: JSON lines per session, or OpenCode's SQLite database. */
  logs?: 'jsonl' | 'sqlite';
  /** What a user reads in the README's table of agents. */
  doc: {
    identifiedBy: string;
    /** The states and cases checked against the real program here, or why none were. */
    verified: string;
  };
}

export const UNVERIFIED = 'unverified';
