import { shellQuote } from '../common/shellQuote';
import { cmdQuote, psQuote } from '../common/windowsQuote';

/**
 * The `agent-lens task report` lines a brief tells the agent to run, in the shells its commands run in: a POSIX
 * shell on macOS and Linux; on Windows PowerShell (where Codex, Gemini CLI, Copilot CLI and Claude Code's PowerShell
 * tool run commands) and cmd.exe, each quoted by the one definition of its quoting (src/common/windowsQuote.ts).
 * The CLI there is `agent-lens.cmd` (src/integrations/reporter/reporterFiles.ts installCli); a bare script (the CLI
 * `agent-lens serve` was started from) is run by the `node` on PATH, since Windows opens a `.js` file with its
 * script host, not with Node.
 */

/** What each line reports: the event id, and the report file the done line names. */
export interface ReportLineFacts {
  cli: string;
  id: string;
  reportPath: string;
}

const PROGRESS_SUMMARY = 'understood: …';
const DONE_SUMMARY = 'what was done, in one line';

/** The ```sh block: the same two lines for every POSIX shell. */
export function posixReportBlock(f: ReportLineFacts): string[] {
  const run = `${shellQuote(f.cli)} task report --id ${shellQuote(f.id)}`;
  return [
    '```sh',
    `${run} --status progress --summary ${shellQuote(PROGRESS_SUMMARY)}`,
    `${run} --status done --summary ${shellQuote(DONE_SUMMARY)} --report ${shellQuote(f.reportPath)}`,
    '```',
  ];
}

const SCRIPT = /\.[cm]?js$/i;

/**
 * The PowerShell block and, where every word can be quoted for it (cmd.exe has no escape for `%` or `"`), the
 * cmd.exe one, with what the batch file asks of the summary: cmd.exe reads a batch file's arguments again, and
 * PowerShell passes a word without spaces unquoted, so `&`, `|`, `<`, `>` and `^` in it would split the command.
 */
export function windowsReportBlocks(f: ReportLineFacts): string[] {
  const script = SCRIPT.test(f.cli);
  const ps = `& ${script ? 'node ' : ''}${psQuote(f.cli)} task report --id ${psQuote(f.id)}`;
  const out = [
    'In PowerShell:',
    '',
    '```powershell',
    `${ps} --status progress --summary ${psQuote(PROGRESS_SUMMARY)}`,
    `${ps} --status done --summary ${psQuote(DONE_SUMMARY)} --report ${psQuote(f.reportPath)}`,
    '```',
  ];
  try {
    const cmd = `${script ? 'node ' : ''}${cmdQuote(f.cli)} task report --id ${cmdQuote(f.id)}`;
    const lines = [
      `${cmd} --status progress --summary ${cmdQuote(PROGRESS_SUMMARY)}`,
      `${cmd} --status done --summary ${cmdQuote(DONE_SUMMARY)} --report ${cmdQuote(f.reportPath)}`,
    ];
    out.push('', 'In cmd.exe:', '', '```cmd', ...lines, '```');
  } catch {
    /* a word cmd.exe cannot hold: the PowerShell lines alone */
  }
  if (!script)
    out.push(
      '',
      'The CLI is a batch file, whose arguments cmd.exe reads again: keep `"`, `%`, `&`, `|`, `<`, `>` and `^` out of the summary.',
    );
  return out;
}
