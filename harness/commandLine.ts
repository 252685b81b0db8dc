import * as fs from 'node:fs';
import * as path from 'node:path';
import { shellWord } from '../src/common/shellQuote';

/** The command a user types to start each CLI. */
export const AGENT_COMMAND: Record<string, string> = {
  'claude-code': 'claude',
  codex: 'codex',
  opencode: 'opencode',
  gemini: 'gemini',
  pi: 'pi',
  qwen: 'qwen',
  'continue-cli': 'cn',
  copilot: 'copilot',
  kilocode: 'kilo',
  droid: 'droid',
};

/** The command line of a recording as shell integration would report it: the CLI and the scenario's arguments (`codex exec …` is headless). */
export function recordedCommandLine(dir: string, agent: string): string {
  let args: string[] = [];
  try {
    const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as { args?: unknown };
    if (Array.isArray(meta.args)) args = meta.args.filter((a): a is string => typeof a === 'string');
  } catch {
    /* no meta.json (hand-labelled recordings): the bare command */
  }
  return [AGENT_COMMAND[agent], ...args.map(shellWord)].join(' ');
}
