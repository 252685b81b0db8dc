/**
 * The machine of a user who has Claude Code, OpenCode, Codex and pi installed and configured: one HOME with each
 * CLI's settings (onboarding done, the project trusted, a loopback mock as its model server, a dummy key; pi with
 * its own example extension permission-gate), the CLIs on PATH as `claude`, `opencode`, `codex` and `pi`, and a
 * project folder (`demo-app`) to open in VS Code. The
 * environment is what a user's shell profile would export; code-server gets it, so every terminal has it.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { type AgentName, agentBin, killRunProcesses, prepareHome } from '../../../harness/homes';
import { createAnthropicMock } from '../../../harness/mock/anthropic';
import type { MockScript, MockServer } from '../../../harness/mock/common';
import { createChatMock } from '../../../harness/mock/openai-chat';
import { createResponsesMock } from '../../../harness/mock/openai-responses';
import { ARTIFACTS, ROOT } from './workbench';

export interface UserMachine {
  home: string;
  /** The project folder opened in VS Code. */
  workspace: string;
  env: Record<string, string>;
  mocks: { claude: MockServer; opencode: MockServer; codex: MockServer; pi: MockServer };
  /** Every process started with this machine's environment carries this marker (leftovers are found by it). */
  runId: string;
  dispose(): Promise<void>;
}

const COMMANDS: Record<string, AgentName> = { claude: 'claude-code', opencode: 'opencode', codex: 'codex', pi: 'pi' };
const IDLE: MockScript = { title: 'Idle', turns: [{ type: 'text', text: 'Nothing scripted for this prompt.\n' }] };

/** Claude Code asks to run `touch notes.txt` (a Bash permission dialog), then says it is done. */
export const CREATE_NOTES: MockScript = {
  title: 'Notes',
  turns: [
    {
      type: 'tool',
      name: 'Bash',
      text: 'I will create the notes file.',
      input: { command: 'touch notes.txt', description: 'Create notes.txt' },
    },
    { type: 'text', text: 'Created.\n' },
  ],
};

export async function userMachine(name: string): Promise<UserMachine> {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), `al-user-${name}-`));
  const log = (m: string) => path.join(ARTIFACTS, name, `mock-${m}.jsonl`);
  fs.mkdirSync(path.join(ARTIFACTS, name), { recursive: true });
  const mocks = {
    claude: createAnthropicMock({ script: IDLE, logFile: log('anthropic') }),
    opencode: createChatMock({ script: IDLE, logFile: log('chat') }),
    codex: createResponsesMock({ script: IDLE, logFile: log('responses') }),
    pi: createChatMock({ script: IDLE, logFile: log('pi-chat') }),
  };
  const agentsDir = path.join(ROOT, '.agents');
  const env: Record<string, string> = {};
  let workspace = '';
  let home = '';
  for (const [command, agent] of Object.entries(COMMANDS)) {
    const mock = mocks[command as keyof typeof mocks];
    const port = await mock.listen();
    const h = prepareHome(agent, {
      baseUrl: `http://127.0.0.1:${port}`,
      runDir,
      agentsDir,
      hooks: false,
      ...(agent === 'pi' ? { piExtensions: ['permission-gate'] } : {}),
    });
    Object.assign(env, h.env);
    workspace = h.cwd;
    home = h.home;
  }
  // The CLIs as a user has them: commands on PATH (a global npm install puts links like these there).
  const bin = path.join(runDir, 'bin');
  fs.mkdirSync(bin);
  for (const [command, agent] of Object.entries(COMMANDS)) fs.symlinkSync(agentBin(agent, agentsDir), path.join(bin, command));
  const runId = `user-${path.basename(runDir)}`;
  Object.assign(env, { PATH: `${bin}:${env.PATH}`, AGENTLENS_RUN_ID: runId, TERM_PROGRAM: 'vscode' });
  // A login shell's /etc/profile resets PATH: the user's ~/.bashrc puts the CLIs back, as the install guides say.
  fs.appendFileSync(path.join(home, '.bashrc'), `export PATH=${bin}:$PATH\nPS1='\\w\\$ '\n`);
  return {
    home,
    workspace,
    env,
    mocks,
    runId,
    dispose: async () => {
      await killRunProcesses(runId).catch(() => undefined);
      // The agents' own session logs, for whoever reads a failure.
      for (const rel of ['.claude/projects', '.codex/sessions']) {
        const from = path.join(home, rel);
        if (fs.existsSync(from)) fs.cpSync(from, path.join(ARTIFACTS, name, 'agent-logs', rel), { recursive: true });
      }
      for (const m of Object.values(mocks)) await m.close().catch(() => undefined);
      fs.rmSync(runDir, { recursive: true, force: true });
    },
  };
}
