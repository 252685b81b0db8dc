import * as assert from 'assert';
import fc from 'fast-check';
import * as path from 'path';
import { OUR_COMMAND_MARK, PERMISSION_COMMAND_NAME } from '../../../../src/integrations/commands';
import { ANSWER_HOLD_S } from '../../../../src/agents/hookRow';
import { parseOurCommand } from '../../../../src/integrations/install/ownEntries';
import { hookEntries } from '../../../../src/integrations/install/hookTable';
import {
  addHooks,
  groupOf,
  type HookEntry,
  InstallError,
  installedState,
  removeHooks,
} from '../../../../src/integrations/install/jsonHooks';
import { forAll, hooksOf, parse, REPORTER, settings } from './settingsArb';

describe('install: hook table', () => {
  it('gates only the per-tool events and uses each agent’s timeout unit', () => {
    // POSIX lines: the Windows ones are checked in windowsHookLines.test.ts.
    const posix = { platform: 'linux' as const };
    const claude = hookEntries('claude-code', REPORTER, posix);
    assert.deepStrictEqual(
      claude.filter((e) => e.command.startsWith('if ')).map((e) => e.event),
      ['PostToolUse', 'PostToolUseFailure'],
    );
    assert.strictEqual(claude.find((e) => e.event === 'PreToolUse')?.matcher, 'AskUserQuestion');
    const codex = hookEntries('codex', REPORTER, posix);
    assert.ok(
      codex.every((e) => e.matcher === undefined),
      'Codex: no matcher matches every tool',
    );
    assert.deepStrictEqual(
      codex.filter((e) => e.timeout === 3).map((e) => e.event),
      ['Interrupt', 'SessionEnd'],
    );
    const gemini = hookEntries('gemini', REPORTER, posix);
    assert.ok(gemini.every((e) => e.timeout === 10_000 && e.name === 'agent-lens'));
    // Claude Code's PermissionRequest runs the answering hook beside the reporter, with the hold's timeout; every
    // other entry runs the reporter. Both are Agent Lens's own commands to the installers.
    const answering = [...claude, ...codex, ...gemini].filter((e) => !e.command.includes(OUR_COMMAND_MARK));
    assert.deepStrictEqual(
      answering.map((e) => [e.event, e.command, e.timeout]),
      [['PermissionRequest', `exec ${path.join(path.dirname(REPORTER), PERMISSION_COMMAND_NAME)} claude-code`, ANSWER_HOLD_S]],
    );
    assert.ok([...claude, ...codex, ...gemini].every((e) => parseOurCommand(e.command)));
  });
});

