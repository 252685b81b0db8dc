import * as l10n from '@vscode/l10n';
import { type Detection } from '../detect/types';
import { type AgentState, AT_REST, isAgentState } from '../common/states';
import { isAgentId } from '../common/agents';

/** One labelled interval of a recording's expected.json. */
export interface ExpectedInterval {
  t_from: number;
  t_to: number;
  state: AgentState;
  agent: string;
  accept?: AgentState[];
  note?: string;
  cue?: string;
}

export interface Agreement {
  /** idle, stopped and completed count as one "at rest" class. */
  atRest: number;
  /** States must be equal, or listed in the interval's `accept`. */
  strict: number;
  /** Seconds scored. */
  seconds: number;
  /** Largest disagreements, for reports. */
  misses: { t_from: number; t_to: number; expected: string; got: string }[];
}

export function parseExpected(text: string): ExpectedInterval[] {
  const raw = JSON.parse(text) as unknown;
  if (!Array.isArray(raw)) throw new Error(l10n.t('expected.json must be an array of {t_from, t_to, state, agent}'));
  return raw.map((x, i) => {
    const o = x as Record<string, unknown>;
    if (typeof o.t_from !== 'number' || typeof o.t_to !== 'number' || typeof o.state !== 'string' || !isAgentState(o.state)) {
      throw new Error(l10n.t('expected.json entry {0} needs numeric t_from/t_to and a known state', i));
    }
    const accept = Array.isArray(o.accept) ? (o.accept.filter((s) => typeof s === 'string' && isAgentState(s)) as AgentState[]) : undefined;
    return {
      t_from: o.t_from,
      t_to: o.t_to,
      state: o.state,
      agent: typeof o.agent === 'string' && isAgentId(o.agent) ? o.agent : String(o.agent),
      accept,
      note: o.note as string | undefined,
      cue: o.cue as string | undefined,
    };
  });
}

/** Startup intervals the labeller marked as skippable (the TUI is not drawn yet). */
export function isSkippable(iv: ExpectedInterval): boolean {
  return typeof iv.note === 'string' && /scorers may skip/.test(iv.note);
}

type Step = Pick<Detection, 't' | 'agent' | 'state'>;

function stateAt(detections: readonly Step[], t: number): Step {
  let cur = detections[0];
  for (const d of detections) {
    if (d.t <= t + 1e-9) cur = d;
    else break;
  }
  return cur;
}

/**
 * Time-weighted agreement between detections (a step function) and expected intervals. A slice agrees
 * when the agent matches and the state does (strictly, or as classes for `atRest`).
 */
export function agreement(
  detections: readonly Step[],
  expected: readonly ExpectedInterval[],
  opts: { skipStartup?: boolean } = {},
): Agreement {
  const sorted = [...detections].sort((a, b) => a.t - b.t);
  let total = 0;
  let okRest = 0;
  let okStrict = 0;
  const misses: Agreement['misses'] = [];
  for (const iv of expected) {
    if (opts.skipStartup !== false && isSkippable(iv)) continue;
    // Cut the interval at every detection change inside it.
    const cuts = [iv.t_from, ...sorted.filter((d) => d.t > iv.t_from && d.t < iv.t_to).map((d) => d.t), iv.t_to];
    for (let k = 0; k + 1 < cuts.length; k++) {
      const a = cuts[k];
      const b = cuts[k + 1];
      if (b <= a) continue;
      const d = stateAt(sorted, a);
      const len = b - a;
      total += len;
      const agentOk = d.agent === iv.agent;
      const strict = agentOk && (d.state === iv.state || (iv.accept ?? []).includes(d.state));
      const rest = strict || (agentOk && AT_REST.has(d.state) && (AT_REST.has(iv.state) || (iv.accept ?? []).some((s) => AT_REST.has(s))));
      if (strict) okStrict += len;
      if (rest) okRest += len;
      else misses.push({ t_from: a, t_to: b, expected: `${iv.agent}/${iv.state}`, got: `${d.agent}/${d.state}` });
    }
  }
  misses.sort((x, y) => y.t_to - y.t_from - (x.t_to - x.t_from));
  return { atRest: total ? okRest / total : 1, strict: total ? okStrict / total : 1, seconds: total, misses: misses.slice(0, 5) };
}
