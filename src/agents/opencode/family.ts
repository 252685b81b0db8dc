/**
 * OpenCode and the fork that kept its plugin API, its bus events and its database schema: Kilo
 * (test/fixtures/live/kilocode/FACTS.md §8, §10). Their plugin reports are read by opencodeMeaning, their
 * databases by one reader (src/sources/logs/opencodeDb.ts), each under its own agent id.
 */
export const OPENCODE_FAMILY = ['opencode', 'kilocode'] as const;
export type OpenCodeFamily = (typeof OPENCODE_FAMILY)[number];
export const inOpenCodeFamily = (agent: string): agent is OpenCodeFamily => (OPENCODE_FAMILY as readonly string[]).includes(agent);
