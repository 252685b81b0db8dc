import * as l10n from '@vscode/l10n';
import type { DialogKeys } from '../agents/descriptor';
import { dialogOptions } from '../detect/dialogOptions';

/**
 * Answering a dialog with one key read off the live screen, for agents whose own hook cannot hold it (Codex hides
 * its prompt while a hook runs). Never a guessed key: the dialog's numbered options are read from the screen,
 * the one whose label means the user's choice (the agent's DialogKeys) must be there exactly once, the dialog
 * must show the command the agent's hook reported, and a second read a moment later must agree; then its digit
 * is typed, and the dialog must be gone after it. Anything else types nothing and says why, in the window's language:
 * the reason ends up in the notice the user reads (src/views/answerTexts.ts keyRefusedNotice).
 */

export type KeyChoice = 'allow' | 'deny';

export interface KeyPlan {
  key: string;
  /** The option's label as the screen shows it. */
  option: string;
}

/** How long between the two reads, and how long the dialog has to close after the key. */
export const KEY_TIMING = { secondReadMs: 150, closeMs: 3000, pollMs: 50 } as const;

/** The key for `choice` on this screen, or why none may be typed. */
export function planKey(
  rows: readonly string[],
  keys: DialogKeys,
  choice: KeyChoice,
  mustShow: string | undefined,
): KeyPlan | { refused: string } {
  const options = dialogOptions(rows);
  if (options.length < 2) return { refused: l10n.t('no numbered dialog is on the screen') };
  const re = choice === 'allow' ? keys.allowOnce : keys.deny;
  const hits = options.map((o, i) => ({ o, i })).filter(({ o }) => re.test(o));
  if (hits.length !== 1)
    return {
      refused:
        choice === 'allow'
          ? l10n.t('the dialog on the screen has {0} options that allow once', hits.length)
          : l10n.t('the dialog on the screen has {0} options that deny', hits.length),
    };
  if (mustShow && !screenShows(rows, mustShow))
    return { refused: l10n.t('the dialog on the screen is not about the command the agent reported') };
  return { key: String(hits[0].i + 1), option: hits[0].o };
}

/**
 * Whether the screen shows `text` (a command), however the terminal wrapped it: frame borders and all white space
 * left out on both sides, so a command wrapped in a box, mid-word or with an indent, still matches.
 */
export function screenShows(rows: readonly string[], text: string): boolean {
  const want = flat(text);
  return want.length > 0 && flat(rows.join('\n')).includes(want);
}

function flat(s: string): string {
  return s.replace(/[│┃|╭╮╰╯─\s]/gu, '');
}

export interface KeyIO {
  rows(): readonly string[];
  /** Types into the terminal (the key only, no Enter). */
  write(data: string): void;
  /** Whether typing is still allowed: the wait open, its agent the terminal's foreground process. */
  mayType(): Promise<boolean>;
  sleep(ms: number): Promise<void>;
}

export type KeyOutcome = { ok: true; option: string } | { ok: false; why: string; typed: boolean };

/** Reads, reads again, types the one key, and checks the dialog closed. */
export async function answerWithKey(io: KeyIO, keys: DialogKeys, choice: KeyChoice, mustShow: string | undefined): Promise<KeyOutcome> {
  const first = planKey(io.rows(), keys, choice, mustShow);
  if ('refused' in first) return { ok: false, why: first.refused, typed: false };
  await io.sleep(KEY_TIMING.secondReadMs);
  const second = planKey(io.rows(), keys, choice, mustShow);
  if ('refused' in second || second.key !== first.key || second.option !== first.option)
    return { ok: false, why: changedReason(), typed: false };
  if (!(await io.mayType())) return { ok: false, why: closedReason(), typed: false };
  io.write(first.key);
  for (let waited = 0; waited < KEY_TIMING.closeMs; waited += KEY_TIMING.pollMs) {
    await io.sleep(KEY_TIMING.pollMs);
    const now = planKey(io.rows(), keys, choice, mustShow);
    if ('refused' in now || now.option !== first.option) return { ok: true, option: first.option };
  }
  return { ok: false, why: l10n.t('the dialog was still on the screen {0} s after the key', KEY_TIMING.closeMs / 1000), typed: true };
}

/** The reasons both ways of typing give (here and ./cursorMenu.ts), looked up when given, in the window's language. */
export const changedReason = (): string => l10n.t('the dialog changed between two reads of the screen');
export const closedReason = (): string => l10n.t('the dialog closed, or its agent is no longer the terminal’s foreground process');
