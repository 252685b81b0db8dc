import * as assert from 'assert';
import fc from 'fast-check';
import { cmdQuote, parseWindowsHookLine, psQuote, windowsHookLine, type NodeLaunch } from '../../../src/integrations/windowsHookLines';

/**
 * The Windows hook lines. PowerShell and cmd.exe do not run on this machine (neither is in Debian, nothing is
 * downloaded), so these lines are NOT executed here: they are checked as golden strings against the shells'
 * documented rules, and PowerShell's single-quoted strings against a reader written from about_Quoting_Rules:
 * "To include a single quotation mark in a single-quoted string, use a second consecutive single quote"; the
 * tokenizer takes ' and the typographic ‘ ’ ‚ ‛ alike (any of them opens, closes or doubles). cmd.exe's rule
 * (`cmd /?`, "Windows command-line syntax"): inside double quotes the special characters & < > ( ) @ ^ | are
 * plain; `%VAR%` is still expanded and `"` ends the word.
 */

const NODE = 'C:\\Program Files\\nodejs\\node.exe';
const SCRIPT = 'C:\\Users\\张三\\.agent-lens\\bin\\report.cjs';
const launch = (over: Partial<NodeLaunch> = {}): NodeLaunch => ({ node: NODE, electron: false, script: SCRIPT, ...over });

/** A single-quoted PowerShell string at the start of `s`, read by the documented rule; its value and the rest. */
function readPsSingleQuoted(s: string): { value: string; rest: string } {
  const QUOTES = "'\u2018\u2019\u201a\u201b";
  assert.ok(QUOTES.includes(s[0]), `not a single-quoted string: ${s}`);
  let value = '';
  for (let i = 1; i < s.length; i++) {
    if (!QUOTES.includes(s[i])) {
      value += s[i];
      continue;
    }
    if (i + 1 < s.length && QUOTES.includes(s[i + 1])) {
      value += s[i + 1];
      i++;
      continue;
    }
    return { value, rest: s.slice(i + 1) };
  }
  throw new Error(`unterminated: ${s}`);
}

