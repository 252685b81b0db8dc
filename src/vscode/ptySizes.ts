import type * as vscode from 'vscode';
import { ttySize } from '../sources/process/processTree';
import type { TerminalSession } from '../sources/terminal/session';

const POLL_MS = 5000;

/**
 * The emulator follows the real terminal's size. VS Code's stable API has neither a terminal's size nor an
 * event when it changes, so the pty's size is read when a terminal is met and when it starts a command, and
 * every 5 s while any terminal is read.
 */
export class PtySizes implements vscode.Disposable {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly read: () => Iterable<{ terminal: vscode.Terminal; session: TerminalSession }>) {}

  /** Reads one terminal's size now; where it cannot be read the session keeps its fallback size. */
  async readNow(t: vscode.Terminal, session: TerminalSession): Promise<void> {
    try {
      const pid = await t.processId;
      if (!pid) return;
      const size = await ttySize(pid);
      if (size) session.resize(size.cols, size.rows);
    } catch {
      // Keep the size it has.
    }
  }

  /** Polls while any terminal is read, not otherwise. */
  update(anyRead: boolean): void {
    if (!anyRead) return this.dispose();
    this.timer ??= setInterval(() => {
      for (const { terminal, session } of this.read()) void this.readNow(terminal, session);
    }, POLL_MS);
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
