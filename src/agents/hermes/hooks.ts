import { type Meaning, obj, permissionWait, questionWait, str } from '../hookMeaning';

type Payload = Record<string, unknown>;

/**
 * Hermes 0.19.0 plugin hooks (Hermes cannot be installed here, so this follows its source and is
 * unverified against a running CLI). The plugin sends `{hook, ...kwargs}`. `on_session_end` fires after
 * every turn on 0.19.0, so only an interrupted one closes anything.
 */
export const events: Record<string, (p: Payload) => Meaning | undefined> = {
  pre_tool_call: (p) => (isClarify(p) ? { kind: 'wait', wait: clarifyWait(p) } : undefined),
  post_tool_call: (p) => (isClarify(p) ? { kind: 'working' } : undefined),
  pre_approval_request: (p) => ({
    kind: 'wait',
    wait: permissionWait(str(p, 'tool_name') ?? 'approval', str(p, 'command') ?? str(p, 'description')),
  }),
  post_approval_response: () => ({ kind: 'working' }),
  pre_llm_call: () => ({ kind: 'working', turnStart: true }),
  post_llm_call: (p) => ({ kind: 'turn-end', reply: str(p, 'assistant_response') ?? str(p, 'response'), askOnly: true }),
  on_session_end: (p) => (p.interrupted === true ? { kind: 'failed', reason: 'interrupted' } : undefined),
};

function isClarify(p: Payload): boolean {
  return str(p, 'tool_name') === 'clarify';
}

function clarifyWait(p: Payload) {
  const args = obj(p, 'args') ?? obj(p, 'tool_args') ?? {};
  const choices = Array.isArray(args.choices) ? args.choices : [];
  return questionWait([{ question: str(args, 'question'), options: choices }]);
}
