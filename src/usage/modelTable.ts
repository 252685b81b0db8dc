/**
 * What Agent Lens knows of each model without asking anyone: its context window and its list price. Data only;
 * `figures.ts` applies it. Prices are USD per million tokens, as the providers' price pages listed them on
 * PRICES_CHECKED (each row names its page); the user may override any row (`agentLens.usage.prices`). A cost
 * computed from this table is always shown as estimated, with this date.
 */

export const PRICES_CHECKED = '2026-12-06';

export interface Price {
  input: number;
  output: number;
  /** Cache hits; absent: the provider does not discount them (input price). */
  cacheRead?: number;
  /** Cache writes (Anthropic's 5-minute writes); absent: input price. */
  cacheWrite?: number;
}

export interface ModelRow {
  /** The model id's start, lower case, after its provider prefix (`anthropic/`, `models/`) is dropped. Longest wins. */
  prefix: string;
  /** Tokens, as the provider documents the window (the agent may reserve part of it for its reply). */
  window?: number;
  price?: Price;
  /** Where the figures were read. */
  source: string;
}

export const MODEL_TABLE: readonly ModelRow[] = [
  {
    prefix: 'claude-opus-5',
    window: 1_000_000,
    price: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
    source: 'https://platform.claude.com/docs/en/about-claude/pricing',
  },
];
