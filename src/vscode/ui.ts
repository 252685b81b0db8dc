import * as vscode from 'vscode';
import type { Notice } from '../views/messages';
import { type InputTexts, LIMITS, type PickSpec, plain, shownInput, shownPick } from '../views/untrusted';

/**
 * The only module that calls VS Code's notifications, input boxes, quick picks and progress notifications
 * (`npm run lint` fails on such a call anywhere else). Messages and input-box prompts render
 * `[label](command:…)` as a link that runs a command, and quick-pick labels render `$(icon)`; the texts given
 * here often hold what an agent, a terminal or a workspace wrote. So every text passes through `plain()` (and
 * item texts through `shownPick()`) here, whatever the caller already did: both are idempotent.
 */

/** Shows a notification; resolves to the action clicked (as the caller named it), or undefined. */
export async function notify(level: Notice['level'], message: string, ...actions: string[]): Promise<string | undefined> {
  const text = plain(message, LIMITS.message);
  const buttons = actions.map((a) => plain(a, LIMITS.label));
  const w = vscode.window;
  const choice =
    level === 'error'
      ? await w.showErrorMessage(text, ...buttons)
      : level === 'warning'
        ? await w.showWarningMessage(text, ...buttons)
        : await w.showInformationMessage(text, ...buttons);
  return choice === undefined ? undefined : actions[buttons.indexOf(choice)];
}

export const info = (message: string, ...actions: string[]): Promise<string | undefined> => notify('info', message, ...actions);
export const warn = (message: string, ...actions: string[]): Promise<string | undefined> => notify('warning', message, ...actions);
export const error = (message: string, ...actions: string[]): Promise<string | undefined> => notify('error', message, ...actions);
export const show = (n: Notice, ...actions: string[]): Promise<string | undefined> => notify(n.level, n.text, ...actions);

export interface PickOptions {
  title?: string;
  placeHolder?: string;
  matchOnDescription?: boolean;
  ignoreFocusOut?: boolean;
}

/** One item of `items`, chosen in a quick pick; VS Code sees only the shown copies. */
export async function pick<T extends PickSpec>(items: readonly T[], options: PickOptions = {}): Promise<T | undefined> {
  const picked = await vscode.window.showQuickPick(shownItems(items), shownInput(options));
  return picked ? items[picked.index] : undefined;
}

/** Several items of `items`, ticked in a quick pick (those with `picked` start ticked). */
export async function pickMany<T extends PickSpec>(items: readonly T[], options: PickOptions = {}): Promise<T[] | undefined> {
  const picked = await vscode.window.showQuickPick(shownItems(items), { ...shownInput(options), canPickMany: true });
  return picked?.map((p) => items[p.index]);
}

function shownItems(items: readonly PickSpec[]): (vscode.QuickPickItem & { index: number })[] {
  return items.map((item, index) => ({ ...shownPick(item), index }));
}

export interface InputOptions extends InputTexts {
  value?: string;
  ignoreFocusOut?: boolean;
  /** Typed text hidden, for a token or a webhook URL. */
  password?: boolean;
  /** Its message is shown under the box, rendered like the prompt. */
  validateInput?: (value: string) => string | undefined;
}

/** An input box; its title, prompt, placeholder and validation messages are shown as plain text. */
export function input(options: InputOptions): Thenable<string | undefined> {
  const { validateInput, ...rest } = options;
  const validate = validateInput
    ? (v: string) => {
        const m = validateInput(v);
        return m === undefined ? undefined : plain(m, LIMITS.message);
      }
    : undefined;
  return vscode.window.showInputBox({ ...shownInput(rest), ...(validate ? { validateInput: validate } : {}) });
}

/** A cancellable progress notification while `task` runs. */
export function progress<R>(title: string, task: (token: vscode.CancellationToken) => Thenable<R>): Thenable<R> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: plain(title, LIMITS.title), cancellable: true },
    (_p, token) => task(token),
  );
}

/**
 * A modal that asks before something is done: its message as plain text, its detail as given (already made
 * safe by the caller: `whole()` keeps it uncut). The first button is the default, so a caller puts the safe one
 * first; Cancel is added by VS Code. Resolves to the button chosen, or undefined.
 */
export async function confirm(message: string, detail: string, ...buttons: string[]): Promise<string | undefined> {
  return vscode.window
    .showWarningMessage(plain(message, LIMITS.message), { modal: true, detail }, ...buttons.map((b) => plain(b, LIMITS.label)))
    .then((choice) => (choice === undefined ? undefined : buttons[buttons.map((b) => plain(b, LIMITS.label)).indexOf(choice)]));
}
