import * as assert from 'assert';
import { agentFromCommandLine, agentFromProcess, tokenize } from '../../../src/detect/commandLine';

describe('agent from the command line', () => {
  const table: [string, string | undefined][] = [
    ['claude', 'claude-code'],
    ['claude --resume 1234', 'claude-code'],
    ['codex', 'codex'],
    ['opencode', 'opencode'],
    ['amp', 'amp'],
    ['gemini -m gemini-2.5-pro', 'gemini'],
    ['hermes', 'hermes'],
    ['/home/me/.local/bin/claude', 'claude-code'],
    ['C:\\Users\\me\\AppData\\Roaming\\npm\\codex.cmd', 'codex'],
    ['./node_modules/.bin/opencode', 'opencode'],
    ['npx @openai/codex', 'codex'],
    ['npx -y @openai/codex@0.169.0 --full-auto', 'codex'],
    ['npx --package=@anthropic-ai/claude-code claude', 'claude-code'],
    ['npx -p @google/gemini-cli gemini', 'gemini'],
    ['pnpm dlx @anthropic-ai/claude-code', 'claude-code'],
    ['bunx opencode-ai', 'opencode'],
    ['npm exec -- @openai/codex', 'codex'],
    ['ANTHROPIC_BASE_URL=http://127.0.0.1:9 claude', 'claude-code'],
    ['env FOO=1 codex', 'codex'],
    ['sudo -u dev claude', 'claude-code'],
    ['time nohup codex exec "fix it"', 'codex'],
    ['cd app && claude', 'claude-code'],
    ['git pull; opencode', 'opencode'],
    ['node /usr/lib/node_modules/@anthropic-ai/claude-code/cli.js', 'claude-code'],
    ['node ~/.npm/_npx/x/node_modules/@openai/codex/bin/codex.js', 'codex'],
    ["'claude'", 'claude-code'],
    ['ls -la', undefined],
    ['git log --grep claude', undefined],
    ['cat notes-about-codex.txt', undefined],
    ['echo claude', undefined],
    ['npx prettier --write .', undefined],
    ['vim claude.md', undefined],
    ['', undefined],
  ];
  for (const [line, agent] of table) {
    it(`${JSON.stringify(line)} → ${agent ?? 'no agent'}`, () => assert.strictEqual(agentFromCommandLine(line)?.agent, agent));
  }

  it('keeps quoted arguments together', () => {
    assert.deepStrictEqual(tokenize(`codex "fix the bug; now" 'a b'`), ['codex', 'fix the bug; now', 'a b']);
  });

  it('identifies agents from process names and arguments', () => {
    assert.strictEqual(agentFromProcess('opencode.exe')?.agent, 'opencode');
    assert.strictEqual(agentFromProcess('claude')?.agent, 'claude-code');
    assert.strictEqual(agentFromProcess('node', ['/usr/lib/node_modules/@google/gemini-cli/dist/index.js'])?.agent, 'gemini');
    assert.strictEqual(agentFromProcess('node', ['/usr/lib/node_modules/@sourcegraph/amp/dist/main.js'])?.agent, 'amp');
    assert.strictEqual(agentFromProcess('bash', ['-c', 'sleep 6'])?.agent, undefined);
  });

  it('identifies Windows processes: image names in any case, .exe/.cmd, node running npm scripts, argv taken as split', () => {
    assert.strictEqual(agentFromProcess('claude.EXE')?.agent, 'claude-code');
    assert.strictEqual(agentFromProcess('CLAUDE.EXE')?.agent, 'claude-code');
    assert.strictEqual(agentFromProcess('C:\\Users\\张三\\.local\\bin\\claude.exe')?.agent, 'claude-code');
    assert.strictEqual(agentFromProcess('codex.exe')?.agent, 'codex');
    assert.strictEqual(agentFromProcess('gemini.cmd')?.agent, 'gemini');
    const npm = 'C:\\Users\\张三\\AppData\\Roaming\\npm';
    assert.strictEqual(agentFromProcess('node.exe', [`${npm}\\node_modules\\@anthropic-ai\\claude-code\\cli.js`])?.agent, 'claude-code');
    assert.strictEqual(agentFromProcess('node.exe', [`${npm}/node_modules/@openai/codex/bin/codex.js`])?.agent, 'codex', "npm's .ps1 shim");
    assert.strictEqual(
      agentFromProcess('node.exe', [`${npm}\\\\node_modules\\@google\\gemini-cli\\dist\\index.js`, '-p', 'x'])?.agent,
      'gemini',
      "npm's .cmd shim",
    );
    assert.strictEqual(
      agentFromProcess('node.exe', ['C:\\Users\\X\\AppData\\Roaming\\npm\\Node_Modules\\@Anthropic-AI\\Claude-Code\\cli.js'])?.agent,
      'claude-code',
      'a path in another case',
    );
    // One argument holding `&` or ending in a backslash is one argument: it is not a shell line to split again.
    assert.strictEqual(agentFromProcess('node.exe', ['C:\\R&D\\node_modules\\@openai\\codex\\bin\\codex.js'])?.agent, 'codex');
    assert.strictEqual(agentFromProcess('node.exe', ['--inspect', 'C:\\tools\\', 'x.js'])?.agent, undefined);
    assert.strictEqual(
      agentFromProcess('cmd.exe', ['/d', '/s', '/c', 'gemini --yolo'])?.agent,
      undefined,
      'the shell that starts it is not the agent',
    );
    assert.strictEqual(
      agentFromProcess('pwsh.exe', ['-noexit', '-command', 'try { . "c:\\x\\shellIntegration.ps1" } catch {}'])?.agent,
      undefined,
    );
  });

  it('keeps backslashes that escape nothing: POSIX rules inside double quotes, none at all on Windows', () => {
    assert.deepStrictEqual(tokenize('"C:\\Program Files\\nodejs\\node.exe" x', 'linux'), ['C:\\Program Files\\nodejs\\node.exe', 'x']);
    assert.deepStrictEqual(tokenize('echo "a\\"b" c\\ d', 'linux'), ['echo', 'a"b', 'c d'], 'POSIX escapes still escape');
    assert.deepStrictEqual(tokenize('cd C:\\work\\ ; claude', 'win32'), ['cd', 'C:\\work\\', '\u0000', 'claude']);
    const line =
      '& "C:\\Program Files\\nodejs\\node.exe" "C:\\Users\\张三\\AppData\\Roaming\\npm\\node_modules\\@anthropic-ai\\claude-code\\cli.js"';
    assert.deepStrictEqual(tokenize(line, 'win32').slice(1), [
      'C:\\Program Files\\nodejs\\node.exe',
      'C:\\Users\\张三\\AppData\\Roaming\\npm\\node_modules\\@anthropic-ai\\claude-code\\cli.js',
    ]);
    assert.strictEqual(agentFromCommandLine(line)?.agent, 'claude-code', 'what PowerShell shell integration reports');
  });

  it('ignores the rest of a very long command line', () => {
    assert.strictEqual(agentFromCommandLine('x'.repeat(10_000) + ' ; claude'), undefined);
  });
});