describe('install: addHooks / removeHooks', () => {
  it('keeps every user hook, in front of ours, and every unrelated key', () => {
    forAll(settings, (s, a) => {
      const entries = hookEntries(a, REPORTER);
      const out = parse(addHooks(s.text, entries));
      for (const [k, v] of Object.entries(s.value)) if (k !== 'hooks') assert.deepStrictEqual(out[k], v);
      const [before, after] = [hooksOf(s.value), hooksOf(out)];
      for (const event of new Set([...Object.keys(before), ...entries.map((e) => e.event)])) {
        const mine = entries.filter((e) => e.event === event).map(groupOf);
        assert.deepStrictEqual(after[event], [...(before[event] ?? []), ...mine]);
      }
      assert.strictEqual(installedState(addHooks(s.text, entries), entries), 'installed');
    });
  });

  it('is idempotent (installing twice gives the bytes of once) and removes only ours: removeHooks(addHooks(x)) is x', () => {
    forAll(settings, (s, a) => {
      const once = addHooks(s.text, hookEntries(a, REPORTER));
      assert.strictEqual(addHooks(once, hookEntries(a, REPORTER)), once);
      const back = removeHooks(once);
      assert.deepStrictEqual(parse(back), s.value);
      assert.strictEqual(back, s.text);
    });
  });

  it('with comments anywhere: keeps every one, and removal gives back the bytes', () => {
    const commented = fc.tuple(settings, fc.infiniteStream(fc.boolean())).map(([s, marks]) => {
      const it = marks[Symbol.iterator]();
      return s.text
        .split('\n')
        .map((l, i) => (it.next().value ? `${l.replace(/\r$/, '')} // c${i}${l.endsWith('\r') ? '\r' : ''}` : l))
        .join('\n');
    });
    forAll(commented, (text, a) => {
      const out = addHooks(text, hookEntries(a, REPORTER));
      for (const c of text.match(/\/\/ c\d+/g) ?? []) assert.ok(out.includes(c), c);
      assert.strictEqual(removeHooks(out), text);
    });
  });

  it('writes in the file’s own indentation and line ends', () => {
    const entries = hookEntries('codex', REPORTER);
    const tabs = addHooks('{\r\n\t"model": "x"\r\n}\r\n', entries);
    assert.ok(tabs.startsWith('{\r\n\t"model": "x",\r\n\t"hooks": {\r\n\t\t"PermissionRequest": [\r\n\t\t\t{'), tabs);
    assert.ok(!/[^\r]\n/.test(tabs));
    assert.strictEqual(addHooks('{"a":1}', entries).split('\n').length, 1, 'a one-line file stays one line');
    assert.strictEqual(addHooks(undefined, entries), `${JSON.stringify({ hooks: parse(addHooks('{}', entries)).hooks }, null, 2)}\n`);
  });

  it('keeps comments (Gemini CLI allows them), and removal gives back the bytes', () => {
    const text = `// mine
{
  /* theme */ "theme": "dark", // trailing, with a comma
  "hooks": {
    "AfterTool": [
      { "hooks": [{ "type": "command", "command": "lint" }] } // after edits
    ] // tools
  }
}
`;
    const entries = hookEntries('gemini', REPORTER);
    const out = addHooks(text, entries);
    for (const c of ['// mine', '/* theme */', '// trailing, with a comma', '// after edits', '// tools']) assert.ok(out.includes(c), c);
    assert.strictEqual(installedState(out, entries), 'installed');
    assert.strictEqual(removeHooks(out), text);
    assert.strictEqual(removeHooks(addHooks('{\n  "a": 1 // one\n}', entries)), '{\n  "a": 1 // one\n}');
  });

  it('replaces an outdated entry of ours in place and drops ours from events the table no longer has', () => {
    const [old, stale] = [
      hookEntries('claude-code', '/home/old/.agent-lens/bin/agent-lens-report'),
      { event: 'Retired', command: 'exec /home/old/.agent-lens/bin/agent-lens-report claude-code', timeout: 5 } as HookEntry,
    ];
    const user = { hooks: [{ type: 'command', command: 'notify-send done' }] };
    const later = { matcher: 'x', hooks: [{ type: 'command', command: 'added after ours' }] };
    const v = parse(addHooks(JSON.stringify({ hooks: { Stop: [user] } }, null, 2), [...old, stale]));
    hooksOf(v).Stop.push(later);
    const text = JSON.stringify(v, null, 2);
    const entries = hookEntries('claude-code', REPORTER);
    assert.strictEqual(installedState(text, entries), 'outdated');
    const out = parse(addHooks(text, entries));
    assert.deepStrictEqual(hooksOf(out).Stop, [user, groupOf(entries.find((e) => e.event === 'Stop')!), later]);
    assert.strictEqual(hooksOf(out).Retired, undefined);
    assert.strictEqual(installedState(JSON.stringify(out), entries), 'installed');
  });

  it('tells partial from absent', () => {
    const entries = hookEntries('codex', REPORTER);
    assert.strictEqual(installedState(undefined, entries), 'absent');
    assert.strictEqual(installedState('{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x"}]}]}}', entries), 'absent');
    assert.strictEqual(installedState(addHooks('{}', entries.slice(1)), entries), 'partial');
  });

  it('removes many groups of ours among the user’s in runs, and keeps the comments between them (issue 28)', () => {
    const ours = parse(addHooks('{}', hookEntries('codex', REPORTER)));
    const mine = JSON.stringify((hooksOf(ours).Stop as unknown[])[0]);
    const user = (i: number) => JSON.stringify({ hooks: [{ type: 'command', command: `say ${i}` }] });
    const rows = [user(0), mine, mine, mine, user(1), mine, `// a note of the user's\n      ${mine}`, user(2), mine, mine];
    const text = `{\n  "hooks": {\n    "Stop": [\n      ${rows.join(',\n      ')}\n    ]\n  }\n}\n`;
    const out = removeHooks(text);
    assert.deepStrictEqual(
      hooksOf(parse(out.replace("// a note of the user's", ''))).Stop.map((g) => (g as { hooks: { command: string }[] }).hooks[0].command),
      ['say 0', 'say 1', 'say 2'],
    );
    assert.ok(out.includes("// a note of the user's"), out);
  });

  it('takes our handler out of a group a user added theirs to, and keeps theirs', () => {
    const entries = hookEntries('codex', REPORTER);
    const v = parse(addHooks('{}', entries));
    const stop = hooksOf(v).Stop[0] as { hooks: unknown[] };
    stop.hooks.push({ type: 'command', command: 'say done' });
    const text = JSON.stringify(v, null, 2);
    assert.strictEqual(installedState(text, entries), 'outdated');
    assert.deepStrictEqual(hooksOf(parse(removeHooks(text))), { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] });
    const again = parse(addHooks(text, entries));
    assert.deepStrictEqual(
      (hooksOf(again).Stop as { hooks: unknown[] }[]).map((g) => g.hooks.length),
      [1, 1],
    );
  });

  it('refuses files whose shape it cannot keep, naming the problem', () => {
    const entries = hookEntries('claude-code', REPORTER);
    const bad: [string, RegExp][] = [
      ['{"a": 1,}', /not valid JSON \(PropertyNameExpected at line 1/],
      ['{"a": ', /not valid JSON/],
      ['[1, 2]', /holds a JSON array, not an object/],
      ['{"hooks": []}', /"hooks" in .* is a JSON array, not an object/],
      ['{"hooks": {"Stop": {}}}', /"hooks.Stop" in .* is a JSON object, not an array/],
      ['{"hooks": {}, "hooks": {}}', /has "hooks" twice/],
      ['{"hooks": {"Stop": [], "Stop": []}}', /has "Stop" twice/],
    ];
    for (const [text, msg] of bad) {
      assert.throws(
        () => addHooks(text, entries, '/x/settings.json'),
        (e: unknown) => e instanceof InstallError && msg.test(e.message) && /fix or move it, then install again/.test(e.message),
      );
    }
    assert.throws(() => removeHooks('{"a": '), InstallError);
    // Not ours to judge: keys we do not write (Gemini's old `hooks.enabled`).
    assert.doesNotThrow(() => addHooks('{"hooks": {"enabled": true}}', hookEntries('gemini', REPORTER)));
  });

  it('drops a `hooks` object that only ever held ours (the file-level uninstall restores the bytes)', () => {
    assert.strictEqual(removeHooks(addHooks('{"hooks": {}, "a": 1}', hookEntries('codex', REPORTER))), '{"a": 1}');
  });
});
