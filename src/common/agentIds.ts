// Generated from the folders of src/agents by test/unit/agents/generate.ts (npm run agents:generate): do not edit.
// Every agent id, in the detector’s order, and `shell` for none (src/common/agents.ts says what they mean).
export const AGENT_IDS = ['claude-code', 'codex', 'opencode', 'amp', 'gemini', 'hermes', 'copilot', 'cursor', 'crush', 'qwen', 'kilocode', 'aider', 'pi', 'cline', 'droid', 'kiro', 'devin', 'qoder', 'grok', 'kimi', 'continue-cli', 'auggie', 'letta', 'shell'] as const;
