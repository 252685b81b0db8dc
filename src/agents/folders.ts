// Generated from the folders of src/agents by test/unit/agents/generate.ts (npm run agents:generate): do not edit.
// Every agent’s descriptor, in the detector’s order; src/agents/registry.ts is where the rest of the code asks.
import type { AgentDescriptor } from './descriptor';
import { agent as claudeCode } from './claude-code';
import { agent as codex } from './codex';
import { agent as opencode } from './opencode';
import { agent as amp } from './amp';
import { agent as gemini } from './gemini';
import { agent as hermes } from './hermes';
import { agent as copilot } from './copilot';
import { agent as cursor } from './cursor';
import { agent as crush } from './crush';
import { agent as qwen } from './qwen';
import { agent as kilocode } from './kilocode';
import { agent as aider } from './aider';
import { agent as pi } from './pi';
import { agent as cline } from './cline';
import { agent as droid } from './droid';
import { agent as kiro } from './kiro';
import { agent as devin } from './devin';
import { agent as qoder } from './qoder';
import { agent as grok } from './grok';
import { agent as kimi } from './kimi';
import { agent as continueCli } from './continue-cli';
import { agent as auggie } from './auggie';
import { agent as letta } from './letta';

export const FOLDER_AGENTS: readonly AgentDescriptor[] = [claudeCode, codex, opencode, amp, gemini, hermes, copilot, cursor, crush, qwen, kilocode, aider, pi, cline, droid, kiro, devin, qoder, grok, kimi, continueCli, auggie, letta];
