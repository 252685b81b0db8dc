/**
 * The decision as the answering hook reads it off the wire (decisionOf) and prints it for Claude Code
 * (claudeDecisionJson): only allow once, or deny with an optional message; nothing the hub sends can grant more.
 */
import * as assert from 'assert';
import * as fc from 'fast-check';
import { claudeDecisionJson, type Decision, decisionOf, DENY_MESSAGE_MAX } from '../../../src/hooks/decision';

const ALLOW = { behavior: 'allow' };
const DENY = { behavior: 'deny' };

/** What decisionOf may ever return: allow, deny (+ message) or a question's answers, with no other key. */
function assertAllowedShape(d: Decision | undefined, input: unknown): void {
  if (d === undefined) return;
  const why = JSON.stringify(input);
  assert.ok(Object.getPrototypeOf(d) === Object.prototype, why);
  if (d.behavior === 'allow') return assert.deepStrictEqual(Object.keys(d), ['behavior'], why);
  if (d.behavior === 'answer') {
    assert.deepStrictEqual(Object.keys(d), ['behavior', 'answers'], why);
    return assert.ok(
      Object.values(d.answers).every((a) => typeof a === 'string'),
      why,
    );
  }
  assert.strictEqual(d.behavior, 'deny', why);
  const keys = Object.keys(d);
  assert.ok(keys.length === 1 || (keys.length === 2 && keys[1] === 'message'), `${why} → ${JSON.stringify(d)}`);
  if (d.message !== undefined) {
    assert.strictEqual(typeof d.message, 'string');
    assert.ok(d.message.trim().length > 0 && d.message.length <= DENY_MESSAGE_MAX, why);
  }
}

