import { enter, key, quit, type Scenario, type Step, wait, waitText } from '../../harness/scenario';
import { ALL_SCENARIOS } from '../../harness/scenarios/index';

/** A stored scenario of the harness (harness/scenarios), by agent and id. */
export function storedScenario(agent: string, id: string): Scenario {
  const s = ALL_SCENARIOS.find((x) => x.agent === agent && x.id === id);
  if (!s) throw new Error(`no scenario ${agent}/${id}`);
  return s;
}

/**
 * A stored approval scenario run live: its dialog held `holdMs` instead of the 15-s notification rule's 20 s
 * and more (the recordings cover that), and then, with `thenQuit`, the agent asked to quit.
 */
export function heldBriefly(agent: string, id: string, holdMs: number, thenQuit = false): Scenario {
  const s = storedScenario(agent, id);
  const steps: Step[] = s.steps.map((st) => (st.do === 'wait' && st.ms >= 15_000 ? wait(holdMs) : st));
  return { ...s, id: `live-${id}`, steps: [...steps, ...(thenQuit ? [quit()] : [])] };
}

/** With our hooks installed, Codex asks to review them at its next start: the user answers "Trust all". */
export function withOurHooks(s: Scenario): Scenario {
  if (s.agent !== 'codex') return s;
  const review: Step[] = [waitText(/Hooks need review/, 60_000, 'review dialog'), wait(1500), key('down'), wait(700), enter('trust all')];
  return { ...s, steps: [...review, ...s.steps] };
}
