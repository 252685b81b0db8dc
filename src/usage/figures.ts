import type { SessionUsage } from './book';
import { MODEL_TABLE, type ModelRow, type Price, PRICES_CHECKED } from './modelTable';
import { type Tokens, totalTokens } from '../common/usage';

/** One session's figures as every view shows them (tree row, tooltip, details, status --json, the API). */
export interface UsageFigures {
  agent: string;
  session: string;
  model?: string;
  turns: number;
  tokens: Tokens;
  contextUsed?: number;
  contextWindow?: number;
  /** (contextUsed − baseline) ÷ (contextWindow − baseline), 0…1 (may pass 1 when the agent is about to compact). */
  contextFill?: number;
  cost?: number;
  costSource: 'log' | 'estimated' | null;
  /** The price table's date, for an estimated cost. */
  pricesChecked?: string;
  /** Tokens of each finished turn, oldest first (the sparkline), and their wall time. */
  turnTokens: number[];
  turnMs: number[];
  lastReply?: string;
  /** Counted since Agent Lens began reading the log's tail, not since the session began. */
  partial: boolean;
  updatedAt: number;
}

/** The model table with the user's overrides first (a user's row wins over a shipped one of the same prefix). */
export class ModelFacts {
  private readonly rows: readonly ModelRow[];

  constructor(overrides: readonly ModelRow[] = []) {
    this.rows = [...overrides, ...MODEL_TABLE];
  }

  /** The row of the longest prefix the model id starts with; ties go to the user's row. */
  find(model: string | undefined): ModelRow | undefined {
    if (!model) return undefined;
    const id = normalizeModel(model);
    let best: ModelRow | undefined;
    for (const r of this.rows) if (startsWord(id, r.prefix) && (!best || r.prefix.length > best.prefix.length)) best = r;
    return best;
  }
}

/** `prefix` starts `id` and ends at a separator or at its end: `gpt-5` covers `gpt-5-mini`, never `gpt-50`. */
function startsWord(id: string, prefix: string): boolean {
  if (!id.startsWith(prefix)) return false;
  if (id.length === prefix.length || /[-@[:._/ ]$/.test(prefix)) return true;
  return '-@[:._/ '.includes(id[prefix.length]);
}

/**
 * `anthropic/Claude-Opus-5-5` → `claude-opus-5-5`: lower case, without a provider, `models/` or Bedrock
 * `us.anthropic.` prefix. Copilot and droid write Claude versions dotted (`claude-sonnet-4.5`); Anthropic's id is
 * dashed, and a dotted one would fall to the family's oldest row (`claude-opus-4.5` on Opus 4, 3× the price), so
 * the dot becomes a dash, as Claude Code's own id parser does.
 */
export function normalizeModel(model: string): string {
  let id = model.trim().toLowerCase();
  const slash = id.lastIndexOf('/');
  if (slash >= 0) id = id.slice(slash + 1);
  id = id.replace(/^(?:[a-z]{2,6}\.)?anthropic\./, '');
  return id.replace(/^(claude-[a-z]+-\d{1,2})\.(\d)/, '$1-$2');
}

export function figures(s: SessionUsage, facts: ModelFacts): UsageFigures {
  const row = facts.find(s.model);
  const contextWindow = s.contextWindow ?? row?.window;
  const out: UsageFigures = {
    agent: s.agent,
    session: s.sessionId,
    turns: s.turns,
    tokens: { ...s.tokens },
    costSource: null,
    turnTokens: [...s.turnTokens],
    turnMs: [...s.turnMs],
    partial: !!s.partial,
    updatedAt: s.updatedAt,
  };
  if (s.model) out.model = s.model;
  if (s.contextUsed !== undefined) out.contextUsed = s.contextUsed;
  if (contextWindow) out.contextWindow = contextWindow;
  if (s.contextUsed !== undefined && contextWindow) out.contextFill = contextFill(s.contextUsed, contextWindow, s.contextBaseline ?? 0);
  if (s.lastReply) out.lastReply = s.lastReply;
  Object.assign(out, cost(s, facts));
  return out;
}

/** The agent's own fill: a baseline always in the context (Codex's 12,000) is left out of both sides. */
export function contextFill(used: number, window: number, baseline: number): number {
  return window > baseline ? Math.max(0, used - baseline) / (window - baseline) : used / window;
}

/** The log's own cost when it priced every call; else an estimate when every model used has a price; else none. */
function cost(s: SessionUsage, facts: ModelFacts): Pick<UsageFigures, 'cost' | 'costSource' | 'pricesChecked'> {
  if (s.calls > 0 && s.pricedCalls === s.calls) return { cost: s.loggedCost, costSource: 'log' };
  let sum = 0;
  for (const [model, tokens] of s.byModel) {
    if (totalTokens(tokens) === 0) continue;
    const price = facts.find(model)?.price;
    if (!price) return { costSource: null };
    sum += priced(tokens, price);
  }
  if (totalTokens(s.tokens) === 0) return { costSource: null };
  return { cost: sum, costSource: 'estimated', pricesChecked: PRICES_CHECKED };
}

export function priced(t: Tokens, p: Price): number {
  return (
    (t.input * p.input + t.output * p.output + t.cacheRead * (p.cacheRead ?? p.input) + t.cacheWrite * (p.cacheWrite ?? p.input)) / 1e6
  );
}

/**
 * The figures as JSON, one shape everywhere they leave the window (`agent-lens replay --usage`, `status --json`,
 * the extension API): absent figures are null, not missing. The last reply is not in it: it is the agent's text,
 * for the user's eyes in the views, not for every process that holds the hub's token.
 */
export interface UsageJson {
  session: string;
  agent: string;
  model: string | null;
  turns: number;
  tokens: Tokens;
  contextUsed: number | null;
  contextWindow: number | null;
  cost: number | null;
  costSource: 'log' | 'estimated' | null;
  pricesChecked: string | null;
  partial: boolean;
}

export function usageJson(f: UsageFigures): UsageJson {
  return {
    session: f.session,
    agent: f.agent,
    model: f.model ?? null,
    turns: f.turns,
    tokens: { ...f.tokens },
    contextUsed: f.contextUsed ?? null,
    contextWindow: f.contextWindow ?? null,
    cost: f.cost === undefined ? null : Math.round(f.cost * 1e6) / 1e6,
    costSource: f.costSource,
    pricesChecked: f.pricesChecked ?? null,
    partial: f.partial,
  };
}
