import { type ExecFileException, execFile } from 'child_process';

export interface ToolOptions {
  timeoutMs?: number;
  maxBuffer?: number;
  /** Added to the environment (after LC_ALL=C). */
  env?: Record<string, string>;
}

/**
 * Runs one of the system's process tools (ps, lsof, stty): no shell, bounded in time and output, in the C locale
 * so that its dates, escapes and layout are the documented ones. What it printed counts even when it exits
 * non-zero — ps and lsof exit 1 when one of the processes asked about is gone — but a tool that is missing, ran
 * out of time or printed more than `maxBuffer` rejects: a cut table is not a table.
 */
export function runTool(cmd: string, args: readonly string[], o: ToolOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      cmd,
      args,
      {
        timeout: o.timeoutMs ?? 5000,
        maxBuffer: o.maxBuffer ?? 8 * 1024 * 1024,
        windowsHide: true,
        encoding: 'utf8',
        env: { ...process.env, LC_ALL: 'C', ...o.env },
      },
      (err: ExecFileException | null, stdout: string) => {
        if (!err) return resolve(stdout);
        if (typeof err.code === 'number' && !err.killed) return resolve(stdout ?? '');
        const why =
          err.code === 'ENOENT' ? `${cmd} is not on PATH` : err.killed ? `no answer within ${o.timeoutMs ?? 5000} ms` : err.message;
        reject(new Error(`${cmd} ${args.slice(0, 4).join(' ')}… failed: ${why} (the readers that need it cannot tell meanwhile)`));
      },
    );
  });
}
