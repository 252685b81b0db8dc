/**
 * A Windows command line split into arguments the way a program's C runtime and CommandLineToArgvW split it
 * (https://learn.microsoft.com/cpp/c-language/parsing-c-command-line-arguments,
 * https://learn.microsoft.com/windows/win32/api/shellapi/nf-shellapi-commandlinetoargvw). Windows hands a
 * process one string, not an argv; Win32_Process.CommandLine is that string. The rules:
 *
 * - Arguments are separated by spaces and tabs; a double-quoted part may hold them.
 * - The program name (the first argument) is special: quoted, it runs to the next quote with no escapes at all
 *   (`"C:\Program Files\nodejs\node.exe"`); unquoted, to the first space or tab.
 * - Backslashes are literal, except right before a double quote: 2n of them and a quote are n backslashes and a
 *   quote that opens or closes a quoted part; 2n+1 of them and a quote are n backslashes and a literal quote.
 * - Inside a quoted part, two double quotes are one literal quote (the C runtime since Visual C++ 2008).
 *
 * One pass, no regular expression; at most `max` arguments are kept.
 */
export function splitWindowsCommandLine(line: string, max = 256): string[] {
  const out: string[] = [];
  const n = line.length;
  let i = 0;
  while (i < n && isBlank(line[i])) i++;
  if (i >= n) return out;
  if (line[i] === '"') {
    const close = line.indexOf('"', i + 1);
    out.push(line.slice(i + 1, close < 0 ? n : close));
    i = close < 0 ? n : close + 1;
  } else {
    const start = i;
    while (i < n && !isBlank(line[i])) i++;
    out.push(line.slice(start, i));
  }
  while (out.length < max) {
    while (i < n && isBlank(line[i])) i++;
    if (i >= n) break;
    const arg = readArgument(line, i);
    out.push(arg.text);
    i = arg.end;
  }
  return out;
}

function isBlank(c: string): boolean {
  return c === ' ' || c === '\t';
}

/** One argument after the program name, from `i` (not a blank): its text and where the next one may start. */
function readArgument(line: string, i: number): { text: string; end: number } {
  const n = line.length;
  let text = '';
  let quoted = false;
  while (i < n) {
    const c = line[i];
    if (!quoted && isBlank(c)) break;
    if (c === '\\') {
      let k = i;
      while (k < n && line[k] === '\\') k++;
      const run = k - i;
      if (line[k] !== '"') {
        text += '\\'.repeat(run);
        i = k;
      } else {
        text += '\\'.repeat(run >> 1);
        // An odd run escapes the quote; an even one leaves it to open or close a quoted part.
        if (run % 2 === 1) {
          text += '"';
          i = k + 1;
        } else i = k;
      }
      continue;
    }
    if (c === '"') {
      if (quoted && line[i + 1] === '"') {
        text += '"';
        i += 2;
      } else {
        quoted = !quoted;
        i++;
      }
      continue;
    }
    text += c;
    i++;
  }
  return { text, end: i };
}
