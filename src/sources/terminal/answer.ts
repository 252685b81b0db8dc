import * as l10n from '@vscode/l10n';
import type { Scheduler } from '../../common/scheduler';

/**
 * Enter arrives as a write of its own, at least this long after the text: TUIs take a chunk that contains
 * Enter as a paste and never submit it.
 */
export const ENTER_DELAY_MS = 1000;

/** The longest answer typed (a TUI's input box is no place for a document). */
export const ANSWER_MAX = 4000;

/**
 * How much of an answer is read: far more than ANSWER_MAX leaves after its line breaks and controls go, and
 * a bound, so a pasted megabyte costs what this does (replacing in megabytes costs more per byte: npm run bench).
 */
const ANSWER_READ = 16 * ANSWER_MAX;

/**
 * The answer as one line of plain text: line breaks become spaces and control characters (Escape, Ctrl+C,
 * a stray Enter) are dropped, so an answer can never press a key the user did not mean.
 */
export function answerLine(answer: string): string {
  return answer
    .slice(0, ANSWER_READ)
    .replace(/\r\n|[\r\n\u2028\u2029]/g, ' ')
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    .trim()
    .slice(0, ANSWER_MAX);
}

/** Types an answer into a terminal: the line, then Enter ENTER_DELAY_MS later. Resolves once Enter was sent. */
export function typeAnswer(write: (data: string) => void, answer: string, scheduler: Scheduler): Promise<string> {
  const line = answerLine(answer);
  if (!line) return Promise.reject(new Error(l10n.t('the answer is empty')));
  write(line);
  return new Promise((resolve) => {
    scheduler.setTimeout(() => {
      write('\r');
      resolve(line);
    }, ENTER_DELAY_MS);
  });
}
