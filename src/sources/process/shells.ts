import type { ProcInfo } from './procTypes';

/** Shells that keep a prompt in a terminal. pwsh is not here: it starts programs in its own process group. */
const SHELLS = new Set([
  'sh',
  'bash',
  'dash',
  'zsh',
  'fish',
  'ksh',
  'ksh93',
  'mksh',
  'pdksh',
  'oksh',
  'tcsh',
  'csh',
  'ash',
  'yash',
  'busybox',
  'nu',
  'elvish',
  'xonsh',
]);
/** Shell options whose next argument is a value, not a script to run (VS Code starts bash with --init-file). */
const VALUE_OPTIONS = new Set(['--init-file', '--rcfile', '-o', '+o', '-O', '+O', '-C', '--init-command', '--emulate']);

/** Whether a program name is a shell's (tmux's `pane_current_command`, a login shell's "-bash", Git for Windows' `bash.exe`). */
export function isShellName(name: string): boolean {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  return SHELLS.has(
    base
      .replace(/^-/, '')
      .replace(/\.exe$/i, '')
      .toLowerCase(),
  );
}

/**
 * A shell reading its own input: named like a shell (by its executable, so `exec -a claude bash` is still bash)
 * and running neither a command string (`-c`) nor a script. A shell running a script is that script's program.
 */
export function isInteractiveShell(p: ProcInfo): boolean {
  if (!isShellName(p.name)) return false;
  const args = p.args.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') return i + 1 >= args.length;
    if (VALUE_OPTIONS.has(a)) i++;
    else if (a === '--command' || /^-[A-Za-z]*c[A-Za-z]*$/.test(a)) return false;
    else if (!a.startsWith('-') && !a.startsWith('+')) return false;
  }
  return true;
}
