import type { ReportingAgent } from '../hooks/report';

/**
 * Which shell runs a hook's `command` for each agent with command hooks, per platform, as read in the pinned CLIs
 * (scripts/agents/install.sh) and their public sources. Agent Lens writes each agent's hook lines in that shell's
 * syntax (./commands.ts, ./windowsHookLines.ts); `fields` are written on every handler where the agent lets a hook
 * name its shell, so the line never meets another one.
 *
 * macOS and Linux: every agent runs the line through a POSIX shell (sh, dash, bash or zsh): one POSIX line serves all.
 * Windows: PowerShell for five of the six (Windows PowerShell 5.1 or PowerShell 7, so the lines use 5.1's syntax
 * only: no `&&`, `||` or `??`), cmd.exe for droid.
 */

export type CommandHookAgent = Extract<ReportingAgent, 'claude-code' | 'codex' | 'gemini' | 'qwen' | 'droid' | 'copilot'>;

/** The syntaxes Agent Lens writes hook lines in. */
export type HookShell = 'posix' | 'powershell' | 'cmd';

export interface ShellChoice {
  shell: HookShell;
  /** What starts the line, as the agent does it. */
  runs: string;
  /** Written on each handler so the agent takes this shell whatever else is installed (its own schema's field). */
  fields?: Readonly<Record<string, string>>;
  /** Where this was read. */
  source: string;
  /** `read`: in the pinned CLI's code; `documented`: its vendor's docs or maintainers; `inferred`: see `source`. */
  evidence: 'read' | 'documented' | 'inferred';
}

export interface AgentHookShells {
  posix: ShellChoice;
  win32: ShellChoice;
}

export const HOOK_SHELLS: Readonly<Record<CommandHookAgent, AgentHookShells>> = {
  'claude-code': {
    posix: {
      shell: 'posix',
      runs: '/bin/sh -c (spawn with shell: true)',
      source: 'claude 2.1.328 binary: hook runner `fVe(command, [], {shell: !0})`; default shell `CG()` is "bash" off Windows',
      evidence: 'read',
    },
    win32: {
      shell: 'powershell',
      // Without `shell`, 2.1.328 runs Git Bash when it finds one (CLAUDE_CODE_GIT_BASH_PATH, git on PATH) and
      // PowerShell otherwise (`CG()`), and a failing hook then blocks guarded events ("blocking because Git Bash
      // wasn't found"): naming the shell makes one line right on every machine. Git Bash would also give the line
      // no agent pid ($PPID is 1 under a non-MSYS parent).
      runs: 'pwsh, else powershell.exe: -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command <line>',
      fields: { shell: 'powershell' },
      source:
        'claude 2.1.328 binary: hook schema `shell: enum(["bash","powershell"])` ("\'powershell\' uses pwsh"), `IWr` = [-NoProfile, -NonInteractive, -ExecutionPolicy Bypass, -Command]',
      evidence: 'read',
    },
  },
  codex: {
    posix: {
      shell: 'posix',
      runs: 'the session shell (the login shell from passwd: zsh on macOS, bash on Linux; else /bin/sh) with -lc',
      source:
        'openai/codex codex-rs/hooks/src/engine/command_runner.rs (build_command, default_shell_command) and core/src/shell.rs (default_user_shell)',
      evidence: 'read',
    },
    win32: {
      shell: 'powershell',
      runs: 'the session shell: pwsh, else powershell.exe (-NoProfile -Command <line>); %COMSPEC% /C only when none is found',
      source:
        'openai/codex core/src/shell.rs (default_user_shell: PowerShell on Windows, cmd.exe the last fallback); issues openai/codex#38168, max-sixty/worktrunk#4239, eneskirca/nodeterm#690 (0.153–0.156 run hooks in PowerShell)',
      evidence: 'documented',
    },
  },
  gemini: {
    posix: {
      shell: 'posix',
      runs: 'bash -c <line>',
      source: 'gemini-cli 0.61.0 bundle: getShellConfiguration() → {executable: "bash", argsPrefix: ["-c"]}',
      evidence: 'read',
    },
    win32: {
      shell: 'powershell',
      runs: '%ComSpec% when it is PowerShell, else pwsh.exe on PATH, else powershell.exe: -NoProfile [-NonInteractive] -Command <line>',
      source: 'gemini-cli 0.61.0 bundle: getShellConfiguration(), executeCommandHook (appends `; if ($LASTEXITCODE -ne 0) {…}`)',
      evidence: 'read',
    },
  },
  qwen: {
    posix: {
      shell: 'posix',
      runs: 'bash -c <line>',
      source: 'qwen-code 0.24.4 chunks: getShellConfiguration() → bash -c',
      evidence: 'read',
    },
    win32: {
      shell: 'powershell',
      // Without `shell` the line meets Git Bash (MSYSTEM or TERM says so), or %ComSpec% /d /s /c, whose quoting of a
      // quoted path breaks (QwenLM/qwen-code#8649): one field picks PowerShell everywhere.
      runs: 'powershell -Command <line> (getShellConfigForHook with `shell: "powershell"`)',
      fields: { shell: 'powershell' },
      source: 'qwen-code 0.24.4 chunks: getShellConfigForHook(hookConfig.shell), getShellConfiguration()',
      evidence: 'read',
    },
  },
  copilot: {
    posix: {
      shell: 'posix',
      runs: 'bash (COPILOT_BASH_PATH, /bin/bash, …), /bin/sh when none',
      source: 'copilot 1.0.102 runtime.node strings: "COPILOT_BASH_PATH/bin/bash/usr/bin/bash…", "falling back to /bin/sh"',
      evidence: 'inferred',
    },
    win32: {
      shell: 'powershell',
      runs: 'PowerShell (a Claude-shaped `command` is its `powershell` line on Windows)',
      source:
        'docs.github.com copilot-cli hooks reference (`powershell`: "Shell command for Windows"); github/copilot-cli#4001 and #4399 (Claude-format commands run via PowerShell on Windows)',
      evidence: 'documented',
    },
  },
  droid: {
    posix: {
      shell: 'posix',
      runs: 'sh -c <line> (spawn with shell: "sh")',
      source: 'droid 0.225.2 (linux) binary: hook spawn `Yb(e){return{command:e,shell:"sh"}}`',
      evidence: 'read',
    },
    win32: {
      shell: 'cmd',
      // The linux build keeps only the other branch of the same spawn: `{command, args, windowsVerbatimArguments}`,
      // the shape Node gives `cmd.exe /d /s /c "<line>"`; droid's own shell table names cmd.exe for win32. The
      // win32 package is not in the registry this project reaches, so this is not read.
      runs: '%ComSpec% /d /s /c "<line>" (inferred)',
      source: 'droid 0.225.2 (linux) binary: executeCommand\'s Windows branch (windowsVerbatimArguments); shell table {win32: "cmd.exe"}',
      evidence: 'inferred',
    },
  },
};

/** The shell `agent` runs its hook lines in on `platform` (every platform but Windows runs POSIX lines). */
export function hookShellOf(agent: CommandHookAgent, platform: NodeJS.Platform): ShellChoice {
  return platform === 'win32' ? HOOK_SHELLS[agent].win32 : HOOK_SHELLS[agent].posix;
}
