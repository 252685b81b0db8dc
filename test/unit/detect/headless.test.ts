import * as assert from 'assert';
import { agentFromCommandLine, agentFromProcess } from '../../../src/detect/commandLine';
import { TerminalDetector } from '../../../src/detect/detector';
import type { Detection } from '../../../src/detect/types';
import { arbitrate } from '../../../src/store/arbitrate';
import { obs } from '../obs';

/** `codex exec`'s header block as 0.169.0 prints it (shared/recordings/codex/FACTS.md §3.1), in tiny chunks, CRLF. */
const CODEX_EXEC = [
  'OpenAI Codex v0.169.0\r\n',
  '--------\r\n',
  'workdir: /tmp/demo\r\nmodel: gpt-6.1-sol\r\nprovider: mock\r\napproval: never\r\nsandbox: read-only\r\n',
  'session id: 01a2378f-3b9f-7170-a9f7-2fec0b86e759\r\n',
  '--------\r\nuser\r\nGive me a short summary of this repository.\r\n',
  'codex\r\nThis repository is a small demo project.\r\ntokens used\r\n18,194\r\n',
];

function run(commandLine: string | undefined, chunks: string[], exitCode: number | undefined, t0 = 0): Detection[] {
  const det = new TerminalDetector({ commandLine, cols: 120, rows: 35 });
  const out: Detection[] = [det.detection];
  det.onDidChange((d) => out.push(d));
  let t = t0;
  for (const c of chunks) det.write(c, (t += 0.05));
  det.advance(t + 2);
  det.exit(exitCode, t + 3);
  return out;
}

