import type { OpenCodeFamily } from '../../agents/opencode/family';

/**
 * Which agent loaded the OpenCode plugin: OpenCode, or Kilo, which loads the same plugin file unchanged. Kilo sets
 * `KILO_PID` to its own pid in the process that runs its plugins (its TUI's worker and `kilo run` alike,
 * test/fixtures/live/kilocode/FACTS.md); an OpenCode started from a shell Kilo opened inherits a pid not its own.
 * Kept out of the plugin's entry file: every export of that file is called as a plugin.
 */
export function hostAgent(env: NodeJS.ProcessEnv, pid: number): OpenCodeFamily {
  return env.KILO_PID === String(pid) ? 'kilocode' : 'opencode';
}
