import * as vscode from 'vscode';
import { sleep } from '../common/poll';
import { printable } from '../common/printable';
import { agentCwdReadable } from '../sources/process/agentCwd';
import { agentUnder } from '../sources/process/processScan';
import { RcFiles } from '../sources/terminal/rcFiles';
import { readDecision } from '../sources/terminal/readPolicy';
import type { TerminalSession } from '../sources/terminal/session';

const CONFIDENCE = new Map<vscode.TerminalShellExecutionCommandLineConfidence, 'high' | 'medium' | 'low'>([
  [vscode.TerminalShellExecutionCommandLineConfidence.High, 'high'],
  [vscode.TerminalShellExecutionCommandLineConfidence.Medium, 'medium'],
]);

export interface ExecutionReaderDeps {
  log: vscode.LogOutputChannel;
  /** Every chunk read, after its session has it. */
  output(chunk: string): void;
  /** The agent process found under the terminal (its folder lookup). */
  agentPid(pid: number): void;
}

/**
 * One shell-integration execution: whether its output is read (what its command line runs), the session told
 * that it started, and its stream fed to the session chunk by chunk.
 */
export class ExecutionReader {
  private readonly rc = new RcFiles();

  /** Starts the execution in its session; true when its output is read. */
  start(e: vscode.TerminalShellExecutionStartEvent, session: TerminalSession, d: ExecutionReaderDeps): boolean {
    const cl = e.execution.commandLine;
    const confidence = CONFIDENCE.get(cl.confidence) ?? 'low';
    const cwd = e.execution.cwd?.fsPath ?? e.terminal.shellIntegration?.cwd?.fsPath;
    const decision = readDecision(cl.value, confidence, this.rc.resolver(cwd));
    const name = printable(e.terminal.name);
    // A command line can carry a secret (a token in an argument); the user turns trace on to see it.
    d.log.debug(`[${name}] execution (${confidence}): ${decision.read ? 'read' : 'not read'}, ${printable(decision.reason)}`);
    d.log.trace(`[${name}] command line ${printable(JSON.stringify(cl.value))}`);
    if (!decision.read) {
      session.startExecution(cl.value, false, undefined, cwd);
      return false;
    }
    // read() only delivers data written after its first call: it must be called in this handler, synchronously.
    const stream = e.execution.read();
    session.startExecution(cl.value, true, decision.agent ? { agent: decision.agent, evidence: decision.reason } : undefined, cwd);
    void this.pump(stream, session, name, d);
    void followAgentCwd(e.terminal, session, d);
    return true;
  }

  private async pump(stream: AsyncIterable<string>, session: TerminalSession, name: string, d: ExecutionReaderDeps): Promise<void> {
    try {
      for await (const chunk of stream) {
        session.write(chunk);
        d.output(chunk);
      }
    } catch (err) {
      d.log.warn(`[${name}] reading the terminal stream failed: ${printable((err as Error).message)}`);
    }
  }
}

/**
 * The folder an agent runs in links its session log to this terminal. The execution's cwd is where the
 * command line started (`cd app && claude` starts one folder up), so ask the agent process itself (/proc on
 * Linux, lsof on macOS; Windows does not say).
 */
async function followAgentCwd(t: vscode.Terminal, session: TerminalSession, d: ExecutionReaderDeps): Promise<void> {
  if (!agentCwdReadable()) return;
  for (const ms of [1500, 4000, 10_000]) {
    await sleep(ms);
    if (!session.reading) return;
    try {
      const pid = await t.processId;
      const found = pid ? await agentUnder(pid) : undefined;
      if (found) d.agentPid(found.pid);
      if (found?.cwd) return session.setCwd(found.cwd);
    } catch {
      // The terminal or the process went away: nothing to follow.
    }
  }
}
