import * as assert from 'assert';
import { HOOK_SHELLS, hookShellOf } from '../../../src/integrations/hookShells';
import { HOOK_TABLES, type JsonHookAgent } from '../../../src/integrations/install/hookTable';

/** The table of which shell runs each agent's hook lines (src/integrations/hookShells.ts), and what follows from it. */
describe('hook shells: which shell runs each agent’s hook lines', () => {
  const agents = Object.keys(HOOK_TABLES).sort() as JsonHookAgent[];

  it('names every agent with command hooks, on both platforms, each with where it was read', () => {
    assert.deepStrictEqual(Object.keys(HOOK_SHELLS).sort(), agents);
    for (const agent of agents)
      for (const choice of [HOOK_SHELLS[agent].posix, HOOK_SHELLS[agent].win32]) {
        assert.ok(choice.runs.length > 5 && choice.source.length > 20, agent);
        assert.ok(['read', 'documented', 'inferred'].includes(choice.evidence), agent);
      }
  });

  it('POSIX everywhere but Windows; on Windows PowerShell, cmd.exe for droid', () => {
    for (const platform of ['linux', 'darwin', 'freebsd'] as const)
      for (const agent of agents) assert.strictEqual(hookShellOf(agent, platform).shell, 'posix', `${agent} on ${platform}`);
    assert.deepStrictEqual(Object.fromEntries(agents.map((a) => [a, hookShellOf(a, 'win32').shell])), {
      'claude-code': 'powershell',
      codex: 'powershell',
      copilot: 'powershell',
      droid: 'cmd',
      gemini: 'powershell',
      qwen: 'powershell',
    });
  });

  it('pins the shell with a field only where the agent’s own schema has one (Claude Code’s and Qwen Code’s `shell`)', () => {
    const pinned = agents.filter((a) => HOOK_SHELLS[a].win32.fields);
    assert.deepStrictEqual(pinned, ['claude-code', 'qwen']);
    for (const a of pinned) assert.deepStrictEqual(HOOK_SHELLS[a].win32.fields, { shell: 'powershell' });
    assert.ok(
      agents.every((a) => !HOOK_SHELLS[a].posix.fields),
      'POSIX lines change no agent’s settings schema',
    );
  });
});
