import { z } from 'zod';
import type { ModelRow } from './modelTable';

/**
 * The user's own prices and windows (`agentLens.usage.prices`): model id prefix → USD per million tokens and the
 * window. A row that does not parse is left out and named in the log, with what is wrong; the others apply.
 */
const per = z.number().finite().min(0).max(10_000);
const Override = z
  .object({
    input: per,
    output: per,
    cacheRead: per.optional(),
    cacheWrite: per.optional(),
    window: z.number().int().min(1).max(100_000_000).optional(),
  })
  .strict();

export function priceOverrides(v: unknown): { rows: ModelRow[]; errors: string[] } {
  const rows: ModelRow[] = [];
  const errors: string[] = [];
  if (v === undefined || v === null) return { rows, errors };
  if (typeof v !== 'object' || Array.isArray(v)) return { rows, errors: ['agentLens.usage.prices must be an object: model → prices'] };
  for (const [model, value] of Object.entries(v as Record<string, unknown>)) {
    const prefix = model.trim().toLowerCase();
    const r = Override.safeParse(value);
    if (!prefix || !r.success) {
      const why = r.success ? 'an empty model name' : `${r.error.issues[0]?.path.join('.') || 'value'}: ${r.error.issues[0]?.message}`;
      errors.push(
        `agentLens.usage.prices["${model.slice(0, 80)}"] is left out (${why}); give {"input": 3, "output": 15} in USD per million tokens`,
      );
      continue;
    }
    const { window, ...price } = r.data;
    rows.push({ prefix, price, ...(window ? { window } : {}), source: 'agentLens.usage.prices' });
  }
  return { rows, errors };
}
