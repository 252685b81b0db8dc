/**
 * Text that came from outside (an argument, a file name, a hub's answer) shown in a one-line message: control
 * characters and line separators are written as escapes, so an error cannot break a line, move the cursor or
 * recolour a terminal.
 */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

export function printable(s: string): string {
  return s.replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A name from outside in a message: JSON-quoted (so its ends show), with DEL, C1 and line separators escaped too. */
export function quoted(s: string): string {
  return printable(JSON.stringify(s));
}
