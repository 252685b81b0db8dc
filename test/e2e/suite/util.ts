import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { AgentLensApi } from '../../../src/extension';
import type { TerminalState } from '../../../src/store/types';

export const ROOT = (() => {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) || !fs.existsSync(path.join(dir, 'test', 'e2e'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`cannot find the repository root above ${__dirname}`);
    dir = up;
  }
  return dir;
})();

export const ARTIFACTS = process.env.AGENT_LENS_E2E_ARTIFACTS ?? path.join(ROOT, 'artifacts', 'e2e');

export async function api(): Promise<AgentLensApi> {
  const ext = vscode.extensions.getExtension<AgentLensApi>('agent-lens.agent-lens');
  if (!ext) throw new Error('extension agent-lens.agent-lens is not installed in this VS Code');
  return ext.isActive ? ext.exports : await ext.activate();
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs = 30_000, everyMs = 100): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** A bash terminal with shell integration ready. */
export async function shellTerminal(name: string, env: Record<string, string> = {}, location: vscode.TerminalLocation = vscode.TerminalLocation.Panel): Promise<vscode.Terminal> {
  // No custom shell arguments: VS Code injects shell integration only into shells started with arguments it knows.
  const t = vscode.window.createTerminal({ name, shellPath: '/bin/bash', env, location });
  await waitFor(`shell integration in ${name}`, () => t.shellIntegration, 30_000);
  return t;
}

export function stateOf(a: AgentLensApi, t: vscode.Terminal): TerminalState | undefined {
  const id = a.terminalId(t);
  return id ? a.states().find((s) => s.id === id) : undefined;
}

/** Collects "agent/state" transitions of one terminal. */
export function transitions(a: AgentLensApi, t: vscode.Terminal): { list: string[]; dispose(): void } {
  const list: string[] = [];
  const sub = a.onDidChange((c) => {
    if (c.current && c.id === a.terminalId(t)) {
      const k = `${c.current.agent}/${c.current.state}`;
      if (list.at(-1) !== k) list.push(k);
    }
  });
  return { list, dispose: () => sub.dispose() };
}

export async function waitState(a: AgentLensApi, t: vscode.Terminal, agent: string, state: string, timeoutMs = 30_000): Promise<TerminalState> {
  return waitFor(`${t.name} to be ${agent}/${state} (now ${JSON.stringify(stateOf(a, t) && `${stateOf(a, t)!.agent}/${stateOf(a, t)!.state}`)})`, () => {
    const s = stateOf(a, t);
    return s && s.agent === agent && s.state === state ? s : undefined;
  }, timeoutMs);
}

/** Asks the e2e runner (outside VS Code) for a screenshot of the workbench, and waits until it is taken. */
export async function screenshot(name: string): Promise<void> {
  // Show the Agent Lens side bar so the picture has the tree view next to the terminal.
  await vscode.commands.executeCommand('workbench.view.extension.agentLens');
  await sleep(600);
  const dir = path.join(ARTIFACTS, 'screenshot-requests');
  fs.mkdirSync(dir, { recursive: true });
  const req = path.join(dir, `${name}.req`);
  fs.writeFileSync(req, String(Date.now()));
  await waitFor(`screenshot ${name}`, () => !fs.existsSync(req), 20_000, 200).catch(() => undefined);
}

/** Types text into a TUI, then Enter as a separate write (one chunk with Enter reads as a paste). */
export async function typeLine(t: vscode.Terminal, text: string): Promise<void> {
  t.sendText(text, false);
  await sleep(400);
  t.sendText('\r', false);
}
