/**
 * How each real agent's dialog is answered from VS Code in a run of the answering rig (./rig.ts), through the same
 * calls the Needs-you row's buttons make: a held request answered with its handle (Claude Code's hook, OpenCode's
 * plugin), the option's key read off the screen (Codex, Gemini CLI), or a selector's option picked with the arrow
 * keys and Enter (pi). The live tests (test/live/answer*.live.test.ts) and `npm run bench` both run them.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { call, key, type Scenario, type Step, submit, wait, waitText, enter } from '../scenario';
import { ALL_SCENARIOS } from '../scenarios/index';
import { BASH_RM, CLAUDE, ready as claudeReady } from '../scenarios/claudeCues';
import { OPENCODE } from '../scenarios/opencode';
import { KILO } from '../scenarios/kilocode';
import type { OpenCodeFamily } from '../../src/agents/opencode/family';
import type { AgentHome } from '../homes';
import { AGENTS } from '../../src/agents/registry';
import { answerMenu, type MenuReader, shapeReader } from '../../src/answer/cursorMenu';
import { matchesScreen, type PendingRequest } from '../../src/answer/pending';
import { answerWithKey, type KeyChoice, type KeyOutcome } from '../../src/answer/screenKeys';
import type { Decision } from '../../src/hooks/decision';
import { offered, type Rig, type RigAgent, until } from './rig';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The row's Allow / Deny / Choose for a held request: offered, a moment later still on screen, answered. */
export const heldAnswer = (rig: Rig, kind: 'permission' | 'question', decide: (r: PendingRequest) => Decision): Step =>
  call(async () => {
    const r = await offered(rig, kind);
    await sleep(1100); // Allow is offered only after a moment
    // The window offers buttons only while the screen shows the held command (matchesScreen): it does here.
    if (!matchesScreen(r, rig.screen())) return `the screen does not show the held command: ${rig.screen().join('\n')}`;
    rig.sentAt = Date.now();
    const outcome = rig.pending.answer(r.handle, decide(r));
    return outcome === 'sent' ? undefined : `answer ${outcome}`;
  }, `answer ${kind}`);

/** Claude Code asked to clean the build output: its Bash dialog, then `steps`. */
export function claudeScenario(id: string, steps: Step[], turns: Scenario['mock']['turns']): Scenario {
  return {
    id: `live-answer-${id}`,
    agent: 'claude-code',
    description: id,
    mock: { title: 'Clean build output', turns },
    steps: [claudeReady, wait(1500), ...submit('clean the build output'), waitText(CLAUDE.permission, 30_000, 'dialog visible'), ...steps],
    tailMs: 0,
    expect: [],
  };
}

export const CLAUDE_RM = {
  tool: { type: 'tool' as const, name: 'Bash', text: "I'll remove the build directory.", input: BASH_RM },
  done: { type: 'text' as const, text: 'Done: the build/ directory has been removed.\n', chunks: 'lines' as const },
};

export const OPENCODE_READY: Step[] = [waitText(OPENCODE.ready, 60_000, 'home visible'), waitText(OPENCODE.agentLine, 20_000), wait(2500)];
export const OPENCODE_WC = { command: 'wc -l README.md', description: 'Count lines in README.md' };
export const KILO_READY: Step[] = [waitText(KILO.ready, 60_000, 'home visible'), waitText(KILO.agentLine, 20_000), wait(2500)];

/** An OpenCode (or Kilo) run of `steps` against a mock that plays `turns`. */
export function opencodeScenario(
  id: string,
  turns: Scenario['mock']['turns'],
  steps: Step[],
  agent: OpenCodeFamily = 'opencode',
): Scenario {
  return {
    id: `live-answer-${agent}-${id}`,
    agent,
    description: id,
    mock: { title: 'Answer', turns },
    steps,
    tailMs: 0,
    expect: [],
  };
}

