import type { Scenario } from '../scenario';
import { claudeScenarios } from './claude-code';
import { codexScenarios } from './codex';
import { dialogScenarios } from './dialogs';
import { geminiScenarios } from './gemini';
import { piScenarios } from './pi';
import { headlessScenarios } from './headless';
import { opencodeScenarios } from './opencode';
import { staleLineScenarios } from './staleLines';

export const ALL_SCENARIOS: Scenario[] = [
  ...claudeScenarios,
  ...codexScenarios,
  ...opencodeScenarios,
  ...geminiScenarios,
  ...piScenarios,
  ...headlessScenarios,
  ...dialogScenarios,
  ...staleLineScenarios,
];
