import * as fs from 'fs';
import * as path from 'path';
import { unsafeDirReason, writeFileAtomic } from '../../common/fsutil';
import { type NodeRuntime, PERMISSION_SCRIPT, permissionCommandPath, REPORT_SCRIPT, reporterCommandPath } from '../commands';
import { shellQuote } from '../../common/shellQuote';
import { hostPlatform } from '../../common/platform';

/**
 * Puts the reporter where hook commands find it across extension updates: `<home>/bin/report.cjs` (a copy of
 * the bundled script) and `<home>/bin/agent-lens-report`, a sh script that starts it with a known Node; and the
 * answering hook beside it (`permission.cjs`, `agent-lens-permission`), bundled next to the reporter. Rewritten
 * only when its content changes. Windows gets the scripts alone: its hook lines start Node on them themselves
 * (src/integrations/windowsHookLines.ts), no shell there could run a sh script, and the hub gate the wrapper kept
 * is in each line and in the scripts (they read stdin, print nothing and exit 0 without a hub). Returns the path
 * hook commands name: the wrapper, on Windows the script.
 */
export function installReporter(
  home: string,
  bundledScript: string,
  node: NodeRuntime,
  platform: NodeJS.Platform = hostPlatform(),
): string {
  const bin = privateBin(home);
  const script = path.join(bin, REPORT_SCRIPT);
  writeIfChanged(script, fs.readFileSync(bundledScript, 'utf8'), 0o644);
  const answering = answeringScript(home);
  writeIfChanged(answering, fs.readFileSync(path.join(path.dirname(bundledScript), 'agent-lens-permission.js'), 'utf8'), 0o644);
  if (platform === 'win32') return reporterCommandPath(home, platform);
  const cmd = reporterCommandPath(home, platform);
  writeIfChanged(cmd, wrapper(node, script), 0o755);
  writeIfChanged(permissionCommandPath(home, platform), answeringWrapper(node, answering), 0o755);
  return cmd;
}

/** The installed answering hook script: the hub offers an answer only to a process running exactly this file. */
export function answeringScript(home: string): string {
  return path.join(home, 'bin', PERMISSION_SCRIPT);
}

/** As `wrapper`, but stdout is kept: it is Claude Code's decision channel, and the script prints only a decision there. */
export function answeringWrapper(node: NodeRuntime, script: string): string {
  return [
    '#!/bin/sh',
    '# agent-lens-permission: written by Agent Lens on activation. Claude Code’s PermissionRequest hook calls this path; it prints a decision only when the user answered in VS Code.',
    '[ -n "$AGENT_LENS_HUB" ] && [ -e "$AGENT_LENS_HUB" ] || { cat >/dev/null; exit 0; }',
    `${node.electron ? 'ELECTRON_RUN_AS_NODE=1 ' : ''}exec ${shellQuote(node.path)} ${shellQuote(script)} "$@" 2>/dev/null`,
    'exit 0',
    '',
  ].join('\n');
}

/**
 * The `agent-lens` CLI where briefs can name it across extension updates: `<home>/bin/agent-lens.cjs` and a
 * sh wrapper `<home>/bin/agent-lens` (agents run `… task report` through it; it prints what the CLI prints). On
 * Windows the wrapper is `agent-lens.cmd`, which cmd.exe and PowerShell both run (and find as `agent-lens`).
 */
export function installCli(home: string, bundledCli: string, node: NodeRuntime, platform: NodeJS.Platform = hostPlatform()): string {
  const bin = privateBin(home);
  const script = path.join(bin, 'agent-lens.cjs');
  writeIfChanged(script, fs.readFileSync(bundledCli, 'utf8').replace(/^#!.*\n/, ''), 0o644);
  if (platform === 'win32') {
    const cmd = path.join(bin, 'agent-lens.cmd');
    writeIfChanged(cmd, cliBatch(node, script), 0o755);
    return cmd;
  }
  const cmd = path.join(bin, 'agent-lens');
  writeIfChanged(
    cmd,
    [
      '#!/bin/sh',
      '# agent-lens: written by Agent Lens on activation (briefs name this path).',
      `${node.electron ? 'ELECTRON_RUN_AS_NODE=1 ' : ''}exec ${shellQuote(node.path)} ${shellQuote(script)} "$@"`,
      '',
    ].join('\n'),
    0o755,
  );
  return cmd;
}

/**
 * The CLI's batch file. cmd.exe reads a batch file in the console's code page (437, 936, …), not UTF-8, so the file
 * names no path that may hold a non-ASCII name, the user's (`C:\Users\张三`): the script, beside it, by `%~dp0` (the
 * batch file's own folder, expanded as text); Node or Electron, when inside the user's profile, from
 * `%USERPROFILE%`. What is left is ASCII unless Node's own path holds such a name outside the profile. In a batch
 * file `%` is written `%%` (a path may hold one); `setlocal` keeps ELECTRON_RUN_AS_NODE from the caller's shell;
 * `%*` passes the arguments as given. CRLF: cmd.exe's own line end.
 */
export function cliBatch(node: NodeRuntime, script: string, profile: string | undefined = process.env.USERPROFILE): string {
  const escape = (s: string) => s.split('%').join('%%');
  const root = profile?.endsWith('\\') ? profile.slice(0, -1) : profile;
  const inProfile = !!root && node.path.toLowerCase().startsWith(`${root.toLowerCase()}\\`);
  const nodeWord = `"${inProfile ? `%USERPROFILE%${escape(node.path.slice(root.length))}` : escape(node.path)}"`;
  return [
    '@echo off',
    'rem agent-lens: written by Agent Lens on activation (briefs name this path).',
    'setlocal',
    ...(node.electron ? ['set "ELECTRON_RUN_AS_NODE=1"'] : []),
    `${nodeWord} "%~dp0${escape(path.win32.basename(script))}" %*`,
    '',
  ].join('\r\n');
}

/** Outside VS Code (no hub in the environment) it drains stdin and exits at once, without starting Node. */
export function wrapper(node: NodeRuntime, script: string): string {
  return [
    '#!/bin/sh',
    '# agent-lens-report: written by Agent Lens on activation. Agents’ hook settings call this path; it must print nothing and exit 0.',
    '[ -n "$AGENT_LENS_HUB" ] && [ -e "$AGENT_LENS_HUB" ] || { cat >/dev/null; exit 0; }',
    `${node.electron ? 'ELECTRON_RUN_AS_NODE=1 ' : ''}exec ${shellQuote(node.path)} ${shellQuote(script)} "$@" >/dev/null 2>&1`,
    'exit 0',
    '',
  ].join('\n');
}

/**
 * `<home>/bin`, created 0700, refused when someone else could change it: every agent's hooks run what is in
 * it, so a folder writable by others would let them run code as this user.
 */
function privateBin(home: string): string {
  const bin = path.join(home, 'bin');
  fs.mkdirSync(bin, { recursive: true, mode: 0o700 });
  const unsafe = unsafeDirReason(bin);
  if (unsafe) throw new Error(`refusing to install the reporter or CLI: ${unsafe}`);
  return bin;
}

/** Skips only a regular file with the same content: a symlink there (even to identical bytes) is replaced by a file of ours. */
function writeIfChanged(file: string, content: string, mode: number): void {
  try {
    if (fs.lstatSync(file).isFile() && fs.readFileSync(file, 'utf8') === content) return;
  } catch {
    /* missing: write it */
  }
  writeFileAtomic(file, content, mode);
}