/** A stored scenario of `agent`, its dialog (shown at the step marked `dialog visible`) answered by `answer`. */
export function storedWithAnswer(
  agent: string,
  id: string,
  answer: Step,
  o: { before?: Step[]; change?: Partial<Scenario>; dialog?: RegExp; done?: RegExp } = {},
): Scenario {
  const s = ALL_SCENARIOS.find((x) => x.agent === agent && x.id === id);
  if (!s) throw new Error(`no scenario ${agent}/${id}`);
  const shown = s.steps.findIndex((st) => st.do === 'waitText' && st.mark === 'dialog visible');
  const finished = s.steps.findIndex((st, i) => i > shown && st.do === 'waitText');
  if (shown < 0 || finished < 0) throw new Error(`scenario ${agent}/${id} has no marked dialog`);
  const steps = [
    ...(o.before ?? []),
    ...s.steps.slice(0, shown),
    o.dialog ? waitText(o.dialog, 30_000, 'dialog visible') : s.steps[shown],
    wait(1500),
    answer,
    o.done ? waitText(o.done, 30_000, 'turn finished') : s.steps[finished],
    ...s.steps.slice(finished + 1),
  ];
  return { ...s, ...o.change, id: `live-answer-${agent}-${id}`, expect: [], steps };
}

/** Codex asks first to trust the hooks Agent Lens installed: trusted, as a user does once. */
export const CODEX_TRUST: Step[] = [
  waitText(/Hooks need review/, 60_000, 'review dialog'),
  wait(1500),
  key('down'),
  wait(700),
  enter('trust all'),
];

/** The row's Allow / Deny for Codex's or Gemini CLI's dialog: the hook-reported wait, its command, the screen, the key. */
/** A key answer staged to be refused: the command required changed, or the screen as read changed between reads. */
export interface KeyRun {
  mustShow?: (reported: string) => string;
  /** The n-th read of the screen (0, 1, …), as the answer sees it. */
  reread?: (rows: string[], n: number) => string[];
}

export const byKey = (rig: Rig, agent: string, choice: KeyChoice, got: (o: KeyOutcome) => void, o: KeyRun = {}): Step =>
  call(async (terminal) => {
    const w = await until(() => rig.store.waits().find((x) => x.kind === 'permission' && x.seenBy.includes('hook')));
    assert.ok(w.detail, `the hook reported the command: ${JSON.stringify(w)}`);
    rig.sentAt = Date.now();
    let reads = 0;
    const out = await answerWithKey(
      {
        rows: () => (o.reread ? o.reread(rig.screen(), reads++) : rig.screen()),
        write: (d) => terminal.write(d),
        mayType: async () => rig.store.wait(w.id)?.closedAt === undefined,
        sleep,
      },
      AGENTS.find((a) => a.id === agent)!.dialogKeys!,
      choice,
      o.mustShow ? o.mustShow(w.detail) : w.detail,
    );
    got(out);
    const staged = !!(o.mustShow || o.reread);
    if (staged && !out.ok) terminal.write('\r'); // the user answers in the terminal instead
    return out.ok || staged ? undefined : `not answered: ${out.why}`;
  }, `answer ${choice} by key`);

export const PI_MENU = shapeReader(AGENTS.find((a) => a.id === 'pi')!.menu!);

/** How a selector is answered in a run: whose, read how, and optionally offered as another dialog than the one shown. */
export interface MenuRun {
  agent?: RigAgent;
  reader?: MenuReader;
  /** Offers the dialog with its title changed (then the user answers in the terminal). */
  alter?: (title: string) => string;
}

/** The row's *Choose…* for a selector (pi's by default): the dialog offered from the screen, then `label` picked in it. */
export const menuChoice = (rig: Rig, label: string, got: (o: KeyOutcome) => void, o: MenuRun = {}): Step =>
  call(async (terminal) => {
    const { agent = 'pi', reader = PI_MENU, alter } = o;
    const open = () => rig.store.waits().find((w) => w.agent === agent && w.closedAt === undefined);
    await until(open);
    const seen = await until(() => reader.read(rig.screen()));
    rig.sentAt = Date.now();
    const out = await answerMenu(
      { rows: rig.screen, write: (d) => terminal.write(d), mayType: async () => open() !== undefined, sleep },
      reader,
      alter ? { ...seen, title: alter(seen.title) } : seen,
      label,
    );
    got(out);
    if (alter) terminal.write('\r'); // the user answers in the terminal instead
    return out.ok || alter ? undefined : `not answered: ${out.why}`;
  }, `choose “${label}”`);

