/**
 * Inputs for bench/linear.ts that come from terminals: pty output into the detector and the fenced-block scanner,
 * command lines, process lists, rc files, and the text helpers that echo outside text back.
 */
import { TerminalDetector } from '../src/detect/detector';
import { agentFromCommandLine, agentFromProcess } from '../src/detect/commandLine';
import { OutputTail, STRONG_TRIGGER, WEAK_TRIGGER } from '../src/detect/prefilter';
import { lastQuestion } from '../src/detect/question';
import { flattenSummary } from '../src/handoff/board';
import { renderBrief, renderReadMd } from '../src/handoff/brief';
import { HandoffBlockScanner } from '../src/handoff/fenced';
import { render } from '../src/handoff/steps';
import { printable } from '../src/common/printable';
import { parsePs, parseProcStat } from '../src/sources/process/processTree';
import { parseCimProcesses } from '../src/sources/process/windows';
import { splitWindowsCommandLine } from '../src/sources/process/windowsArgv';
import { shellQuote, shellWord } from '../src/common/shellQuote';
import { answerLine } from '../src/sources/terminal/answer';
import { parseAliases, readDecision } from '../src/sources/terminal/readPolicy';
import { markdown, plain } from '../src/views/untrusted';
import type { LinearCase } from './linear';

/** `unit` repeated to about `bytes` characters (whole units, so no escape sequence or character is cut). */
export function fill(unit: string, bytes: number): string {
  return unit.repeat(Math.max(1, Math.floor(bytes / unit.length)));
}

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** A pure function of one string. */
export function pure(name: string, gen: (n: number) => string, fn: (s: string) => unknown, extra: Partial<LinearCase> = {}): LinearCase {
  return {
    name,
    make: (n) => {
      const s = gen(n);
      return { bytes: s.length, fresh: () => () => fn(s) };
    },
    ...extra,
  };
}

/**
 * Output in pty-sized chunks (4 KB, 5 ms apart: the detector looks at the screen every 100 ms of stream time) into a
 * detector made untimed, so the emulator's start-up is not counted.
 */
function detector(name: string, commandLine: string | undefined, gen: (n: number) => string, chunkSize = 4096): LinearCase {
  return {
    name: `detector ${commandLine ? `(${commandLine})` : '(no cmd)'}: ${name}`,
    make: (n) => {
      const text = gen(n);
      const parts = chunks(text, chunkSize);
      return {
        bytes: text.length,
        fresh: () => {
          const d = new TerminalDetector({ cols: 120, rows: 35, commandLine });
          return () => {
            let t = 0;
            for (const c of parts) d.write(c, (t += 0.005));
            d.advance(t + 5);
            d.dispose();
          };
        },
      };
    },
  };
}

function scanner(name: string, gen: (n: number) => string, chunkSize = 4096): LinearCase {
  return {
    name: `fenced: ${name}`,
    make: (n) => {
      const text = gen(n);
      const parts = chunks(text, chunkSize);
      return {
        bytes: text.length,
        fresh: () => () => {
          const s = new HandoffBlockScanner();
          for (const c of parts) s.feed(c);
        },
      };
    },
  };
}

const prose = (n: number) => fill('lorem ipsum dolor sit amet ', n);