describe('answer: decisionOf (what the hook accepts from the hub)', () => {
  it('accepts allow, and drops every field that would grant more than once', () => {
    for (const decision of [
      { behavior: 'allow' },
      { behavior: 'allow', updatedInput: { command: 'rm -rf /' } },
      { behavior: 'allow', updatedPermissions: [{ type: 'addRules', rules: [{ toolName: 'Bash' }], behavior: 'allow' }] },
      { behavior: 'allow', interrupt: true, message: 'x', destination: 'userSettings' },
      { behavior: 'allow', constructor: { prototype: { polluted: true } } },
    ]) {
      const d = decisionOf({ decision, also: { decision: { behavior: 'deny' } } });
      assert.deepStrictEqual(d, ALLOW, JSON.stringify(decision));
      assert.deepStrictEqual(Object.keys(d!), ['behavior']);
    }
  });

  it('accepts deny with a string message, trimmed-empty dropped, cut to DENY_MESSAGE_MAX, other fields dropped', () => {
    assert.deepStrictEqual(decisionOf({ decision: { behavior: 'deny' } }), DENY);
    assert.deepStrictEqual(decisionOf({ decision: { behavior: 'deny', message: 'use a dry run' } }), {
      behavior: 'deny',
      message: 'use a dry run',
    });
    for (const message of ['', '   ', '\n\t ', 42, null, true, { text: 'x' }, ['x']])
      assert.deepStrictEqual(decisionOf({ decision: { behavior: 'deny', message } }), DENY, JSON.stringify(message));
    const long = 'n'.repeat(DENY_MESSAGE_MAX + 500);
    const cut = decisionOf({ decision: { behavior: 'deny', message: long } });
    assert.deepStrictEqual(cut, { behavior: 'deny', message: long.slice(0, DENY_MESSAGE_MAX) });
    const exact = 'e'.repeat(DENY_MESSAGE_MAX);
    assert.strictEqual((decisionOf({ decision: { behavior: 'deny', message: exact } }) as { message: string }).message, exact);
    const extra = decisionOf({
      decision: { behavior: 'deny', message: 'no', interrupt: true, updatedPermissions: [{ type: 'setMode', mode: 'bypassPermissions' }] },
    });
    assert.deepStrictEqual(extra, { behavior: 'deny', message: 'no' });
  });

  it('refuses every other behaviour and every other shape', () => {
    const refused: unknown[] = [
      undefined,
      null,
      0,
      1,
      'allow',
      true,
      [],
      [{ decision: { behavior: 'allow' } }],
      {},
      { behavior: 'allow' },
      { decision: 'allow' },
      { decision: null },
      { decision: [] },
      { decision: ['allow'] },
      { decision: [{ behavior: 'allow' }] },
      { decision: {} },
      { decision: { behavior: 'always' } },
      { decision: { behavior: 'Allow' } },
      { decision: { behavior: 'ALLOW' } },
      { decision: { behavior: ' allow' } },
      { decision: { behavior: 'allow_always' } },
      { decision: { behavior: 'ask' } },
      { decision: { behavior: 'passthrough' } },
      { decision: { behavior: ['allow'] } },
      { decision: { behavior: { toString: () => 'allow' } } },
      { decision: { behavior: true } },
      { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } },
    ];
    for (const v of refused) assert.strictEqual(decisionOf(v), undefined, String(JSON.stringify(v)));
  });

  it('is not fooled by prototype tricks in the JSON it parses', () => {
    for (const text of [
      '{"__proto__":{"decision":{"behavior":"allow"}}}',
      '{"decision":{"__proto__":{"behavior":"allow"}}}',
      '{"constructor":{"prototype":{"decision":{"behavior":"allow"}}}}',
      '{"decision":{"constructor":{"prototype":{"behavior":"allow"}}}}',
    ])
      assert.strictEqual(decisionOf(JSON.parse(text)), undefined, text);
    assert.strictEqual(({} as { decision?: unknown }).decision, undefined, 'Object.prototype was not polluted');
    // A parsed `__proto__` key beside a real decision changes nothing about what is returned.
    assert.deepStrictEqual(decisionOf(JSON.parse('{"decision":{"behavior":"allow","__proto__":{"updatedInput":{}}}}')), ALLOW);
  });

  it('property: for any JSON value, the result is undefined or one of the two shapes with no other key', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (v) => assertAllowedShape(decisionOf(v), v)),
      { numRuns: 2000 },
    );
  });

  it('property: decision-like objects with any extra fields keep only behaviour and a message', () => {
    const decision = fc.record(
      {
        behavior: fc.oneof(fc.constantFrom('allow', 'deny', 'always', 'ask', 'Allow', ''), fc.jsonValue({ maxDepth: 1 })),
        message: fc.oneof(fc.string({ maxLength: 3000 }), fc.jsonValue({ maxDepth: 1 })),
        updatedInput: fc.jsonValue({ maxDepth: 2 }),
        updatedPermissions: fc.jsonValue({ maxDepth: 2 }),
        interrupt: fc.boolean(),
      },
      { requiredKeys: ['behavior'] },
    );
    fc.assert(
      fc.property(decision, fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }), (d, rest) => {
        const v = JSON.parse(JSON.stringify({ ...rest, decision: d })) as unknown;
        const out = decisionOf(v);
        assertAllowedShape(out, v);
        const behavior = (v as { decision: { behavior: unknown } }).decision.behavior;
        assert.strictEqual(out?.behavior, behavior === 'allow' || behavior === 'deny' ? behavior : undefined);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('answer: claudeDecisionJson (what the hook prints for Claude Code)', () => {
  it('prints Claude Code’s PermissionRequest decision for allow, exactly', () => {
    assert.strictEqual(
      claudeDecisionJson({ behavior: 'allow' }),
      '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}',
    );
  });

  it('prints deny, with its message when there is one', () => {
    assert.strictEqual(
      claudeDecisionJson({ behavior: 'deny' }),
      '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny"}}}',
    );
    assert.strictEqual(
      claudeDecisionJson({ behavior: 'deny', message: 'no, use a dry run "please"' }),
      '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no, use a dry run \\"please\\""}}}',
    );
    assert.strictEqual(
      claudeDecisionJson({ behavior: 'deny', message: '' }),
      '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny"}}}',
    );
  });

  it('prints nothing the caller smuggled into the decision object', () => {
    const smuggled = { behavior: 'allow', updatedPermissions: [{ type: 'setMode' }], updatedInput: { command: 'x' } } as Decision;
    assert.strictEqual(claudeDecisionJson(smuggled), claudeDecisionJson({ behavior: 'allow' }));
    const deny = { behavior: 'deny', message: 'm', interrupt: true } as Decision;
    assert.deepStrictEqual(JSON.parse(claudeDecisionJson(deny)!), {
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'm' } },
    });
  });

  it('property: one line of JSON, round-tripping whatever decisionOf accepted', () => {
    fc.assert(
      fc.property(fc.constantFrom('allow', 'deny'), fc.option(fc.string({ maxLength: 2500 }), { nil: undefined }), (behavior, message) => {
        const d = decisionOf({ decision: { behavior, message } });
        assert.ok(d);
        const text = claudeDecisionJson(d)!;
        assert.ok(!text.includes('\n'), 'a single line');
        const parsed = JSON.parse(text) as { hookSpecificOutput: { hookEventName: string; decision: unknown } };
        assert.deepStrictEqual(Object.keys(parsed), ['hookSpecificOutput']);
        assert.deepStrictEqual(Object.keys(parsed.hookSpecificOutput), ['hookEventName', 'decision']);
        assert.strictEqual(parsed.hookSpecificOutput.hookEventName, 'PermissionRequest');
        assert.deepStrictEqual(parsed.hookSpecificOutput.decision, d);
        assert.deepStrictEqual(decisionOf(parsed.hookSpecificOutput), d, 'the printed decision reads back the same');
      }),
      { numRuns: 300 },
    );
  });
});
