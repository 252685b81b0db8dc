import type { Scenario } from '../scenario';
import { claudeScenarios } from './claude-code';
import { claudeErrorScenarios } from './claudeErrors';
import { codexScenarios } from './codex';
import { dialogScenarios } from './dialogs';
import { geminiScenarios } from './gemini';
import { piScenarios } from './pi';
import { headlessScenarios } from './headless';
import { numberedPlanScenarios } from './numberedPlans';
import { opencodeScenarios } from './opencode';
import { quitWhileWorkingScenarios } from './quitWhileWorking';
import { staleLineScenarios } from './staleLines';

export const ALL_SCENARIOS: Scenario[] = [
  ...claudeScenarios,
  ...claudeErrorScenarios,
  ...codexScenarios,
  ...opencodeScenarios,
  ...geminiScenarios,
  ...piScenarios,
  ...headlessScenarios,
  ...dialogScenarios,
  ...staleLineScenarios,
  ...numberedPlanScenarios,
  ...quitWhileWorkingScenarios,
];