export function terminalCases(): LinearCase[] {
  const shapes: [string, (n: number) => string][] = [
    ['one endless line, no newline', prose],
    ['unterminated OSC title', (n) => `\x1b]0;${fill('x', n)}`],
    ['one terminated title of n bytes', (n) => `\x1b]0;✳ Claude Code ${fill('Claude Code ', n)}\x07`],
    ['CSI with endless parameters', (n) => `\x1b[${fill('1;', n)}m`],
    ['ESC [ repeated, never finished', (n) => fill('\x1b[', n)],
    ['long SGR chains', (n) => fill('\x1b[1;31;42;4;38;5;208m▌', n)],
    ['many short lines', (n) => fill('ok\r\n', n)],
    ['❯ 1. options without newline', (n) => fill('❯ 1. Yes ', n)],
    ['✻ completion-like line', (n) => `✻ Cogitated for ${fill('1h ', n)}`],
    ['? endings on every line', (n) => fill('⏺ why?\r\n', n)],
    ['spaces only', (n) => fill(' ', n)],
  ];
  const out: LinearCase[] = [];
  for (const [name, gen] of shapes) {
    out.push(detector(name, undefined, gen));
    out.push(detector(name, 'claude', gen));
  }
  out.push(
    detector('long program status OSC 7501', 'codex', (n) => `\x1b]7501;state=working${fill(':app=x', n)}\x07`),
    detector('status OSC 7501 in a loop', 'codex', (n) => fill('\x1b]7501;state=working:app=codex\x07• Working\r\n', n)),
    detector('OpenCode boxes and ▣ rows', 'opencode', (n) => fill('┃  Ask anything… ▣  Build · model · 1.2s\r\n', n)),
    detector('rules ─ and words', 'pi', (n) => fill(`${'─'.repeat(100)}\r\n Operation aborted\r\n`, n)),
    // Every switch costs xterm ~150 µs (it clears the 35×120 alternate buffer), so the switches come 1 KB apart.
    detector('alternate screen on/off (weak trigger)', undefined, (n) => fill(`\x1b[?1049h${'x'.repeat(1000)}\x1b[?1049l`, n)),
    detector('codex exec header with endless version', undefined, (n) => `\nOpenAI Codex v${fill('1', n)}`),
    detector('near-miss OSC 0 titles (strong trigger)', undefined, (n) => fill('\x1b]0;xxxxxxxxxxxxxxx\x07', n)),
    detector('one single write of n bytes', undefined, (n) => fill('a\x1b]0;b\x1b[1m\x1b]2;OC x', n), Infinity),
    pure(
      'prefilter: STRONG/WEAK trigger on one string',
      (n) => fill('\x1b]0;Claude Cod\x1b]7501\nOpenAI Codex v1.2.3\r\n---', n),
      (s) => STRONG_TRIGGER.test(s) || WEAK_TRIGGER.test(s),
    ),
    {
      name: 'prefilter: OutputTail, 16-byte pushes',
      make: (n) => {
        const parts = chunks(prose(n), 16);
        return {
          bytes: n,
          fresh: () => () => {
            const tail = new OutputTail();
            for (const p of parts) tail.weakTrigger(p) || tail.push(p);
          },
        };
      },
    },
    pure('commandLine: many tokens', (n) => `env ${fill('A=1 ', n)}claude`, agentFromCommandLine),
    pure('commandLine: unterminated quote', (n) => `claude "${fill('x', n)}`, agentFromCommandLine),
    pure('commandLine: one word of slashes', (n) => `${fill('/', n)}x`, agentFromCommandLine),
    pure('commandLine: escapes and separators', (n) => fill('a\\ b;c|d&(e)', n), agentFromCommandLine),
    pure(
      'commandLine: agentFromProcess, name of slashes',
      (n) => `${fill('/', n)}x`,
      (s) => agentFromProcess(s),
      { bound: 'process names are /proc comm (15 chars), ps comm (a path, ≤ 1 KB) or a Windows image name' },
    ),
    pure(
      'commandLine: agentFromProcess, many args',
      (n) => fill('a b ', n),
      (s) => agentFromProcess('node', s.split('  ')),
    ),
    pure(
      'readPolicy: readDecision, many segments',
      (n) => fill('cd x && ./a.sh; ', n),
      (s) => readDecision(s, 'high'),
    ),
    pure(
      'readPolicy: parseAliases, many aliases',
      (n) => fill(`alias c='claude --x'\nabbr -a g gemini\nf() { codex; }\n`, n),
      parseAliases,
    ),
    pure('readPolicy: parseAliases, "} " + spaces in a body', (n) => `f() { } ${fill(' ', n)}x`, parseAliases, {
      bound: 'rc files are read up to 512 KB',
    }),
    pure('readPolicy: parseAliases, function line with \\r', (n) => `function f${fill(' ', n)}\r`, parseAliases),
    pure('processTree: parsePs, many lines', (n) => fill('  123   1 /usr/bin/node node /x/claude --flag\n', n), parsePs),
    pure('processTree: parsePs, long comm and \\r in args', (n) => `1 2 ${fill('a', n / 2)} b\rc\n`, parsePs, {
      bound: 'ps comm is an executable path (≤ 1 KB on macOS): cost ≤ 1 KB × line length',
    }),
    pure('processTree: parsePs, long args with \\r', (n) => `1 2 /bin/node ${fill('a ', n)}\rc\n`, parsePs),
    pure(
      'windows: parseCimProcesses',
      (n) =>
        JSON.stringify(
          Array.from({ length: Math.max(1, Math.floor(n / 80)) }, (_, i) => ({
            ProcessId: i + 2,
            ParentProcessId: 1,
            Name: 'node.exe',
            CommandLine: '"C:\\a b\\node.exe" x "y',
          })),
        ),
      parseCimProcesses,
    ),
    pure(
      'windowsArgv: backslash runs and quotes',
      (n) => `a.exe ${fill('\\\\\\"x ""', n)}`,
      (s) => splitWindowsCommandLine(s, Infinity),
    ),
    pure('processTree: parseProcStat, comm of ")"', (n) => `1 (${fill(') ', n)}) S 1 1`, parseProcStat),
    scanner('unterminated OSC', (n) => `\x1b]${fill('x', n)}`),
    scanner('OSC starts without end', (n) => fill(`\x1b]${'x'.repeat(200)}`, n)),
    scanner('CSI parameter flood', (n) => `\x1b[${fill('0;', n)}`),
    scanner('open ```handoff, never closed', (n) => `\`\`\`handoff\n${fill('{"id": "a::b",\n  ', n)}`),
    scanner('many complete blocks', (n) =>
      Array.from({ length: Math.max(1, Math.floor(n / 40)) }, (_, i) => `\`\`\`handoff\n{"id":"a::t${i}"}\n\`\`\`\n`).join(''),
    ),
    scanner('plain text in 64-byte chunks', prose, 64),
    pure('printable: all control characters', (n) => fill('\x1b\x07\u2028\x00', n), printable),
    pure('shellQuote: quotes only', (n) => fill("'", n), shellQuote),
    pure('shellWord: almost a word', (n) => `${fill('a/b.c-d', n)} `, shellWord),
    pure('answerLine: line breaks and controls', (n) => fill('a\r\n\x1b\u2028', n), answerLine),
    pure(
      'lastQuestion: long reply ending in ?',
      (n) => `${fill('why ', n)}?${fill(' *', 1000)}`,
      (s) => lastQuestion(s),
    ),
    pure('board: flattenSummary', (n) => fill('a\n\x1b  \u2028 ', n), flattenSummary),
    pure(
      'untrusted: markdown',
      (n) => fill('*_[]()#+-.!|<>`\\&\u202e', n),
      (s) => markdown(s, Infinity),
    ),
    pure(
      'untrusted: plain',
      (n) => fill('[x](command:a)$(\u202e\n', n),
      (s) => plain(s, Infinity),
    ),
    pure(
      'steps: render {message} placeholders',
      (n) => fill('{message} {', n),
      (s) => render(s, { message: 'm' }, 0),
    ),
    pure(
      'brief: renderBrief, long task',
      (n) => fill('do it ```\n', n),
      (task) => renderBrief({ agent: 'a', taskId: 't', task }, FACTS),
    ),
    pure(
      'brief: renderReadMd, long description',
      (n) => fill('desc ', n),
      (d) => renderReadMd('a', d, { ...FACTS, reportsDir: '/r', briefsDir: '/b' }),
    ),
  );
  return out;
}

const FACTS = {
  agent: 'a',
  taskId: 't',
  port: 1,
  hubEnv: 'AGENT_LENS_HUB',
  hubFile: '/h.json',
  cli: '/bin/agent-lens',
  briefPath: '/x/briefs/t.md',
  reportPath: '/x/reports/t.md',
};
