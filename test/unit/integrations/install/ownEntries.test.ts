import * as assert from 'assert';
import fc from 'fast-check';
import { hookCommand } from '../../../../src/integrations/commands';
import { isOurHandler, ownEntries, parseOurCommand } from '../../../../src/integrations/install/ownEntries';
import { REPORTING_AGENTS } from '../../../../src/agents/hookEvents';

/** The recogniser behind install and uninstall: exact command shapes, parsed strictly, anchored at both ends. */

const REPORTERS = [
  '/home/u/.agent-lens/bin/agent-lens-report',
  '/home/Jane Doe/.agent-lens/bin/agent-lens-report',
  "/home/o'brien/.agent-lens/bin/agent-lens-report",
  'C:\\Users\\u\\.agent-lens\\bin\\agent-lens-report',
];
const ours = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra });

describe('own entries: which hook handlers are Agent Lens’s', () => {
  it('parses every command hookCommand writes, plain and gated, for every agent and reporter path', () => {
    for (const reporter of REPORTERS) {
      for (const agent of REPORTING_AGENTS) {
        for (const gated of [false, true]) {
          const command = hookCommand(reporter, agent, gated);
          assert.deepStrictEqual(
            { ...parseOurCommand(command), home: undefined },
            { reporter, agent, gated, home: undefined, shell: 'posix' },
            command,
          );
          assert.ok(isOurHandler(ours(command), ownEntries()), command);
        }
      }
    }
  });

  it('a reporter outside a home named .agent-lens is ours only for a home this install knows, or with our hook name', () => {
    const command = hookCommand('/opt/al/bin/agent-lens-report', 'gemini', false);
    assert.strictEqual(parseOurCommand(command)?.home, '/opt/al');
    assert.strictEqual(isOurHandler(ours(command), ownEntries()), false);
    assert.strictEqual(isOurHandler(ours(command), ownEntries(['/opt/al/'])), true);
    assert.strictEqual(isOurHandler(ours(command, { name: 'agent-lens' }), ownEntries()), true);
    assert.strictEqual(isOurHandler(ours(command, { name: 'mine' }), ownEntries()), false);
    assert.strictEqual(isOurHandler(ours('say done'), ownEntries([], ['say done'])), true, 'a command the record says we wrote');
  });

  it('refuses near misses: other frames, quoting Agent Lens never writes, unknown agents, relative or unnormalised paths', () => {
    const r = REPORTERS[0];
    const misses = [
      `exec ${r}`,
      `exec ${r} claude`,
      `exec ${r} claude-code extra`,
      `exec  ${r} claude-code`,
      `exec '${r}' claude-code`,
      `exec "${r}" claude-code`,
      `exec ${r}-wrapper claude-code`,
      `exec ${r.replace('/bin/', '/sbin/')} claude-code`,
      'exec /home/u/.agent-lens/./bin/agent-lens-report claude-code',
      'exec /home/u/.agent-lens//bin/agent-lens-report claude-code',
      'exec .agent-lens/bin/agent-lens-report claude-code',
      "exec '/home/Jane Doe/.agent-lens/bin/agent-lens-report claude-code'",
      "exec '' claude-code",
      `exec ${r} claude-code; exit 0`,
      `if [ -e "\${AGENT_LENS_HUB%/*}/waiting/$PPID" ]; then exec ${r} claude-code; fi`,
      `echo ${hookCommand(r, 'codex', true)}`,
    ];
    for (const m of misses) assert.strictEqual(parseOurCommand(m), undefined, m);
    assert.strictEqual(
      isOurHandler({ type: 'prompt', command: hookCommand(r, 'codex', false) }, ownEntries()),
      false,
      'not a command handler',
    );
    assert.strictEqual(isOurHandler({ command: hookCommand(r, 'codex', false) }, ownEntries()), false, 'no type');
    for (const v of [null, 'x', [ours(hookCommand(r, 'codex', false))], { type: 'command', command: 1 }])
      assert.strictEqual(isOurHandler(v, ownEntries()), false);
  });

  it('anything added before or after one of our commands makes it someone else’s', () => {
    const cmd = fc
      .tuple(fc.constantFrom(...REPORTERS), fc.constantFrom(...REPORTING_AGENTS), fc.boolean())
      .map(([r, a, g]) => hookCommand(r, a, g));
    fc.assert(
      fc.property(
        cmd,
        fc.string({ minLength: 1, maxLength: 8 }),
        fc.boolean(),
        (c, extra, before) => parseOurCommand(before ? extra + c : c + extra) === undefined,
      ),
    );
  });
});
