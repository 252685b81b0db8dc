/**
 * What Agent Lens knows of each model without asking anyone: its context window and its list price. Data only;
 * `figures.ts` applies it. Prices are USD per million tokens, as the providers' price pages listed them on
 * PRICES_CHECKED (each row names its page); the user may override any row (`agentLens.usage.prices`). A cost
 * computed from this table is always shown as estimated, with this date.
 *
 * Tiered prices: where a provider charges more once a prompt passes a size (Claude Haiku 5.5 over 100K, Sonnet 4.x
 * over 200K, OpenAI GPT-5.4 and later over 272K, Gemini Pro over 200K, Qwen by input band), a row holds the base
 * (smallest-prompt) tier: the table has no per-call prompt size, so a long prompt's cost is underestimated.
 *
 * Windows are the window the agent itself fills against when its log does not say (the figure its own status
 * shows), which is not always the provider's maximum; a comment says where they differ.
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

/*
 * Anthropic: every figure equals Claude Code 2.1.328's own baked model catalog (its `pricing_tiers` and each model's
 * `context.window`), which matches the pricing page. cacheWrite is the 5-minute write (1.25× input); Claude Code
 * writes most of its cache for 1 hour (2× input), which the Tokens shape does not tell apart.
 * Windows: Claude Code fills Sonnet 4.x and Opus 4.5/4.6 against 200K unless the user picks the `[1m]` variant (the
 * API offers up to 1M); the transcript's model id does not carry `[1m]`. From Opus 4.7 / Sonnet 5 on, 1M is native.
 */
const CLAUDE = 'https://platform.claude.com/docs/en/about-claude/pricing';
const M1 = 1_000_000;
const K200 = 200_000;

/*
 * OpenAI: windows are Codex 0.169.0's bundled catalog (`context_window`, 272K for the GPT-5.x and 6.x it lists,
 * 500K for gpt-6.1-terra); the API accepts up to 1.05M at the long-context price. Codex logs the window it uses
 * (`model_context_window`, 95 % of this: 258400), which wins over the table. Qwen Code also assumes 272K for gpt-5*.
 * GPT-5.6 and later bill cache writes (30-minute writes, 1.25× input); older models have none (input price).
 * The GPT-5.6 and 6.x figures are also on each model's page (developers.openai.com/api/docs/models/<id>).
 */
const OPENAI = 'https://developers.openai.com/api/docs/pricing';
const K272 = 272_000;
const GPT41 = 1_047_576;

/*
 * Google: Gemini CLI 0.61.0's tokenLimit() gives every Gemini model 1,048,576 and Gemma 4 256K. Paid tier, text
 * input; Gemini caches implicitly (no write price; storage of explicit caches is not a token price).
 */
const GEMINI = 'https://ai.google.dev/gemini-api/docs/pricing';
const G1M = 1_048_576;

/*
 * Qwen: DashScope international (Singapore) list price, base input band. Qwen Code 0.24.4 marks `cache_control` on
 * its DashScope requests, so its hits and writes are explicit-cache ones: creation 125 % and hits 10 % of input
 * (Alibaba's context-cache page). Windows are Qwen Code's tokenLimits (qwen3.x, coder-model and the coder
 * plus/flash 1M; qwen3-max 256K).
 */
const QWEN = 'https://www.alibabacloud.com/help/en/model-studio/models';

/*
 * Others that the agents' defaults name (pi's per-provider defaults, droid's and Qwen Code's lists). Figures as
 * models.dev records these pages (its snapshot bundled in OpenCode 1.18.33); windows as Qwen Code assumes them.
 */
const MOONSHOT = 'https://platform.kimi.ai/docs/pricing/chat';
const ZAI = 'https://docs.z.ai/guides/overview/pricing';
const MINIMAX = 'https://platform.minimax.io/docs/guides/pricing-paygo';
const DEEPSEEK = 'https://api-docs.deepseek.com/quick_start/pricing';

