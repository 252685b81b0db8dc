import type { Scenario } from '../scenario';
import { claudeScenarios } from './claude-code';
import { codexScenarios } from './codex';
import { opencodeScenarios } from './opencode';

export const ALL_SCENARIOS: Scenario[] = [...claudeScenarios, ...codexScenarios, ...opencodeScenarios];
