/** The example team.toml and the helpers team.test.ts and writeBack.test.ts share. */
import * as assert from 'assert';
import { parseTeam, TeamError } from '../../../../src/handoff/team/registry';
import type { Mode, TeamAgent } from '../../../../src/handoff/team/schema';

export const FULL = `# the team
[claude]
mode = "embedded"        # background | embedded | standalone | web
display_name = "Claude"
icon = "terminal"
launch = "claude"
args = [ "--model", "x" ]
window_hint = "claude"
process = "claude"
note = "leader's memo"
description = "what it is for"
tmux = "agents:0.1"
[[claude.dispatch_steps]]
tool = "terminal_activate"
with = {}
[[claude.dispatch_steps]]
tool = "__sleep"
with = { ms = 500 }
[[claude.dispatch_steps]]
tool = "terminal_input"
with = { mode = "type", text = "{message}", send = "none" }
[[claude.dispatch_steps]]
tool = "terminal_input"
with = { mode = "hotkey", keys = [ "enter" ] }

[codex]
mode = "web"
`;

export const CLAUDE: TeamAgent = {
  ...{
    key: 'claude',
    mode: 'embedded',
    display_name: 'Claude',
    icon: 'terminal',
    launch: 'claude',
    args: ['--model', 'x'],
    window_hint: 'claude',
  },
  ...{ process: 'claude', note: "leader's memo", description: 'what it is for', tmux: 'agents:0.1' },
  dispatch_steps: [
    { tool: 'terminal_activate', with: {} },
    { tool: '__sleep', with: { ms: 500 } },
    { tool: 'terminal_input', with: { mode: 'type', text: '{message}', send: 'none' } },
    { tool: 'terminal_input', with: { mode: 'hotkey', keys: ['enter'] } },
  ],
};

/** Plain objects all the way down: smol-toml tables have no prototype, which deepStrictEqual would flag. */
export const plain = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
export const agentsOf = (text: string): TeamAgent[] => plain(parseTeam(text, 'team.toml').agents);

/** An agent with nothing but a key and a mode. */
export const bareAgent = (key: string, mode: Mode = 'web'): TeamAgent => ({ key, mode, dispatch_steps: [] });

export function teamError(fn: () => unknown): TeamError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof TeamError, `expected a TeamError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected a TeamError');
}
