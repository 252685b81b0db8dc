import type { Scenario } from '../scenario';
import { claudeScenarios } from './claude-code';
import { claudeErrorScenarios } from './claudeErrors';
import { codexScenarios } from './codex';
import { dialogScenarios } from './dialogs';
import { geminiScenarios } from './gemini';
import { piScenarios } from './pi';
import { continueScenarios } from './continue';
import { copilotScenarios } from './copilot';
import { kiloScenarios } from './kilocode';
import { droidScenarios } from './droid';
import { qwenScenarios } from './qwen';
import { headlessScenarios } from './headless';
import { numberedPlanScenarios } from './numberedPlans';
import { opencodeScenarios } from './opencode';
import { opencodeUsageScenarios } from './opencodeUsage';
import { quitWhileWorkingScenarios } from './quitWhileWorking';
import { staleLineScenarios } from './staleLines';

export const ALL_SCENARIOS: Scenario[] = [
  ...claudeScenarios,
  ...claudeErrorScenarios,
  ...codexScenarios,
  ...opencodeScenarios,
  ...geminiScenarios,
  ...piScenarios,
  ...continueScenarios,
  ...copilotScenarios,
  ...kiloScenarios,
  ...droidScenarios,
  ...qwenScenarios,
  ...headlessScenarios,
  ...dialogScenarios,
  ...staleLineScenarios,
  ...numberedPlanScenarios,
  ...quitWhileWorkingScenarios,
  ...opencodeUsageScenarios,
];