/** A pi extension with one tool that asks with pi's own selector and gives the model the answer. */
export const PI_ASKING_EXTENSION = `export default function (pi: any) {
  pi.registerTool({
    name: 'pick_database',
    label: 'Pick database',
    description: 'Ask the user which database the app should use.',
    parameters: { type: 'object', properties: {} },
    async execute(_id: string, _params: unknown, _signal: unknown, _onUpdate: unknown, ctx: any) {
      const choice = await ctx.ui.select('Which database should the app use?', ['SQLite', 'Postgres', 'MySQL']);
      return { content: [{ type: 'text', text: 'Chosen: ' + (choice ?? 'nothing') }], details: {} };
    },
  });
}
`;

export const installAskingExtension = (h: AgentHome): void =>
  fs.writeFileSync(path.join(h.home, '.pi', 'agent', 'extensions', 'ask-database.ts'), PI_ASKING_EXTENSION);

/** Each agent's permission dialog allowed once from VS Code, the way its row does it: what the bench times. */
export const ALLOW_ONCE: Record<RigAgent, (rig: Rig) => Scenario> = {
  'claude-code': (rig) =>
    claudeScenario(
      'allow',
      [
        heldAnswer(rig, 'permission', () => ({ behavior: 'allow' })),
        waitText(/Allowed by PermissionRequest hook/, 15_000, 'allowed by the hook'),
        waitText(CLAUDE.completed, 30_000, 'turn finished'),
      ],
      [CLAUDE_RM.tool, CLAUDE_RM.done],
    ),
  opencode: (rig) =>
    opencodeScenario(
      'allow',
      [
        { type: 'tool', name: 'bash', text: 'I will count the lines in README.md.', input: OPENCODE_WC },
        { type: 'text', text: 'Done.\n', chunks: 'lines' },
      ],
      [
        ...OPENCODE_READY,
        ...submit('how many lines are in README.md?'),
        waitText(OPENCODE.permission, 60_000, 'dock visible'),
        heldAnswer(rig, 'permission', () => ({ behavior: 'allow' })),
        waitText(OPENCODE.completed, 60_000, 'turn finished'),
      ],
    ),
  kilocode: (rig) =>
    opencodeScenario(
      'allow',
      [
        { type: 'tool', name: 'bash', text: 'I will count the lines in README.md.', input: OPENCODE_WC },
        { type: 'text', text: 'Done.\n', chunks: 'lines' },
      ],
      [
        ...KILO_READY,
        ...submit('how many lines are in README.md?'),
        waitText(KILO.permission, 60_000, 'dock visible'),
        heldAnswer(rig, 'permission', () => ({ behavior: 'allow' })),
        waitText(KILO.completed, 60_000, 'turn finished'),
      ],
      'kilocode',
    ),
  codex: (rig) =>
    storedWithAnswer(
      'codex',
      '04-approval-approve',
      byKey(rig, 'codex', 'allow', () => undefined),
      { before: CODEX_TRUST },
    ),
  gemini: (rig) =>
    storedWithAnswer(
      'gemini',
      '04-shell-approve',
      byKey(rig, 'gemini', 'allow', () => undefined),
    ),
  qwen: (rig) =>
    storedWithAnswer(
      'qwen',
      '04-shell-approve',
      byKey(rig, 'qwen', 'allow', () => undefined),
    ),
  pi: (rig) =>
    storedWithAnswer(
      'pi',
      '04-gate-approve',
      menuChoice(rig, 'Yes', () => undefined),
    ),
};
