/**
 * Who may end or re-word a wait (src/store/trustRules.ts), in the store alone: hook words carry the provenance
 * the hub found for their sender; words without one are the terminal's own sources.
 */
import * as assert from 'assert';
import type { Observation, Provenance } from '../../../src/store/observation';
import { AgentStore } from '../../../src/store/store';
import { TRUST_RULES } from '../../../src/store/trustRules';
import { obs } from '../obs';

const RM = 'Bash: rm -rf ~/work';
type More = Parameters<typeof obs>[3];
const screen = (at: number, state: Observation['state'], more: More = {}) =>
  obs('pty-scrape', at, state, { ...more, locator: { terminalId: 'A', ...more.locator } });
/** A hook word of this provenance, about agent session `sid`, naming terminal A unless told otherwise. */
function hook(provenance: Provenance, at: number, state: Observation['state'], sid: string | undefined, more: More = {}): Observation {
  const o = obs('hook', at, state, { ...more, locator: { terminalId: 'A', ...(sid ? { sessionId: sid } : {}), ...more.locator } });
  o.provenance = provenance;
  return o;
}

function terminalA(): AgentStore {
  const store = new AgentStore({ clock: { now: () => 1 } });
  store.openTerminal('A', 'victim');
  store.observe(screen(1000, 'working'));
  return store;
}
const open = (s: AgentStore) => s.waits().map((w) => `${w.kind}:${w.question ?? '-'}`);

