// The plain-shell scenarios record-negatives.mjs records as negative fixtures:
// each types commands into a Session (./session.mjs) and waits for the output.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sleep } from './session.mjs';

function which(cmd) {
  try {
    return execFileSync('bash', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

function git(cwd, env, ...args) {
  execFileSync('git', args, { cwd, env, stdio: 'pipe' });
}

// ---------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------

const MENTIONS = `Release notes and chat log (plain text, not an agent)
=====================================================
Claude Code is an agent
claude code
OpenAI Codex (v0.169.0) banner
>_ OpenAI Codex (v0.169.0)
opencode
OpenCode v1.0.0
Gemini CLI, Amp, Hermes are other tools people mention.
  ✻ Worked for 3s
✻ Worked for 3s
log: ✻ Worked for 3s · done
● API Error: 500
log: ● API Error: 500 (retrying)
Do you want to proceed?
Q: Do you want to proceed? asked the reviewer
❯ 1. Yes
  2. No
Allow once   Allow always   Reject
Overwrite existing file? (y/n)
Press esc to interrupt
(esc to interrupt)
Retried for 3s
Sautéed for 2m 3s
✶ Sautéed for 2m 3s · 1.2k tokens
end of file
`;

const LESS_TEXT =
  Array.from({ length: 400 }, (_, i) => {
    const n = i + 1;
    const words = [
      'the parser reads tokens from the lexer',
      'configuration is loaded from the workspace',
      'terminal output is buffered before rendering',
      'a background task compacts the log files',
      'Do you want to proceed? is only a quoted phrase here',
      'retry policy: exponential backoff with jitter',
    ];
    return `${String(n).padStart(4, ' ')}  ${words[i % words.length]}`;
  }).join('\n') + '\n';

export const scenarios = {
  async ls(s) {
    await s.run('ls -la --color=always /usr/lib | head -80');
    await s.run('ls --color=always /usr/bin | head -200');
  },

  async 'git-log'(s) {
    // Build the repo before recording (deterministic author/committer dates).
    const repo = path.join(s.work, 'demo');
    fs.mkdirSync(repo);
    const env = {
      ...s.env,
      GIT_AUTHOR_NAME: 'Dev Eloper',
      GIT_AUTHOR_EMAIL: 'dev@example.com',
      GIT_COMMITTER_NAME: 'Dev Eloper',
      GIT_COMMITTER_EMAIL: 'dev@example.com',
    };
    git(repo, env, 'init', '-q', '-b', 'main');
    const messages = [
      'Initial commit',
      'Add Claude Code support',
      'Worked for 3s on parser',
      'Handle "Do you want to proceed?" prompt',
      'Detect OpenAI Codex (v0.169.0) banner',
      'Add opencode detector',
      'Fix: ✻ Worked for 3s line not matched mid-line',
      'Parse "● API Error: 500" as error state',
      'Support ❯ 1. Yes selection menus',
      'Add Allow once / Allow always / Reject buttons',
      'Recognise (y/n) prompts',
      'Show "esc to interrupt" as busy',
      'Retried for 3s: add retry counter',
      'Sautéed for 2m 3s: spinner verb list',
      'Refactor terminal buffer',
      'Add Gemini CLI and Amp detection',
      'Bump dependencies',
      'Docs: explain waiting state',
      'Fix flaky test in OSC title parser',
      'Add status bar item',
      'Add Hermes agent',
      'Tweak colours in tree view',
      'Remove dead code',
      'Speed up ANSI stripping',
      'Handle alternate screen buffer',
      'Add CLI entry point',
      'Claude Code: detect plan mode',
      'Codex: detect approval prompt',
      'Release 0.1.0',
      'Prepare 0.2.0 changelog',
    ];
    const base = Date.UTC(2025, 0, 6, 9, 0, 0) / 1000;
    messages.forEach((msg, i) => {
      const file = path.join(repo, i % 3 === 0 ? 'README.md' : i % 3 === 1 ? 'src/detect.ts' : 'src/state.ts');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.appendFileSync(file, `// ${i + 1}: ${msg}\n`.repeat(1 + (i % 4)));
      const date = `@${base + i * 5400} +0000`;
      git(repo, { ...env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date }, 'add', '-A');
      git(repo, { ...env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date }, 'commit', '-q', '-m', msg);
    });
    await s.run('cd demo');
    await s.run('git --no-pager log --stat --color=always');
    await s.run('git --no-pager log --oneline --graph --color=always');
  },

  async 'npm-install'(s) {
    await s.run('mkdir app && cd app');
    await s.run('npm init -y', { maxMs: 60000 });
    await s.run('npm install --no-audit --no-fund is-number@7', { maxMs: 180000 });
    await s.run('ls node_modules');
  },

  async 'cat-mentions'(s) {
    fs.writeFileSync(path.join(s.work, 'mentions.txt'), MENTIONS);
    await s.run('cat mentions.txt');
    await s.run("printf '\\e]0;my shell\\a'; printf '%s\\n' 'Claude Code is an agent' 'OpenAI Codex (v0.169.0) banner' 'opencode'");
    await s.run(
      "printf '\\e]0;my shell\\a  ✻ Worked for 3s\\nlog: ✻ Worked for 3s · done\\n● API Error: 500\\nDo you want to proceed?\\n❯ 1. Yes\\n'",
    );
    await s.run("printf 'Allow once   Allow always   Reject\\n(y/n)\\nesc to interrupt\\nRetried for 3s\\nSautéed for 2m 3s\\n'");
  },

  async top(s) {
    let mark = s.buffer.length;
    await s.type('top -d 0.5');
    await sleep(6000);
    s.send('q');
    await s.waitPrompt(mark + 1, { maxMs: 10000 });
    await sleep(700);
    if (which('htop')) {
      mark = s.buffer.length;
      await s.type('htop');
      await sleep(6000);
      s.send('q');
      await s.waitPrompt(mark + 1, { maxMs: 10000 });
      await sleep(700);
    } else {
      process.stderr.write('  [top] htop not installed, skipped\n');
    }
  },

  async less(s) {
    fs.writeFileSync(path.join(s.work, 'notes.txt'), LESS_TEXT);
    const mark = s.buffer.length;
    await s.type('less notes.txt');
    await s.settle(500, 5000);
    await sleep(800);
    s.send(' ');
    await s.settle(300, 5000);
    await sleep(900);
    s.send(' ');
    await s.settle(300, 5000);
    await sleep(900);
    s.send('q');
    await s.waitPrompt(mark + 1, { maxMs: 10000 });
    await sleep(700);
  },

  // A numbered list and a real shell menu (bash's select builtin): dialog-shaped, but a plain shell.
  async 'numbered-menu'(s) {
    let mark = s.buffer.length;
    await s.type(
      "printf 'Steps:\\n1. Build\\n2. Test\\n> 1. Deploy\\n  2. Roll back\\nEnter to confirm · Esc to cancel\\nProceed? (y/n)\\n'",
    );
    await s.waitPrompt(mark + 1);
    await sleep(800);
    mark = s.buffer.length;
    await s.type('select c in build test quit; do echo "picked $c"; break; done');
    await s.waitFor(/#\? $/, { mark: mark + 1 });
    await sleep(2500); // the menu waits, as a dialog would
    mark = s.buffer.length;
    await s.type('2');
    await s.waitPrompt(mark + 1);
    await sleep(500);
  },

  // A Python REPL printing a cursor-marked numbered menu and asking.
  async 'python-menu'(s) {
    let mark = s.buffer.length;
    await s.type('python3 -q');
    await s.waitFor(/>>> $/, { mark: mark + 1 });
    await sleep(500);
    mark = s.buffer.length;
    await s.type('print("Pick one:\\n\\u276f 1. Yes\\n  2. No\\nEnter to select, Esc to cancel")');
    await s.waitFor(/>>> $/, { mark: mark + 1 });
    await sleep(800);
    mark = s.buffer.length;
    await s.type('input("Which one? [y/N] ")');
    await s.waitFor(/\[y\/N\] $/, { mark: mark + 1 });
    await sleep(2000);
    mark = s.buffer.length;
    await s.type('1');
    await s.waitFor(/>>> $/, { mark: mark + 1 });
    await sleep(500);
    mark = s.buffer.length;
    await s.type('exit()');
    await s.waitPrompt(mark + 1);
    await sleep(500);
  },

  async 'python-repl'(s) {
    let mark = s.buffer.length;
    await s.type('python3 -q');
    await s.waitFor(/>>> $/, { mark: mark + 1 });
    await sleep(500);
    const repl = async (line, re = />>> $/) => {
      const m = s.buffer.length;
      await s.type(line);
      await s.waitFor(re, { mark: m + 1 });
      await sleep(600);
    };
    await repl('1+1');
    await repl('print("Do you want to proceed? (y/n)")');
    await repl('input("Continue? (y/n) ")', /Continue\? \(y\/n\) $/);
    await sleep(1200); // "thinking" before answering
    await repl('y');
    mark = s.buffer.length;
    await s.type('exit()');
    await s.waitPrompt(mark + 1);
    await sleep(500);
  },

  async vim(s) {
    const vi = which('vim') ? 'vim' : which('vi') ? 'vi' : null;
    if (!vi) throw new Error('SKIP: neither vim nor vi is installed');
    fs.writeFileSync(path.join(s.work, 'todo.txt'), 'existing line one\nexisting line two\n');
    const mark = s.buffer.length;
    await s.type(`${vi} todo.txt`);
    await s.settle(600, 5000);
    await sleep(500);
    s.send('G');
    await sleep(200);
    s.send('o');
    await sleep(200);
    for (const chunk of ['Do you want to proceed? ', '(y/n) ', 'Claude Code notes: ', 'esc to interrupt']) {
      s.send(chunk);
      await s.settle(150, 2000);
      await sleep(250);
    }
    s.send('\x1b');
    await sleep(600);
    s.send(':q!');
    await sleep(300);
    s.send('\r');
    await s.waitPrompt(mark + 1, { maxMs: 10000 });
    await sleep(700);
  },

  async 'long-build'(s) {
    const script =
      'for i in $(seq 1 3000); do ' +
      "printf '\\r\\e[K⠋ building %d' $i; " +
      "if [ $((i % 10)) -eq 0 ]; then printf '\\r\\e[K\\e[33mwarning\\e[0m: src/mod_%d.c:%d:5: unused variable \\e[1m‘tmp’\\e[0m\\n' $i $((i*7 % 400)); " +
      "else printf '\\r\\e[K\\e[32m  CC\\e[0m      build/obj/mod_%04d.o\\n' $i; fi; " +
      "if [ $((i % 250)) -eq 0 ]; then printf '\\r\\e[K\\e[1;36m[%3d%%]\\e[0m Linking target libcore_%d.a\\n' $((i*100/3000)) $((i/250)); sleep 0.05; fi; " +
      "done; printf '\\r\\e[K\\e[1;32mBuild succeeded\\e[0m: 3000 objects\\n'";
    await s.run(script, { maxMs: 120000 });
  },
};
