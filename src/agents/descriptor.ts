import type { AgentKind } from '../common/agents';
import type { SettingKey } from '../common/trustedSettings';
import type { AgentSignature } from './screenRules';
import type { HookTable } from './hookRow';

/**
 * Everything Agent Lens knows about one agent, kept in the agent's own folder (src/agents/<id>/). The registry
 * (./registry.ts) lists them; every other list of agents — signatures, hooks, session logs, settings, the
 * README's table — is derived from it or checked against it (test/unit/agents/registry.test.ts).
 */
export interface AgentDescriptor {
  id: AgentKind;
  /**
   * Its place in the detector's order: agents with the strongest screen evidence first (1, 2, …). The lists
   * generated from the folders (src/common/agentIds.ts, ./folders.ts) follow it.
   */
  rank: number;
  /** Its commands, npm packages, process names, headless flags and screen rules, as the detector reads them. */
  screen: AgentSignature;
  /** The folder it keeps its configuration in, as the environment it was started with says (hooks, logs). */
  configDir?: (env: NodeJS.ProcessEnv, home: string) => string;
  /** How it tells Agent Lens what it does by itself: hooks in its settings file, or a plugin it loads. */
  hooks?: 'settings' | 'plugin';
  /** The hooks Agent Lens writes into its settings file (`hooks: 'settings'`). */
  hookRows?: HookTable;
  /** Its session logs, read for completed / failed: where they are and in which format. */
  logs?: AgentLogs;
  /**
   * Its permission dialog answered from VS Code with one key, read off the screen (the agent's own hook cannot
   * hold the dialog without hiding it): which numbered option allows once and which denies, by its label.
   */
  dialogKeys?: DialogKeys;
  /**
   * Its selector dialogs (a list with a cursor mark, no numbers) answered from VS Code with the arrow keys and
   * Enter, read off the screen (src/answer/cursorMenu.ts).
   */
  menu?: MenuShape;
  /** Its plugin holds a permission or question dialog open until VS Code answers (OpenCode's, src/integrations/plugins). */
  pluginAnswers?: true;
  /** What a user reads in the README's table of agents. */
  doc: {
    identifiedBy: string;
    /** The states and cases checked against the real program here, or why none were. */
    verified: string;
    /** Why its dialogs are not answered from VS Code, for a verified agent that has no way listed above. */
    notAnswered?: string;
  };
}

/** A permission dialog's options by their labels (`1. Yes, proceed (y)`): the digit of the matching one answers. */
export interface DialogKeys {
  allowOnce: RegExp;
  deny: RegExp;
}

/** A selector dialog as drawn: a border, its title, one row per option (the cursor's marked), a key-hint row. */
export interface MenuShape {
  /** The row above the title. */
  border: RegExp;
  /** The row under the options that names the keys. */
  hint: RegExp;
  /** The mark before the option the cursor is on, in the column before the label. */
  cursor: string;
  /** What the title may end with that changes while it waits (a countdown), left out when two reads compare. */
  ticker?: RegExp;
  /** The keys that move the cursor one row, and the one that picks. */
  keys: { up: string; down: string; pick: string };
}

/**
 * Where an agent keeps its session logs. JSON lines: one file per session in a folder of its configuration
 * folder (src/jsonl decodes them). SQLite: one database (src/sources/logs/opencodeDb.ts reads its pages).
 * `setting` names the user setting that adds more locations to the default one.
 */
export type AgentLogs =
  | {
      format: 'jsonl';
      setting: SettingKey;
      /** The folder below the configuration folder that holds the session files. */
      under: string;
      /** How deep below `under` the session files are. */
      depth: number;
      /** Whether a file found below `dir` (the `under` folder) is a session's own log. */
      isSession(file: string, dir: string): boolean;
      /** The agent rewrites a log's first line in place, so later lines move (droid's title: src/sources/logs/fileReads.ts). */
      rewritesHead?: true;
    }
  | { format: 'sqlite'; setting: SettingKey; defaultPath(env: NodeJS.ProcessEnv, home: string): string }
  | {
      /** One JSON object per session, rewritten whole on every change (Continue's): read whole when it changes. */
      format: 'json-snapshot';
      setting: SettingKey;
      /** The folder below the configuration folder that holds the session files, directly. */
      under: string;
      /** Whether a file in `dir` (the `under` folder) is a session's own file. */
      isSession(file: string, dir: string): boolean;
    };

export const UNVERIFIED = 'unverified';