export const MODEL_TABLE: readonly ModelRow[] = [
  // Anthropic. Fable and Mythos are one model with different safeguards and one price.
  { prefix: 'claude-fable-5-2', window: M1, price: { input: 8, output: 40, cacheRead: 0.2, cacheWrite: 10 }, source: CLAUDE },
  { prefix: 'claude-fable-5-1', window: M1, price: { input: 10, output: 50, cacheRead: 0.25, cacheWrite: 12.5 }, source: CLAUDE },
  { prefix: 'claude-fable-5', window: M1, price: { input: 10, output: 50, cacheRead: 1, cacheWrite: 12.5 }, source: CLAUDE },
  { prefix: 'claude-mythos-5-2', window: M1, price: { input: 8, output: 40, cacheRead: 0.2, cacheWrite: 10 }, source: CLAUDE },
  { prefix: 'claude-mythos-5-1', window: M1, price: { input: 10, output: 50, cacheRead: 0.25, cacheWrite: 12.5 }, source: CLAUDE },
  { prefix: 'claude-mythos-5', window: M1, price: { input: 10, output: 50, cacheRead: 1, cacheWrite: 12.5 }, source: CLAUDE },
  { prefix: 'claude-opus-5-5', window: M1, price: { input: 4, output: 20, cacheRead: 0.2, cacheWrite: 5 }, source: CLAUDE },
  { prefix: 'claude-opus-5', window: M1, price: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 }, source: CLAUDE },
  { prefix: 'claude-opus-4-8', window: M1, price: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 }, source: CLAUDE },
  { prefix: 'claude-opus-4-7', window: M1, price: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 }, source: CLAUDE },
  // API: 1M; Claude Code: 200K unless `[1m]`.
  { prefix: 'claude-opus-4-6', window: K200, price: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 }, source: CLAUDE },
  { prefix: 'claude-opus-4-5', window: K200, price: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 }, source: CLAUDE },
  { prefix: 'claude-opus-4-1', window: K200, price: { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 }, source: CLAUDE },
  // Opus 4: claude-opus-4-0 and claude-opus-4-20250514.
  { prefix: 'claude-opus-4', window: K200, price: { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 }, source: CLAUDE },
  // Sonnet 5.5's cache hits were cut to 0.05× input on 2026-10-07.
  { prefix: 'claude-sonnet-5-5', window: M1, price: { input: 2, output: 10, cacheRead: 0.1, cacheWrite: 2.5 }, source: CLAUDE },
  { prefix: 'claude-sonnet-5', window: M1, price: { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 }, source: CLAUDE },
  // Sonnet 4.x: API up to 1M (2× input, 1.5× output past 200K); Claude Code: 200K unless `[1m]`.
  { prefix: 'claude-sonnet-4-6', window: K200, price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, source: CLAUDE },
  { prefix: 'claude-sonnet-4-5', window: K200, price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, source: CLAUDE },
  { prefix: 'claude-sonnet-4', window: K200, price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, source: CLAUDE },
  { prefix: 'claude-3-7-sonnet', window: K200, price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, source: CLAUDE },
  { prefix: 'claude-3-5-sonnet', window: K200, price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, source: CLAUDE },
  // Haiku 5.5: prompts up to 100K; a longer prompt pays 5× on every token of that call.
  { prefix: 'claude-haiku-5-5', window: M1, price: { input: 0.1, output: 0.5, cacheRead: 0.01, cacheWrite: 0.125 }, source: CLAUDE },
  { prefix: 'claude-haiku-4-5', window: K200, price: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 }, source: CLAUDE },
  { prefix: 'claude-3-5-haiku', window: K200, price: { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 }, source: CLAUDE },

  // OpenAI, prompts up to 272K (past that: 2× input and cache, 1.5× output).
  { prefix: 'gpt-6.1-sol', window: K272, price: { input: 2, output: 10, cacheRead: 0.1, cacheWrite: 2.5 }, source: OPENAI },
  { prefix: 'gpt-6.1-terra', window: 500_000, price: { input: 1, output: 5, cacheRead: 0.05, cacheWrite: 1.25 }, source: OPENAI },
  { prefix: 'gpt-6-astra', window: K272, price: { input: 10, output: 50, cacheRead: 1, cacheWrite: 12.5 }, source: OPENAI },
  { prefix: 'gpt-6-sol', window: K272, price: { input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 }, source: OPENAI },
  { prefix: 'gpt-6-luna', window: K272, price: { input: 0.1, output: 0.5, cacheRead: 0.01, cacheWrite: 0.125 }, source: OPENAI },
  // List price; OpenAI's $4 / $20 / $0.40 promotion was guaranteed only through 2026-11-21.
  { prefix: 'gpt-5.6-sol', window: K272, price: { input: 5, output: 30, cacheRead: 0.5, cacheWrite: 6.25 }, source: OPENAI },
  { prefix: 'gpt-5.6-terra', window: K272, price: { input: 2, output: 12, cacheRead: 0.2, cacheWrite: 2.5 }, source: OPENAI },
  { prefix: 'gpt-5.6-luna', window: K272, price: { input: 0.2, output: 1.2, cacheRead: 0.02, cacheWrite: 0.25 }, source: OPENAI },
  { prefix: 'gpt-5.5', window: K272, price: { input: 5, output: 30, cacheRead: 0.5 }, source: OPENAI },
  { prefix: 'gpt-5.4-mini', window: K272, price: { input: 0.75, output: 4.5, cacheRead: 0.075 }, source: OPENAI },
  { prefix: 'gpt-5.4-nano', window: K272, price: { input: 0.2, output: 1.25, cacheRead: 0.02 }, source: OPENAI },
  { prefix: 'gpt-5.4', window: K272, price: { input: 2.5, output: 15, cacheRead: 0.25 }, source: OPENAI },
  { prefix: 'gpt-5.3-codex-spark', window: 128_000, price: { input: 1.75, output: 14, cacheRead: 0.175 }, source: OPENAI },
  { prefix: 'gpt-5.3-codex', window: K272, price: { input: 1.75, output: 14, cacheRead: 0.175 }, source: OPENAI },
  // gpt-5.2 and gpt-5.2-codex.
  { prefix: 'gpt-5.2', window: K272, price: { input: 1.75, output: 14, cacheRead: 0.175 }, source: OPENAI },
  { prefix: 'gpt-5.1-codex-mini', window: K272, price: { input: 0.25, output: 2, cacheRead: 0.025 }, source: OPENAI },
  // gpt-5.1, gpt-5.1-codex and gpt-5.1-codex-max.
  { prefix: 'gpt-5.1', window: K272, price: { input: 1.25, output: 10, cacheRead: 0.125 }, source: OPENAI },
  { prefix: 'gpt-5-mini', window: K272, price: { input: 0.25, output: 2, cacheRead: 0.025 }, source: OPENAI },
  { prefix: 'gpt-5-nano', window: K272, price: { input: 0.05, output: 0.4, cacheRead: 0.005 }, source: OPENAI },
  // gpt-5, its dated id and gpt-5-codex.
  { prefix: 'gpt-5', window: K272, price: { input: 1.25, output: 10, cacheRead: 0.125 }, source: OPENAI },
  // GPT-4.1: Copilot logs the prompt limit it applies (`maxPromptTokens`), far below the API's window.
  { prefix: 'gpt-4.1-mini', window: GPT41, price: { input: 0.4, output: 1.6, cacheRead: 0.1 }, source: OPENAI },
  { prefix: 'gpt-4.1-nano', window: GPT41, price: { input: 0.1, output: 0.4, cacheRead: 0.025 }, source: OPENAI },
  { prefix: 'gpt-4.1', window: GPT41, price: { input: 2, output: 8, cacheRead: 0.5 }, source: OPENAI },
  { prefix: 'gpt-4o-mini', window: 128_000, price: { input: 0.15, output: 0.6, cacheRead: 0.075 }, source: OPENAI },
  { prefix: 'gpt-4o', window: 128_000, price: { input: 2.5, output: 10, cacheRead: 1.25 }, source: OPENAI },
  { prefix: 'codex-mini-latest', window: K200, price: { input: 1.5, output: 6, cacheRead: 0.375 }, source: OPENAI },
  { prefix: 'o4-mini', window: K200, price: { input: 1.1, output: 4.4, cacheRead: 0.275 }, source: OPENAI },
  { prefix: 'o3-mini', window: K200, price: { input: 1.1, output: 4.4, cacheRead: 0.55 }, source: OPENAI },
  { prefix: 'o3-pro', window: K200, price: { input: 20, output: 80 }, source: OPENAI },
  { prefix: 'o3', window: K200, price: { input: 2, output: 8, cacheRead: 0.5 }, source: OPENAI },
  { prefix: 'o1-pro', window: K200, price: { input: 150, output: 600 }, source: OPENAI },
  { prefix: 'o1', window: K200, price: { input: 15, output: 60, cacheRead: 7.5 }, source: OPENAI },

  // Google Gemini. gemini-3.8-flash is Gemini CLI's latest Flash, gemini-3.5-flash-lite its latest Flash-Lite.
  { prefix: 'gemini-3.8-flash', window: G1M, price: { input: 0.75, output: 3.75, cacheRead: 0.075 }, source: GEMINI },
  { prefix: 'gemini-3.7-flash', window: G1M, price: { input: 0.75, output: 3.75, cacheRead: 0.075 }, source: GEMINI },
  { prefix: 'gemini-3.6-flash', window: G1M, price: { input: 0.75, output: 3.75, cacheRead: 0.075 }, source: GEMINI },
  { prefix: 'gemini-3.5-flash-lite', window: G1M, price: { input: 0.3, output: 2.5, cacheRead: 0.03 }, source: GEMINI },
  { prefix: 'gemini-3.5-flash', window: G1M, price: { input: 1.5, output: 9, cacheRead: 0.15 }, source: GEMINI },
  { prefix: 'gemini-3.1-flash-lite', window: G1M, price: { input: 0.25, output: 1.5, cacheRead: 0.025 }, source: GEMINI },
  // Pro models: prompts up to 200K (past that 2× input, 1.5× output). 3.1 Pro also as -preview-customtools.
  { prefix: 'gemini-3.1-pro', window: G1M, price: { input: 2, output: 12, cacheRead: 0.2 }, source: GEMINI },
  { prefix: 'gemini-3-pro', window: G1M, price: { input: 2, output: 12, cacheRead: 0.2 }, source: GEMINI },
  // gemini-3-flash-preview, and gemini-3-flash (Gemini CLI's legacy Flash).
  { prefix: 'gemini-3-flash', window: G1M, price: { input: 0.5, output: 3, cacheRead: 0.05 }, source: GEMINI },
  { prefix: 'gemini-2.5-pro', window: G1M, price: { input: 1.25, output: 10, cacheRead: 0.125 }, source: GEMINI },
  { prefix: 'gemini-2.5-flash-lite', window: G1M, price: { input: 0.1, output: 0.4, cacheRead: 0.01 }, source: GEMINI },
  { prefix: 'gemini-2.5-flash', window: G1M, price: { input: 0.3, output: 2.5, cacheRead: 0.03 }, source: GEMINI },
  // Gemma 4 (gemma-4-31b-it, gemma-4-26b-a4b-it): no paid price on the Gemini API.
  { prefix: 'gemma-4', window: 256_000, source: GEMINI },

  // Qwen. qwen3.7-max is Qwen Code's default for an API key; coder-model (Qwen OAuth, Qwen 3.7 Max) has no token price.
  { prefix: 'qwen3.8-max', window: M1, price: { input: 2, output: 6, cacheRead: 0.2, cacheWrite: 2.5 }, source: QWEN },
  { prefix: 'qwen3.8-flash', window: M1, price: { input: 0.15, output: 0.47, cacheRead: 0.015, cacheWrite: 0.1875 }, source: QWEN },
  { prefix: 'qwen3.7-max', window: M1, price: { input: 2.5, output: 7.5, cacheRead: 0.25, cacheWrite: 3.125 }, source: QWEN },
  // Plus: prompts up to 256K.
  { prefix: 'qwen3.7-plus', window: M1, price: { input: 0.5, output: 3, cacheRead: 0.05, cacheWrite: 0.625 }, source: QWEN },
  { prefix: 'qwen3.6-plus', window: M1, price: { input: 0.5, output: 3, cacheRead: 0.05, cacheWrite: 0.625 }, source: QWEN },
  // Coder plus / flash and qwen3-max: prompts up to 32K (four bands up to 1M; 256K for qwen3-max).
  { prefix: 'qwen3-coder-plus', window: M1, price: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 }, source: QWEN },
  { prefix: 'qwen3-coder-flash', window: M1, price: { input: 0.3, output: 1.5, cacheRead: 0.03, cacheWrite: 0.375 }, source: QWEN },
  { prefix: 'qwen3-max', window: 262_144, price: { input: 1.2, output: 6, cacheRead: 0.12, cacheWrite: 1.5 }, source: QWEN },
  { prefix: 'coder-model', window: M1, source: 'https://github.com/QwenLM/qwen-code/blob/main/packages/core/src/core/tokenLimits.ts' },

  // Others.
  { prefix: 'kimi-k3', window: 1_048_576, price: { input: 3, output: 15, cacheRead: 0.3 }, source: MOONSHOT },
  { prefix: 'kimi-k2.6', window: 262_144, price: { input: 0.95, output: 4, cacheRead: 0.16 }, source: MOONSHOT },
  { prefix: 'glm-5.3-flash', window: M1, price: { input: 0.15, output: 0.5, cacheRead: 0.03 }, source: ZAI },
  { prefix: 'glm-5.3', window: M1, price: { input: 1.4, output: 4.4, cacheRead: 0.26 }, source: ZAI },
  { prefix: 'glm-5.2', window: M1, price: { input: 1.4, output: 4.4, cacheRead: 0.26 }, source: ZAI },
  // Z.ai: 200K; Qwen Code: 202,752.
  { prefix: 'glm-5.1', window: 202_752, price: { input: 1.4, output: 4.4, cacheRead: 0.26 }, source: ZAI },
  // Prompts up to 512K.
  { prefix: 'minimax-m3', window: M1, price: { input: 0.3, output: 1.2, cacheRead: 0.06 }, source: MINIMAX },
  { prefix: 'minimax-m2.7', window: 204_800, price: { input: 0.3, output: 1.2, cacheRead: 0.06, cacheWrite: 0.375 }, source: MINIMAX },
  // DeepSeek bills peak and off-peak hours differently since 2026-08-16 (one list price does not exist): window only.
  { prefix: 'deepseek-v4-pro', window: M1, source: DEEPSEEK },
  { prefix: 'deepseek-v4-flash', window: M1, source: DEEPSEEK },
];