describe('headless runs (codex exec, claude -p, opencode run, gemini -p)', () => {
  it('are told from the command line, through runners and pipes, and only by the right argument', () => {
    const cases: [string, string | undefined][] = [
      ['codex exec "summarise the repo"', 'exec'],
      ['codex e "x"', 'e'],
      ['npx -y @openai/codex@0.169.0 exec hi', 'exec'],
      ['claude -p "fix the build"', '-p'],
      ['echo hi | claude --print', '--print'],
      ['CLAUDE_CONFIG_DIR=/x claude --model opus -p hi', '-p'],
      ['opencode run "add a test"', 'run'],
      ['gemini --prompt="what is this"', '--prompt="what is this"'.replace(/"/g, '')],
      ['gemini -p hi', '-p'],
      ['codex "exec this"', undefined],
      ['codex', undefined],
      ['claude', undefined],
      ['claude --resume abc', undefined],
      ['opencode', undefined],
    ];
    for (const [line, want] of cases) assert.strictEqual(agentFromCommandLine(line)?.headless, want, line);
  });

  it('a headless run is Working from its start and its exit code is the outcome (source command)', () => {
    const ok = run('codex exec "summarise"', CODEX_EXEC, 0);
    assert.deepStrictEqual(
      ok.map((d) => [d.agent, d.state, d.source]),
      [
        ['codex', 'working', 'command'],
        ['codex', 'completed', 'command'],
      ],
    );
    assert.match(ok.at(-1)!.evidence, /exit code 0/);
    const bad = run('claude -p "fix it"', ['Error: API Error: 500 {"type":"error"}\r\n'], 1);
    assert.deepStrictEqual([bad.at(-1)!.agent, bad.at(-1)!.state, bad.at(-1)!.reason], ['claude-code', 'failed', 'exit code 1']);
    const unknown = run('opencode run "x"', ['done\r\n'], undefined);
    assert.strictEqual(unknown.at(-1)!.state, 'exited', 'no exit code, no outcome');
  });

  it('screen rules never fire on a headless run’s plain output (a question in the answer is not a wait)', () => {
    const out = run('claude -p "x"', ['Do you want to proceed?\r\n', '❯ 1. Yes\r\n', 'Shall I go on?\r\n'], 0);
    assert.ok(!out.some((d) => d.state === 'waiting'), JSON.stringify(out));
  });

  it('is told from codex exec’s output header when a script hides the command line', () => {
    const out = run('./scripts/summarise.sh', CODEX_EXEC, 0);
    const working = out.find((d) => d.state === 'working');
    assert.ok(working, JSON.stringify(out));
    assert.strictEqual(working!.agent, 'codex');
    assert.match(working!.evidence, /headless run, output header: "OpenAI Codex v0\.169\.0"/);
    assert.strictEqual(out.at(-1)!.state, 'completed');
    // Written one character at a time, the header is still seen (a trigger split across chunks).
    const byChar = run('./scripts/summarise.sh', CODEX_EXEC.join('').split(''), 0);
    assert.ok(
      byChar.some((d) => d.agent === 'codex' && d.state === 'working'),
      JSON.stringify(byChar),
    );
    // The header line alone (a cat of notes) is no run.
    const cat = run(undefined, ['notes:\r\nOpenAI Codex v0.169.0\r\n--------\r\nnothing else\r\n'], 0);
    assert.ok(
      cat.every((d) => d.agent === 'shell'),
      JSON.stringify(cat),
    );
  });

  it('the exit code outranks every other source’s outcome of the same run', () => {
    const shown = arbitrate([
      obs('command', 1000, 'working'),
      obs('jsonl-watcher', 4000, 'completed'),
      obs('command', 4100, 'failed', { reason: 'exit code 2' }),
    ]);
    assert.deepStrictEqual([shown?.state, shown?.source, shown?.reason], ['failed', 'command', 'exit code 2']);
    const presence = arbitrate([obs('pty-scrape', 1000, 'idle'), obs('command', 2000, 'working')]);
    assert.strictEqual(presence?.source, 'pty-scrape', 'the command line’s "working" still decides nothing when another source spoke');
  });
});

describe('more agents by command line and process (unverified screens)', () => {
  it('knows GitHub Copilot CLI, Cursor Agent, Crush, Qwen Code, Kilo Code, Aider and pi, and their headless forms', () => {
    const cases: [string, string, string | undefined][] = [
      ['copilot', 'copilot', undefined],
      ['copilot -p "fix the tests"', 'copilot', '-p'],
      ['npx @github/copilot', 'copilot', undefined],
      ['cursor-agent', 'cursor', undefined],
      ['cursor-agent -p "x"', 'cursor', '-p'],
      ['crush', 'crush', undefined],
      ['crush run "x"', 'crush', 'run'],
      ['npx -y @qwen-code/qwen-code@latest', 'qwen', undefined],
      ['qwen --prompt "x"', 'qwen', '--prompt'],
      ['kilocode', 'kilocode', undefined],
      ['aider --model gpt-5', 'aider', undefined],
      ['aider --message "add tests"', 'aider', '--message'],
      ['uvx --from aider-chat aider', 'aider', undefined],
      ['pi', 'pi', undefined],
      ['pi -p "x"', 'pi', '-p'],
    ];
    for (const [line, agent, headless] of cases) {
      const m = agentFromCommandLine(line);
      assert.strictEqual(m?.agent, agent, line);
      assert.strictEqual(m?.headless, headless, line);
    }
    assert.strictEqual(agentFromCommandLine('kilo notes.txt'), undefined, 'kilo the editor is not Kilo Code');
    assert.strictEqual(agentFromCommandLine('cursor .'), undefined, 'the editor is not Cursor Agent');
  });

  it('knows the names other monitors know (issue 28), by command, package and launcher, and their headless forms', () => {
    const cases: [string, string, string | undefined][] = [
      ['cline', 'cline', undefined],
      ['npx cline', 'cline', undefined],
      ['droid', 'droid', undefined],
      ['droid exec "fix the build"', 'droid', 'exec'],
      ['npx @factory/cli', 'droid', undefined],
      ['kiro-cli chat', 'kiro', undefined],
      ['kiro-cli chat --no-interactive "x"', 'kiro', '--no-interactive'],
      ['devin', 'devin', undefined],
      ['qodercli -p "x"', 'qoder', '-p'],
      ['npx @qoder-ai/qodercli', 'qoder', undefined],
      ['grok', 'grok', undefined],
      ['bunx @vibe-kit/grok-cli', 'grok', undefined],
      ['amp', 'amp', undefined],
      ['npx @ampcode/cli -x "x"', 'amp', '-x'],
      ['cursor agent', 'cursor', undefined],
      ['cursor agent -p "x"', 'cursor', '-p'],
      ['kilo', 'kilocode', undefined],
      ['kilo run "x"', 'kilocode', 'run'],
      ['kilo --model m', 'kilocode', undefined],
      ['cn', 'continue-cli', undefined],
      ['cn -p "x"', 'continue-cli', '-p'],
      ['npx @continuedev/cli', 'continue-cli', undefined],
      ['auggie --print "x"', 'auggie', '--print'],
      ['letta', 'letta', undefined],
      ['npx @letta-ai/letta-code', 'letta', undefined],
      ['kimi', 'kimi', undefined],
      ['uvx kimi-cli', 'kimi', undefined],
    ];
    for (const [line, agent, headless] of cases) {
      const m = agentFromCommandLine(line);
      assert.strictEqual(m?.agent, agent, line);
      assert.strictEqual(m?.headless, headless, line);
    }
    for (const name of ['droid', 'cline', 'auggie', 'letta', 'qodercli', 'kiro-cli', 'devin', 'grok', 'kimi', 'cn'])
      assert.ok(agentFromProcess(name), `process ${name}`);
    assert.strictEqual(agentFromProcess('kilo', ['notes.txt']), undefined, 'the editor kilo with its file');
  });
});