describe('trust rules: unverified hook words may open waits, not end or re-word others’', () => {
  it('the table: own and verified words end any wait; unverified ones only their own session’s; disproven ones are not kept', () => {
    assert.deepStrictEqual(
      Object.fromEntries(
        Object.entries(TRUST_RULES).map(([k, r]) => [
          k,
          `${r.recorded ? 'kept' : 'dropped'} ends:${r.ends} reword-permission:${r.rewordsPermission} holds:${r.holds}`,
        ]),
      ),
      {
        own: 'kept ends:any reword-permission:true holds:true',
        verified: 'kept ends:any reword-permission:true holds:true',
        unverified: 'kept ends:own-session reword-permission:false holds:false',
        disproven: 'dropped ends:none reword-permission:false holds:false',
      },
    );
  });

  it('a wait the screen opened: an unverified PostToolUse, outcome or other request is refused, whatever session it names', () => {
    const store = terminalA();
    store.observe(screen(5000, 'waiting', { question: RM }));
    const row = store.terminal('A')!;
    for (const sid of ['S', 'OTHER', undefined]) {
      store.observe(hook('unverified', 6000, 'working', sid));
      store.observe(hook('unverified', 6100, 'completed', sid));
      store.observe(hook('unverified', 6200, 'waiting', sid, { question: 'Read: README.md' }));
      store.observe(hook('unverified', 6300, 'waiting', sid, { wait: 'question', question: 'Which file?' }));
      store.observe(hook('unverified', 6400, 'exited', sid));
    }
    assert.deepStrictEqual(open(store), [`permission:${RM}`]);
    const after = store.terminal('A')!;
    assert.deepStrictEqual([after.state, after.source, after.evidence, after.waitId], [row.state, row.source, row.evidence, row.waitId]);
    assert.strictEqual(store.sessions()[0].waits.length, 1, 'no wait was closed and reopened');
  });

  it('an unverified reminder of the same dialog (no text) is kept: it confirms the wait and changes nothing else', () => {
    const store = terminalA();
    store.observe(screen(5000, 'waiting', { question: RM }));
    store.observe(hook('unverified', 5100, 'waiting', 'S'));
    const [w] = store.waits();
    assert.deepStrictEqual([w.question, w.seenBy, w.openedBy, w.openedAt], [RM, ['pty-scrape', 'hook'], 'pty-scrape', 5000]);
    store.observe(screen(9000, 'working'));
    assert.deepStrictEqual([open(store), store.wait(w.id)!.closedBy], [[], 'pty-scrape'], 'the screen closes it');
  });

  it('choices too: an unverified word never gives a held wait its options; the screen’s stay', () => {
    const store = terminalA();
    const withOptions = (o: Observation, options: string[]) => ({ ...o, wait: { ...o.wait!, options } });
    store.observe(withOptions(screen(5000, 'waiting', { question: RM }), ['1. Yes', '2. No']));
    store.observe(withOptions(hook('unverified', 5100, 'waiting', 'S'), ['1. Yes, and don’t ask again']));
    store.observe(withOptions(hook('verified', 5200, 'waiting', 'S'), ['1. Yes', '2. Yes, always', '3. No']));
    assert.deepStrictEqual(store.waits()[0].options, ['1. Yes', '2. No'], 'the first trusted choices stay');
    const other = terminalA();
    other.observe(screen(5000, 'waiting'));
    other.observe(withOptions(hook('unverified', 5100, 'waiting', 'S'), ['1. Yes, and don’t ask again']));
    assert.strictEqual(other.waits()[0].options, undefined);
  });

  it('a wait an unverified hook opened: its own session’s later word ends it; another session’s, or one without an id, does not', () => {
    const store = terminalA();
    store.observe(hook('unverified', 5000, 'waiting', 'S', { question: 'Bash: npm test' }));
    assert.deepStrictEqual(open(store), ['permission:Bash: npm test'], 'an unverified word may open a wait');
    store.observe(hook('unverified', 6000, 'working', 'OTHER'));
    store.observe(hook('unverified', 6100, 'working', undefined));
    assert.deepStrictEqual(open(store), ['permission:Bash: npm test']);
    store.observe(hook('unverified', 6200, 'waiting', 'S', { question: 'Bash: rm -rf ~' }));
    assert.deepStrictEqual(open(store), ['permission:Bash: npm test'], 'not even its own session re-words a permission wait');
    store.observe(hook('unverified', 7000, 'working', 'S'));
    assert.deepStrictEqual([open(store), store.terminal('A')!.state], [[], 'working']);
  });

  it('once the screen has seen a wait an unverified hook opened, only trusted words end it', () => {
    const store = terminalA();
    store.observe(hook('unverified', 5000, 'waiting', 'S', { question: 'Bash: npm test' }));
    store.observe(screen(5200, 'waiting'));
    store.observe(hook('unverified', 7000, 'working', 'S'));
    assert.deepStrictEqual(open(store), ['permission:Bash: npm test']);
    store.observe(hook('verified', 7100, 'working', 'S'));
    assert.deepStrictEqual(open(store), []);
  });

  it('a verified word ends and words any wait; its text replaces one an unverified word gave first', () => {
    const store = terminalA();
    store.observe(hook('unverified', 5000, 'waiting', 'X', { question: 'Read: README.md' }));
    store.observe(screen(5100, 'waiting'));
    assert.deepStrictEqual(open(store), ['permission:Read: README.md']);
    store.observe(hook('verified', 5200, 'waiting', 'S', { question: RM }));
    assert.deepStrictEqual(open(store), [`permission:${RM}`], 'the real request’s text');
    store.observe(hook('unverified', 5300, 'waiting', 'X', { question: 'Read: README.md' }));
    assert.deepStrictEqual(open(store), [`permission:${RM}`]);
  });

  it('disproven words are never kept, with or without an open wait', () => {
    const store = terminalA();
    store.observe(hook('disproven', 5000, 'waiting', 'S', { question: 'Read: README.md' }));
    store.observe(hook('disproven', 5100, 'completed', 'S'));
    assert.deepStrictEqual([open(store), store.terminal('A')!.state, store.terminal('A')!.source], [[], 'working', 'pty-scrape']);
  });

  it('a verified sender from another terminal counts as unverified for this terminal’s session', () => {
    const store = terminalA();
    store.openTerminal('B', 'other');
    store.observe(hook('verified', 2000, 'working', 'S'));
    store.observe(screen(5000, 'waiting', { question: RM }));
    store.observe(hook('verified', 6000, 'working', 'S', { locator: { terminalId: 'B' } }));
    store.observe(hook('verified', 6100, 'working', 'S', { locator: { terminalId: undefined } }));
    assert.deepStrictEqual(open(store), [`permission:${RM}`]);
    assert.strictEqual(store.terminal('B')!.agent, 'shell', 'nor does it move the session to its terminal');
  });

  it('with no terminal (agent-lens serve), a verified sender speaks only for the agent process its session’s verified reports came from', () => {
    const store = new AgentStore();
    const at = (pid: number) => ({ locator: { terminalId: undefined, pid } });
    store.observe(hook('verified', 5000, 'waiting', 'S', { question: RM, ...at(100) }));
    store.observe(hook('verified', 6000, 'working', 'S', at(200)));
    const waits = () =>
      store
        .sessions()[0]
        .waits.filter((w) => w.closedAt === undefined)
        .map((w) => w.question);
    assert.deepStrictEqual(waits(), [RM], 'another process, verified in its own tree, is no witness for this session');
    store.observe(hook('verified', 7000, 'working', 'S', at(100)));
    assert.deepStrictEqual(waits(), []);
  });

  it('an unverified word for another agent does not end the agent the terminal runs', () => {
    const store = terminalA();
    store.observe(screen(5000, 'waiting', { question: RM }));
    const key = store.terminal('A')!.sessionKey;
    store.observe(hook('unverified', 6000, 'waiting', 'C', { agent: 'codex', question: 'Read: README.md' }));
    assert.deepStrictEqual(
      [store.terminal('A')!.sessionKey, store.terminal('A')!.agent, open(store)],
      [key, 'claude-code', [`permission:${RM}`]],
    );
    store.observe(hook('verified', 7000, 'working', 'C2', { agent: 'codex' }));
    assert.strictEqual(store.terminal('A')!.agent, 'codex', 'a verified one does: the terminal runs another agent now');
  });

  it('a log session linked to the terminal later brings no unverified word that would end its wait', () => {
    const store = new AgentStore({ agentsInFolder: () => 1 });
    store.openTerminal('A', 'victim');
    store.observe(screen(1000, 'working', { locator: { cwd: '/w' } }));
    store.observe(screen(5000, 'waiting', { question: RM, locator: { cwd: '/w' } }));
    // Names no terminal: an unlinked session by its id, then linked by folder (the only claude-code in /w).
    store.observe(hook('unverified', 6000, 'completed', 'L', { locator: { terminalId: undefined, cwd: '/w' } }));
    assert.deepStrictEqual(
      store.sessions().map((s) => [s.terminalId, s.agentSessionIds]),
      [['A', ['L']]],
      'linked',
    );
    assert.deepStrictEqual([open(store), store.terminal('A')!.state], [[`permission:${RM}`], 'waiting']);
  });
});