describe('Windows hook lines: PowerShell and cmd.exe (golden strings; not executed here)', () => {
  it('PowerShell: Node started on the script with the call operator, under VS Code only; stdin drained otherwise', () => {
    assert.strictEqual(
      windowsHookLine('powershell', launch(), 'claude-code', false),
      "if ($env:AGENT_LENS_HUB) { & 'C:\\Program Files\\nodejs\\node.exe' 'C:\\Users\\张三\\.agent-lens\\bin\\report.cjs' claude-code }" +
        ' else { $null = [Console]::In.ReadToEnd() }; exit 0',
    );
    assert.strictEqual(
      windowsHookLine('powershell', launch(), 'codex', true),
      "$h = $env:AGENT_LENS_HUB; $w = if ($h) { [IO.Path]::Combine([IO.Path]::GetDirectoryName($h), 'waiting') }; " +
        'if ($w -and [IO.Directory]::Exists($w) -and ([IO.Directory]::EnumerateFileSystemEntries($w) | Select-Object -First 1)) ' +
        "{ & 'C:\\Program Files\\nodejs\\node.exe' 'C:\\Users\\张三\\.agent-lens\\bin\\report.cjs' codex }" +
        ' else { $null = [Console]::In.ReadToEnd() }; exit 0',
    );
    assert.strictEqual(
      windowsHookLine('powershell', launch({ node: 'C:\\Code\\Code.exe', electron: true }), 'gemini', false),
      "if ($env:AGENT_LENS_HUB) { $env:ELECTRON_RUN_AS_NODE='1'; & 'C:\\Code\\Code.exe' 'C:\\Users\\张三\\.agent-lens\\bin\\report.cjs' gemini }" +
        ' else { $null = [Console]::In.ReadToEnd() }; exit 0',
    );
  });

  it('PowerShell: quotes of every kind are doubled, nothing else is touched ($, `, ;, & stay literal in single quotes)', () => {
    assert.strictEqual(psQuote("O'Brien ’s $env:X `n; & ‘x‚y‛"), "'O''Brien ’’s $env:X `n; & ‘‘x‚‚y‛‛'");
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => {
        const r = readPsSingleQuoted(psQuote(s) + ' rest');
        assert.deepStrictEqual(r, { value: s, rest: ' rest' });
      }),
    );
  });

  it('PowerShell: the documented reader finds node, script and agent in every line, whatever the paths', () => {
    const pathish = fc.string({ unit: fc.constantFrom(..."aZ 9\\:.'’‘‚‛$`;&|()%^!张三-"), minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(pathish, pathish, fc.boolean(), fc.boolean(), (node, script, electron, gated) => {
        const line = windowsHookLine('powershell', { node, script, electron }, 'qwen', gated);
        const at = line.indexOf('& ', line.indexOf('{ ') + 2);
        const n = readPsSingleQuoted(line.slice(at + 2));
        const s = readPsSingleQuoted(n.rest.slice(1));
        assert.deepStrictEqual([n.value, s.value, s.rest.slice(0, ' qwen }'.length)], [node, script, ' qwen }']);
        // No double quote anywhere: the agents pass the line as one argument, quoted with \" by Rust and libuv.
        assert.ok(!line.includes('"'), line);
      }),
    );
  });

  it('PowerShell: only Windows PowerShell 5.1 syntax (no && || ?? ?.), one line, exit 0 last', () => {
    for (const gated of [false, true]) {
      const line = windowsHookLine('powershell', launch(), 'copilot', gated);
      assert.ok(!/&&|\|\||\?\?|\?\./.test(line), line);
      assert.ok(!/[\r\n]/.test(line) && line.endsWith('; exit 0'), line);
    }
  });

  it('cmd.exe: double-quoted words inside if/else blocks, the folder gate through %AGENT_LENS_HUB%\\..', () => {
    const l = launch({ script: 'C:\\Users\\A&B (x) ^y\\.agent-lens\\bin\\report.cjs' });
    assert.strictEqual(
      windowsHookLine('cmd', l, 'droid', false),
      '(if defined AGENT_LENS_HUB ("C:\\Program Files\\nodejs\\node.exe" "C:\\Users\\A&B (x) ^y\\.agent-lens\\bin\\report.cjs" droid)' +
        ' else (more >nul 2>nul)) & exit 0',
    );
    assert.strictEqual(
      windowsHookLine('cmd', { ...l, electron: true }, 'droid', true),
      '(if exist "%AGENT_LENS_HUB%\\..\\waiting\\*" (set "ELECTRON_RUN_AS_NODE=1" & "C:\\Program Files\\nodejs\\node.exe"' +
        ' "C:\\Users\\A&B (x) ^y\\.agent-lens\\bin\\report.cjs" droid) else (more >nul 2>nul)) & exit 0',
    );
  });

  it('cmd.exe: a path with % (expanded even in quotes) or " is refused with what to do, never written', () => {
    assert.throws(() => cmdQuote('C:\\Users\\100%\\x'), /% or ".*AGENT_LENS_HOME/);
    assert.throws(() => windowsHookLine('cmd', launch({ script: 'C:\\a%b%\\report.cjs' }), 'droid', false), /AGENT_LENS_HOME/);
    assert.throws(() => windowsHookLine('cmd', launch({ script: 'C:\\a"b\\report.cjs' }), 'droid', false), /holds "/);
    assert.throws(() => windowsHookLine('powershell', launch({ script: 'C:\\a\nb' }), 'codex', false), /control character/);
    assert.throws(() => windowsHookLine('powershell', launch({ node: '' }), 'codex', false), /empty/);
    assert.throws(() => windowsHookLine('powershell', launch({ node: 'C:\\a"b' }), 'codex', false), /holds "/);
  });

  it('reads back exactly what it writes, for both shells, both frames, Node or Electron', () => {
    const safe = fc.string({ unit: fc.constantFrom(..."aZ 9\\:.'’‘$`;&|()^!张三-"), minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(
        fc.constantFrom('powershell' as const, 'cmd' as const),
        safe,
        safe,
        fc.boolean(),
        fc.boolean(),
        (shell, node, script, electron, gated) => {
          const l = { node, script, electron };
          assert.deepStrictEqual(parseWindowsHookLine(windowsHookLine(shell, l, 'droid', gated)), {
            shell,
            launch: l,
            agent: 'droid',
            gated,
          });
        },
      ),
    );
  });

  it('reads nothing else: every near miss of a line is someone else’s', () => {
    const ours = [
      windowsHookLine('powershell', launch(), 'claude-code', false),
      windowsHookLine('powershell', launch(), 'claude-code', true),
      windowsHookLine('cmd', launch(), 'droid', false),
      windowsHookLine('cmd', launch(), 'droid', true),
    ];
    const misses = ours
      .flatMap((line) => [
        line.replace(' exit 0', ' exit 1'),
        line.replace("& '", "& ''"),
        line.replace("report.cjs'", "report.cjs' '--x'"),
        line.replace('report.cjs', 'report.cjs" "--x'),
        line.replace('"C:\\Users', '"C:\\Users"'),
        line.replace("'C:\\Program Files\\nodejs\\node.exe'", "'C:\\Program Files\\nodejs\\node.exe'; calc"),
        line.replace('claude-code', 'claude-code; calc').replace('droid', 'droid & calc'),
        `${line} `,
        ` ${line}`,
        line.toUpperCase(),
        line.replace(/'/g, '"'),
      ])
      .filter((m, i, all) => !ours.includes(m) && all.indexOf(m) === i);
    for (const m of misses) assert.strictEqual(parseWindowsHookLine(m), undefined, m);
    for (const line of ours) assert.ok(parseWindowsHookLine(line), line);
  });
});
