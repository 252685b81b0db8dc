import * as assert from 'assert';
import { posixReportBlock, windowsReportBlocks } from '../../../src/handoff/cliLines';

/**
 * The argument words of a PowerShell command line as its parser reads them (about_Quoting_Rules,
 * about_Parsing): the call operator `&` first, then single-quoted strings (each of the four quote characters
 * doubled inside) and bare words, separated by spaces. Only what the brief writes: anything else fails the test.
 */
function psWords(line: string): string[] {
  const QUOTES = "'\u2018\u2019\u201a\u201b";
  assert.ok(line.startsWith('& '), line);
  const out: string[] = [];
  let i = 2;
  while (i < line.length) {
    if (line[i] === ' ') {
      i++;
      continue;
    }
    if (!QUOTES.includes(line[i])) {
      const end = line.indexOf(' ', i);
      const word = line.slice(i, end < 0 ? undefined : end);
      assert.match(word, /^[\w.:-]+$/, `a bare word PowerShell would read as written: ${word}`);
      out.push(word);
      i += word.length;
      continue;
    }
    let value = '';
    for (i++; ; i++) {
      assert.ok(i < line.length, `unterminated string in ${line}`);
      if (!QUOTES.includes(line[i])) value += line[i];
      else if (i + 1 < line.length && QUOTES.includes(line[i + 1])) value += line[++i];
      else break;
    }
    out.push(value);
    i++;
  }
  return out;
}

/** cmd.exe's words as the C runtime splits them, for lines of double-quoted words and bare words only. */
function cmdWords(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);
}

function block(lines: string[], fence: string): string[] {
  const at = lines.indexOf('```' + fence);
  if (at < 0) return [];
  return lines.slice(at + 1, lines.indexOf('```', at + 1));
}

describe('the task report lines briefs give, in the agent’s shell on each platform', () => {
  const cli = "C:\\Users\\张三\\O'Brien’s files\\.agent-lens\\bin\\agent-lens.cmd";
  const reportPath = 'C:\\Users\\张三\\My Project\\.agent-lens\\handoff\\w\\reports\\0102-01-report.md';
  const f = { cli, id: 'w::0102-01', reportPath };
  /** The words every report line starts with, up to its status; and the whole progress line. */
  const REPORT = [cli, 'task', 'report', '--id', 'w::0102-01', '--status'];
  const PROGRESS = [...REPORT, 'progress', '--summary', 'understood: …'];

  it('PowerShell: the call operator on agent-lens.cmd, every word read back as written', () => {
    const [progress, done] = block(windowsReportBlocks(f), 'powershell');
    assert.deepStrictEqual(psWords(progress), PROGRESS);
    assert.deepStrictEqual(psWords(done), [...REPORT, 'done', '--summary', 'what was done, in one line', '--report', reportPath]);
  });

  it('cmd.exe: double-quoted words; left out when a word holds % or " (cmd.exe cannot quote them), PowerShell kept', () => {
    const lines = windowsReportBlocks(f);
    const [progress] = block(lines, 'cmd');
    assert.deepStrictEqual(cmdWords(progress), PROGRESS);
    assert.ok(
      lines.some((l) => l.includes('batch file')),
      'the summary’s limits through a batch file are said',
    );
    const percent = windowsReportBlocks({ ...f, reportPath: 'C:\\Users\\100%\\r.md' });
    assert.deepStrictEqual(block(percent, 'cmd'), []);
    assert.strictEqual(block(percent, 'powershell').length, 2);
    assert.ok(!percent.some((l) => l.includes('In cmd.exe')));
  });

  it('a bare script (the CLI agent-lens serve runs from) is started by node, never opened by its file type', () => {
    const script = 'C:\\Users\\张三\\AppData\\Roaming\\npm\\node_modules\\agent-lens\\dist\\cli.js';
    const lines = windowsReportBlocks({ ...f, cli: script });
    assert.deepStrictEqual(psWords(block(lines, 'powershell')[0]).slice(0, 3), ['node', script, 'task']);
    assert.deepStrictEqual(cmdWords(block(lines, 'cmd')[0]).slice(0, 3), ['node', script, 'task']);
  });

  it('POSIX: the sh block quotes the CLI and every argument for sh', () => {
    const lines = posixReportBlock({ cli: "/home/o'b/.agent-lens/bin/agent-lens", id: 'w::1', reportPath: '/r/w/reports/1-report.md' });
    assert.deepStrictEqual(lines[0], '```sh');
    assert.strictEqual(
      lines[1],
      "'/home/o'\\''b/.agent-lens/bin/agent-lens' task report --id 'w::1' --status progress --summary 'understood: …'",
    );
  });
});
