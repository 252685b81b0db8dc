/**
 * Prepare an isolated agent home and print how to launch the CLI in it (JSON on stdout):
 *
 *   node home-cli.js --agent claude-code --base-url http://127.0.0.1:<port> [--run-dir DIR] [--permission-mode default] [--no-hooks] [--shell]
 *
 * Output: {"agent","runDir","home","cwd","command","args","env","hooksLog","runId"}. Spawn `command args`
 * in `cwd` with exactly `env`. Delete runDir afterwards; kill leftovers with the AGENTLENS_RUN_ID env marker.
 * With --shell: one POSIX shell line that does exactly that (`eval "$(node home-cli.js … --shell)"`).
 */
import { type AgentName, prepareHome } from './homes';
import { parseCommandLine } from '../src/cli/args';
import { shellWord } from '../src/common/shellQuote';

function main(): void {
  const usage =
    'usage: home-cli --agent claude-code|codex|opencode|gemini|pi|qwen|continue-cli|copilot|kilocode|droid --base-url http://127.0.0.1:<port> [--run-dir DIR] [--permission-mode MODE] [--no-hooks] [--shell]';
  const { values: v } = parseCommandLine(
    process.argv.slice(2),
    {
      agent: { type: 'string' },
      'base-url': { type: 'string' },
      'run-dir': { type: 'string' },
      'permission-mode': { type: 'string' },
      'no-hooks': { type: 'boolean' },
      shell: { type: 'boolean' },
    },
    (m) => new Error(`${m}\n${usage}`),
  );
  const agent = (v.agent ?? 'claude-code') as AgentName;
  const baseUrl = v['base-url'];
  if (!baseUrl) {
    process.stderr.write(`${usage}\n`);
    process.exit(2);
  }
  const h = prepareHome(agent, {
    baseUrl,
    runDir: v['run-dir'],
    permissionMode: v['permission-mode'],
    hooks: v['no-hooks'] !== true,
  });
  if (v.shell) {
    const env = Object.entries(h.env).map(([k, v]) => shellWord(`${k}=${v}`));
    process.stdout.write(`cd ${shellWord(h.cwd)} && env -i ${env.join(' ')} ${[h.command, ...h.args].map(shellWord).join(' ')}\n`);
    return;
  }
  process.stdout.write(
    `${JSON.stringify({ agent: h.agent, runDir: h.runDir, home: h.home, cwd: h.cwd, command: h.command, args: h.args, env: h.env, hooksLog: h.hooksLog, runId: h.runId }, null, 1)}\n`,
  );
}

try {
  main();
} catch (e) {
  process.stderr.write(`home-cli: ${(e as Error).message}\n`);
  process.exit(2);
}
