/** Per-agent controls of a scenario run: the mock each CLI talks to, how it quits, and the bytes of named keys. */
import { createAnthropicMock } from './mock/anthropic';
import type { MockServer } from './mock/common';
import { createResponsesMock } from './mock/openai-responses';
import { createChatMock } from './mock/openai-chat';
import { createGeminiMock } from './mock/gemini';
import type { AgentName } from './homeBase';
import type { KeyName, Scenario, Step } from './scenario';

/** A slash command typed, a beat for the completion menu, then Enter. */
const slashQuit = (command: string): Step[] => [{ do: 'type', text: command }, { do: 'wait', ms: 500 }, { do: 'enter' }];

/** How each CLI is asked to quit at the end of a scenario. pi quits on Ctrl+D in an empty editor. */
export const QUIT: Record<AgentName, Step[]> = {
  'claude-code': slashQuit('/exit'),
  codex: slashQuit('/quit'),
  opencode: [{ do: 'key', key: 'ctrl-c' }],
  gemini: slashQuit('/quit'),
  pi: [{ do: 'key', key: 'ctrl-d' }],
  qwen: slashQuit('/quit'),
  'continue-cli': slashQuit('/exit'),
  copilot: slashQuit('/exit'),
  kilocode: slashQuit('/exit'),
  droid: slashQuit('/exit'),
};

/** The bytes a key sends; arrows follow the application-cursor mode the CLI set. */
export function keyBytes(k: KeyName, appCursor: boolean): string {
  const csi = appCursor ? '\x1bO' : '\x1b[';
  switch (k) {
    case 'esc':
      return '\x1b';
    case 'ctrl-c':
      return '\x03';
    case 'ctrl-d':
      return '\x04';
    case 'up':
      return `${csi}A`;
    case 'down':
      return `${csi}B`;
    case 'right':
      return `${csi}C`;
    case 'left':
      return `${csi}D`;
    case 'enter':
      return '\r';
    case 'tab':
      return '\t';
    case 'shift-tab':
      return '\x1b[Z';
    case 'backspace':
      return '\x7f';
    case 'space':
      return ' ';
  }
}

/** The loopback mock that speaks the wire protocol this CLI uses (pi, OpenCode and Qwen Code speak chat completions). */
export function createMock(agent: AgentName, scenario: Scenario, logFile: string, verbose: boolean): MockServer {
  const opts = { script: scenario.mock, logFile, verbose };
  switch (agent) {
    case 'claude-code':
      return createAnthropicMock(opts);
    case 'codex':
      return createResponsesMock(opts);
    case 'opencode':
    case 'pi':
    case 'qwen':
    case 'continue-cli':
    case 'copilot':
    case 'kilocode':
    case 'droid':
      return createChatMock(opts);
    case 'gemini':
      return createGeminiMock(opts);
  }
}
