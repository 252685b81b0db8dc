import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { AgentLensApi, AgentLensTestSurface } from '../../../src/vscode/api';
import type { TerminalState } from '../../../src/store/types';
import { ROOT } from '../repoRoot';

export { ROOT };

export const ARTIFACTS = process.env.AGENT_LENS_E2E_ARTIFACTS ?? path.join(ROOT, 'artifacts', 'e2e');

/** The API other extensions get (version 1), as they get it. */
export async function stableApi(): Promise<AgentLensApi> {
  const ext = vscode.extensions.getExtension<AgentLensApi>('agent-lens.agent-lens');
  if (!ext) throw new Error('extension agent-lens.agent-lens is not installed in this VS Code');
  return ext.isActive ? ext.exports : await ext.activate();
}

/** The internals the suites read beside it (`testing`: no promise to other extensions). */
export async function api(): Promise<AgentLensTestSurface> {
  return (await stableApi()).testing;
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
export async function shellTerminal(
  name: string,
  env: Record<string, string> = {},
  location: vscode.TerminalLocation = vscode.TerminalLocation.Panel,
): Promise<vscode.Terminal> {
  // No custom shell arguments: VS Code injects shell integration only into shells started with arguments it knows.
  const t = vscode.window.createTerminal({ name, shellPath: '/bin/bash', env, location });
  await waitFor(`shell integration in ${name}`, () => t.shellIntegration, 30_000);
  return t;
}

export function stateOf(a: AgentLensTestSurface, t: vscode.Terminal): TerminalState | undefined {
  const id = a.terminalId(t);
  return id ? a.states().find((s) => s.id === id) : undefined;
}

/** Collects "agent/state" transitions of one terminal. */
export function transitions(a: AgentLensTestSurface, t: vscode.Terminal): { list: string[]; dispose(): void } {
  const list: string[] = [];
  const sub = a.onDidChange((c) => {
    if (c.current && c.id === a.terminalId(t)) {
      const k = `${c.current.agent}/${c.current.state}`;
      if (list.at(-1) !== k) list.push(k);
    }
  });
  return { list, dispose: () => sub.dispose() };
}

export async function waitState(
  a: AgentLensTestSurface,
  t: vscode.Terminal,
  agent: string,
  state: string,
  timeoutMs = 30_000,
): Promise<TerminalState> {
  return waitFor(
    `${t.name} to be ${agent}/${state} (now ${JSON.stringify(stateOf(a, t) && `${stateOf(a, t)!.agent}/${stateOf(a, t)!.state}`)})`,
    () => {
      const s = stateOf(a, t);
      return s && s.agent === agent && s.state === state ? s : undefined;
    },
    timeoutMs,
  );
}

/** Asks the e2e runner (outside VS Code) for a screenshot of the workbench, and waits until it is taken. */
export async function screenshot(name: string, opts: { clip?: string | string[]; pad?: number; expand?: string[] } = {}): Promise<void> {
  // Show the Agent Lens side bar so the picture has the tree view next to the terminal.
  await vscode.commands.executeCommand('workbench.view.extension.agentLens');
  await sleep(600);
  // Groups the tree shows collapsed (VS Code keeps a group collapsed that was created empty) are opened first.
  const actions: UiAction[] = (opts.expand ?? []).flatMap((label): UiAction[] => [
    { click: '.part.sidebar .monaco-list-row[aria-expanded="false"]', hasText: label, optional: true },
    { sleep: 400 },
  ]);
  await ui(name, { actions, clip: opts.clip, pad: opts.pad }, 20_000).catch(() => undefined);
}

/** One thing the runner does in the page, as a user would (scripts/e2e/ui-requests.mjs `uiAction`). */
export type UiAction =
  | { waitFor: string; hasText?: string; state?: 'visible' | 'hidden' | 'attached'; timeout?: number }
  | { fill: string; text: string; hasText?: string; timeout?: number }
  | { press: string; selector?: string; timeout?: number }
  | { type: string }
  | { click: string; hasText?: string; timeout?: number; optional?: boolean }
  | { hover: string; hasText?: string; timeout?: number }
  | { sleep: number };

/** The quick input (quick pick, input box, simple file dialog) and its text field. */
export const QUICK_INPUT = '.quick-input-widget';
export const QUICK_INPUT_FIELD = '.quick-input-widget .quick-input-box input';

/**
 * True when the runner outside VS Code (scripts/e2e/run.mjs, which sets AGENT_LENS_E2E_SUITE) serves UI
 * requests; under `npm run test:vscode` nobody does, and tests that need a user's keys take another way.
 */
export const UI_DRIVER = !!process.env.AGENT_LENS_E2E_SUITE;

/**
 * Asks the runner to do `actions` in the page, then take the screenshot NAME.png (unless `shot` is false, or of
 * the union of what `clip` matches), then do `after`; resolves when it is done, throws what went wrong.
 */
export async function ui(
  name: string,
  req: { actions?: UiAction[]; shot?: boolean; clip?: string | string[]; pad?: number; after?: UiAction[] },
  timeoutMs = 60_000,
): Promise<void> {
  const dir = path.join(ARTIFACTS, 'screenshot-requests');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.req`);
  const err = path.join(dir, `${name}.err`);
  fs.rmSync(err, { force: true });
  // Written whole, then renamed: the runner never reads half a request.
  fs.writeFileSync(`${file}.tmp`, JSON.stringify({ at: Date.now(), ...req }));
  fs.renameSync(`${file}.tmp`, file);
  await waitFor(`the runner to serve ${name}`, () => !fs.existsSync(file), timeoutMs, 100);
  if (fs.existsSync(err)) throw new Error(`ui request ${name}: ${fs.readFileSync(err, 'utf8').trim()}`);
}

/** Types text into a TUI, then Enter as a separate write (one chunk with Enter reads as a paste). */
export async function typeLine(t: vscode.Terminal, text: string): Promise<void> {
  t.sendText(text, false);
  await sleep(400);
  t.sendText('\r', false);
}
