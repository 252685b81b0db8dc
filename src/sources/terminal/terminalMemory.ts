import * as fs from 'fs';
import * as path from 'path';
import { readRegularFile, unsafeDirReason, writeFileAtomic } from '../../common/fsutil';
import { pidAlive } from '../../common/pidAlive';
import { parseRemembered, type RememberedTerminal, rememberedWords } from './remembered';
import { needsYou } from '../../store/policy';
import type { AgentStore } from '../../store/store';
import { type AgentKind, isAgent } from '../../common/agents';
import { type Logger } from '../../common/log';
import { hostPlatform } from '../../common/platform';
import { markerName } from '../../hooks/markers';

const SAVE_DELAY_MS = 250;
/** What a window remembers is small (a few terminals); anything larger is not ours. */
const FILE_MAX = 256 * 1024;

export interface TerminalFacts {
  shellPidOf(id: string): number | undefined;
  agentPidOf(id: string): number | undefined;
}

/**
 * Whether the wait a hook saw in a remembered terminal is still open, by its marker (src/hooks/markers.ts); undefined
 * when the markers cannot tell. POSIX names the marker by the agent process the scan found again. Windows names it
 * by agent and session (the hook's shell cannot name the agent process): the sessions remembered for the terminal
 * are the hook's (a hook's word adds its session id to the terminal's session), so one marker of them open is the
 * wait open, and none is the wait answered during the reload. What Windows cannot tell: a wait whose report had no
 * session id is marked by the pid of the shell that ran the hook, gone with it; every hook agent sends session ids,
 * so only a terminal with no remembered session is "cannot tell" here.
 */
export function waitMarkerOpen(
  dir: string | undefined,
  found: { agent: AgentKind; pid: number },
  sessionIds: readonly string[],
  platform: NodeJS.Platform = hostPlatform(),
): boolean | undefined {
  if (!dir || !fs.existsSync(dir)) return undefined;
  if (platform !== 'win32') return fs.existsSync(path.join(dir, markerName(found.pid, found.agent, undefined, platform)));
  if (!sessionIds.length) return undefined;
  return sessionIds.some((id) => fs.existsSync(path.join(dir, markerName(found.pid, found.agent, id, platform))));
}

/**
 * Keeps what each agent terminal had (its agent, session ids, an open dialog) in a file beside the hub's
 * discovery file (`<home>/hubs/<workspace>.terminals.json`, 0600 in a folder only this user can change: a
 * dialog's text can hold a secret), and gives it back to a terminal revived after a reload once the process
 * scan finds the same agent in it. A file, written at once, not VS Code's workspace state: a reload may end the
 * extension host before that state is stored. The hooks' wait markers say whether a dialog a hook saw is
 * still open.
 */
export class TerminalMemory {
  private saved: RememberedTerminal[];
  private timer: NodeJS.Timeout | undefined;
  private readonly subs: { dispose(): void }[] = [];

  constructor(
    private readonly file: string,
    private readonly store: AgentStore,
    private readonly facts: TerminalFacts,
    private readonly markerDir: () => string | undefined,
    private readonly log: Logger,
    private readonly platform: NodeJS.Platform = hostPlatform(),
  ) {
    this.saved = parseRemembered(this.read(), Date.now());
    this.subs.push(
      store.onDidChange(() => this.saveSoon()),
      store.onDidChangeWait(() => this.saveSoon()),
    );
  }

  /** The scan found `agent` (process `pid`) in a terminal that saw no command start: give back what it had. */
  agentFound(terminalId: string, found: { agent: AgentKind; pid: number }): void {
    const shellPid = this.facts.shellPidOf(terminalId);
    const i = shellPid === undefined ? -1 : this.saved.findIndex((r) => r.shellPid === shellPid);
    if (i < 0) return;
    const [r] = this.saved.splice(i, 1);
    const words = rememberedWords(r, terminalId, found, waitMarkerOpen(this.markerDir(), found, r.sessionIds, this.platform), Date.now());
    if (words.length)
      this.log.info(
        `restored ${words.length} remembered word(s) of a ${r.agent} session after the reload${r.wait ? ` (an open ${r.wait.kind})` : ''}`,
      );
    for (const o of words) this.store.observe(o);
  }

  private saveSoon(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.write();
    }, SAVE_DELAY_MS);
  }

  private read(): unknown {
    try {
      return JSON.parse(readRegularFile(this.file, { max: FILE_MAX }).toString('utf8'));
    } catch {
      return undefined; // none yet, or not ours: nothing to give back
    }
  }

  private write(): void {
    const dir = path.dirname(this.file);
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      // Others who could change the folder could swap the file for a link between our check and our write.
      const unsafe = unsafeDirReason(dir);
      if (unsafe) return this.log.warn(`what terminals had is not kept across reloads: ${unsafe}`);
      this.saved = this.snapshot();
      writeFileAtomic(this.file, JSON.stringify(this.saved), 0o600);
    } catch (e) {
      this.log.warn(`could not keep what terminals had across reloads in ${this.file}: ${(e as Error).message}`);
    }
  }

  /**
   * Every agent terminal of this window whose shell is known, and what was kept for terminals the store no longer
   * lists while their shell still runs: not revived yet (their scan has not run), or closed only for this window
   * (VS Code drops a window's terminals as it reloads, and the shells live on).
   */
  private snapshot(): RememberedTerminal[] {
    const now = Date.now();
    const waits = this.store.waits().filter(needsYou);
    const shells = new Set<number>();
    const out: RememberedTerminal[] = [];
    for (const t of this.store.terminals()) {
      const shellPid = this.facts.shellPidOf(t.id);
      if (!isAgent(t) || t.state === 'exited' || shellPid === undefined) continue;
      shells.add(shellPid);
      const w = waits.find((x) => x.terminalId === t.id && x.kind !== 'reply-question');
      const sessionIds = this.store.sessions().find((s) => s.key === t.sessionKey)?.agentSessionIds ?? [];
      out.push({
        shellPid,
        agent: t.agent as AgentKind,
        agentPid: this.facts.agentPidOf(t.id),
        ...(t.cwd ? { cwd: t.cwd } : {}),
        sessionIds: sessionIds.slice(-4),
        ...(w
          ? {
              wait: {
                kind: w.kind,
                question: w.question,
                options: w.options,
                openedAt: w.openedAt,
                openedBy: w.openedBy,
                byHook: w.seenBy.includes('hook'),
              },
            }
          : {}),
        savedAt: now,
      });
    }
    return [...out, ...this.saved.filter((r) => !shells.has(r.shellPid) && pidAlive(r.shellPid))];
  }

  /** Saved once more on the way out (a reload), so the last change before it is not lost. */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.write();
    this.subs.forEach((s) => s.dispose());
  }
}
