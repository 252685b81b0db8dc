#!/usr/bin/env node
// npm run screenshots: copies the pictures the README shows from the last e2e run (npm run test:e2e writes
// them to artifacts/e2e/ when the suite reaches each state, see screenshot() and ui() in
// test/e2e/suite/util.ts) into media/screenshots/. Nothing is drawn by hand: run the e2e suite, then this.
//
//   npm run screenshots [-- --from DIR] [-- --check]
//     --from DIR   where the e2e artifacts are (default artifacts/e2e)
//     --check      only say which are missing or older than the README's copies; copy nothing
//
// Fails (exit 1), naming every missing file and the test that takes it, when any artifact is missing: a
// partial copy would mix pictures of two versions.
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** README picture ← e2e artifact, and the test that takes it. */
export const SHOTS = [
  {
    to: 'needs-you.png',
    from: 'hooks-permission-needs-you.png',
    by: 'hooks.e2e.test.ts: real Claude Code permission dialog under Needs you',
  },
  { to: 'status-bar.png', from: 'readme-status-bar.png', by: "hooks.e2e.test.ts: Agent Lens's status bar items at that moment" },
  { to: 'notification.png', from: 'readme-notification.png', by: 'hooks.e2e.test.ts: the notification 15 s after the dialog appeared' },
  { to: 'answer-input.png', from: 'readme-answer.png', by: 'hooks.e2e.test.ts: Answer… input box with the answer typed' },
  { to: 'answer-sent.png', from: 'readme-answer-sent.png', by: "hooks.e2e.test.ts: the answer in Claude Code's terminal and its reply" },
  { to: 'handoff-board.png', from: 'readme-handoff-board.png', by: "handoff.e2e.test.ts: the worker's board done, its report open" },
  {
    to: 'configure-notifications.png',
    from: 'notify-configure.png',
    by: 'notifications.e2e.test.ts: Configure Notifications with an ntfy channel added',
  },
  {
    to: 'desktop-notification.png',
    // The user-level suite (test/e2e/user) writes beside the in-host suite's artifacts.
    from: '../e2e-user/desktop/desktop-notification.png',
    by: 'desktop.user.test.ts: dunst showing the desktop notification 15 s after the dialog appeared',
  },
  {
    to: 'answer-allow-modal.png',
    from: '../e2e-user/answering/answer-allow-modal.png',
    by: 'answering.user.test.ts: Allow Once on the real Claude Code’s row: the modal with the whole command',
  },
  {
    to: 'answer-notification.png',
    from: '../e2e-user/answering/answer-notification.png',
    by: 'answering.user.test.ts: the dialog’s notification with Deny… and Allow Once…',
  },
  {
    to: 'answer-pi-choose.png',
    from: '../e2e-user/answering/answer-pi-choose-modal.png',
    by: 'answering.user.test.ts: Choose… on the real pi’s extension dialog: the modal with the dialog’s text',
  },
  {
    to: 'usage.png',
    from: '../e2e-user/usage/usage-row-and-details.png',
    by: 'usage.user.test.ts: the context warning on the row and Session Details, real Claude Code',
  },
  {
    to: 'zh-cn.png',
    from: '../e2e-user/chinese/zh-cn-tree-status-notification.png',
    by: 'chinese.user.test.ts: VS Code in Chinese, the real Claude Code waiting for approval: tree, status bar, notification',
  },
  {
    to: 'walkthrough.png',
    from: 'walkthrough-start-agent.png',
    by: "walkthrough.e2e.test.ts: the walkthrough's first step, its page beside it",
  },
];

let args;
try {
  args = parseArgs({
    options: { from: { type: 'string', default: join(ROOT, 'artifacts', 'e2e') }, check: { type: 'boolean', default: false } },
    strict: true,
  }).values;
} catch (err) {
  console.error(`screenshots: ${err.message}`);
  process.exit(2);
}
const from = resolve(args.from);
const to = join(ROOT, 'media', 'screenshots');

const isPng = (file) => {
  const b = readFileSync(file);
  return b.length > 24 && b.toString('latin1', 1, 4) === 'PNG';
};

const missing = SHOTS.filter((s) => !existsSync(join(from, s.from)) || !isPng(join(from, s.from)));
if (missing.length) {
  console.error(`screenshots: ${missing.length} of ${SHOTS.length} pictures are missing in ${relative(process.cwd(), from) || '.'}:`);
  for (const s of missing) console.error(`  ${s.from}  (${s.by})`);
  console.error(
    existsSync(join(from, 'results.json'))
      ? 'The last e2e run did not reach these states (see results.json there); fix the run, then try again. Nothing was copied.'
      : 'No e2e run there: run `npm run test:e2e` first (or pass --from DIR). Nothing was copied.',
  );
  process.exit(1);
}

if (args.check) {
  for (const s of SHOTS) {
    const dst = join(to, s.to);
    const state = !existsSync(dst)
      ? 'not copied yet'
      : statSync(dst).mtimeMs < statSync(join(from, s.from)).mtimeMs
        ? 'older than the artifact'
        : 'current';
    console.log(`${s.to.padEnd(20)} ← ${s.from.padEnd(32)} ${state}`);
  }
  process.exit(0);
}

mkdirSync(to, { recursive: true });
for (const s of SHOTS) {
  copyFileSync(join(from, s.from), join(to, s.to));
  console.log(
    `media/screenshots/${s.to.padEnd(18)} ← ${relative(ROOT, join(from, s.from))} (${Math.round(statSync(join(to, s.to)).size / 1024)} KB)`,
  );
}
