/**
 * Reasons made in the pure layers reach what the window shows in the window's language: with the Simplified Chinese
 * bundle configured, as activate() configures @vscode/l10n with the window's bundle, the notice of a dialog answered
 * by key that was not, and the errors of a handoff name, a notification channel and a shell row, read in Chinese
 * from end to end. With no bundle (the CLI) the same calls give the English.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as l10n from '@vscode/l10n';
import { AGENTS } from '../../../src/agents/registry';
import { answerWithKey, type KeyIO } from '../../../src/answer/screenKeys';
import { checkSegment } from '../../../src/handoff/paths';
import { makeChannel, parseChannelList } from '../../../src/notify/channelList';
import type { TerminalState } from '../../../src/store/types';
import { keyRefusedNotice } from '../../../src/views/answerTexts';
import { describe as describeRow } from '../../../src/views/labels';
import { ROOT } from '../helpers';

const ZH = JSON.parse(fs.readFileSync(path.join(ROOT, 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as Record<string, string>;
const CODEX = AGENTS.find((a) => a.id === 'codex')!.dialogKeys!;
const CMD = 'touch build-marker.txt';

const dialog = (cmd: string): string[] => [
  '  Would you like to run the following command?',
  '',
  `  $ ${cmd}`,
  '',
  '› 1. Yes, proceed (y)',
  '  2. No, and tell Codex what to do differently (esc)',
];

/** A terminal whose screen is `screens[i]` at the i-th read (the last one stays). */
function io(screens: string[][]): KeyIO {
  let i = 0;
  return {
    rows: () => screens[Math.min(i++, screens.length - 1)],
    write: () => undefined,
    mayType: async () => true,
    sleep: async () => undefined,
  };
}

/** What a dialog answered by key shows when it was not: the refusal's reason inside the notice. */
async function refusal(screens: string[][]): Promise<string> {
  const out = await answerWithKey(io(screens), CODEX, 'allow', CMD);
  assert.strictEqual(out.ok, false);
  return out.ok ? '' : keyRefusedNotice(out.why, out.typed);
}

const shell = (evidence: string): TerminalState =>
  ({
    id: 't',
    name: 'bash',
    agent: 'shell',
    state: 'idle',
    source: 'pty-scrape',
    evidence,
    since: 0,
    words: [],
    history: [],
  }) as TerminalState;

function thrown(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  assert.fail('expected an error');
}

describe('reasons shown in the window, in its language', () => {
  afterEach(() => l10n.config({ contents: {} }));

  it('the refusal notice of a dialog answered by key: its reason in Chinese too', async () => {
    l10n.config({ contents: ZH });
    assert.strictEqual(
      await refusal([dialog(CMD), dialog('rm -rf ~')]),
      'Agent Lens 未输入任何内容：两次读取屏幕之间对话框发生了变化。请在终端中回答。',
    );
    // Typed, and the dialog stayed: the reason's own placeholder filled inside the notice's.
    assert.strictEqual(await refusal([dialog(CMD)]), 'Agent Lens 已输入对话框的按键，但按键后 3 秒，对话框仍在屏幕上：请查看终端。');
  });

  it('with no bundle (the CLI, English VS Code) the same notice is English', async () => {
    assert.strictEqual(
      await refusal([dialog(CMD), dialog('rm -rf ~')]),
      'Agent Lens typed nothing: the dialog changed between two reads of the screen. Answer in the terminal.',
    );
  });

  it('a handoff name, a notification channel and a shell row: whole sentences in Chinese, field names and values as written', () => {
    l10n.config({ contents: ZH });
    assert.strictEqual(
      thrown(() => checkSegment('task id', '../x')),
      '不允许使用任务 ID "../x"：请使用字母、数字、"-"、"_" 和中间的点（1–64 个字符，不能有 ".."，不能有斜杠）',
    );
    assert.strictEqual(
      thrown(() => makeChannel({ kind: 'ntfy', url: 'https://ntfy.sh/' })),
      'url 必须以主题结尾（https://ntfy.sh/TOPIC）',
    );
    assert.strictEqual(
      thrown(() => makeChannel({ kind: 'command', argv: [] })),
      'argv 需要指定要运行的程序',
    );
    assert.strictEqual(
      thrown(() => parseChannelList(JSON.stringify({ version: 2, channels: [] }))),
      '已存储的通知渠道无效：version 必须是 1',
    );
    assert.strictEqual(describeRow(shell('command not found: claude'), 0), 'shell · 找不到命令：claude');
  });

  it('with no bundle those are English, zh-cn’s words nowhere', () => {
    assert.match(
      thrown(() => checkSegment('agent key', 'a/b')),
      /^agent key "a\/b" is not allowed: use letters/,
    );
    assert.strictEqual(
      thrown(() => makeChannel({ kind: 'command', argv: [] })),
      'argv needs the program to run',
    );
    assert.strictEqual(
      thrown(() => parseChannelList(JSON.stringify({ version: 2, channels: [] }))),
      'the stored notification channels are not valid: version must be 1',
    );
    assert.strictEqual(describeRow(shell('command not executable: ./run.sh'), 0), 'shell · command not executable: ./run.sh');
  });
});
