import * as l10n from '@vscode/l10n';
import * as fs from 'fs';
import { FileReadError, readRegularFile, writeFileAtomic } from '../common/fsutil';
import { type Board, type ErrorPoint, errorPointText, HANDSHAKE_TASK, isInFlight } from './board';
import type { Boards } from './boards';
import { type ContractFacts, DEFAULT_MESSAGE, handshakeMessage, renderBrief, renderReadMd } from './brief';
import { printable, quoted } from '../common/printable';
import { checkSegment, type HandoffPaths, isSafeSegment, type PathError } from './paths';
import { type DeliveryTarget, planSteps, render, runActions, type StepError, type StepVars } from './steps';
import { DRIVABLE_MODES, stepsOf, type TeamAgent } from './team/schema';
import { type Logger } from '../common/log';

/** A dispatch that broke at one of the seed's eight points; the board says which (`error_reason`). */
export class DispatchFailure extends Error {
  constructor(
    readonly point: ErrorPoint,
    message: string,
  ) {
    super(message);
  }
}

/** Finds (or starts) the terminal an agent runs in, fresh for every dispatch: never a stored handle. */
export interface TargetFinder {
  find(agent: TeamAgent): Promise<DeliveryTarget>;
}

/** Where the doorbell is and how agents reach it: the part of the contract that does not depend on the task. */
export type HubFacts = Omit<ContractFacts, 'agent' | 'taskId' | 'briefPath' | 'reportPath'>;

export interface DispatchDeps {
  agent(key: string): TeamAgent | undefined;
  boards: Boards;
  paths: HandoffPaths;
  /** Where the doorbell is right now; undefined while the hub is not listening. */
  facts(): HubFacts | undefined;
  finder: TargetFinder;
  sleep(ms: number): Promise<void>;
  workspace?: string;
  /**
   * Whether a dispatch may reach a terminal (find one, launch team.toml's command, type its steps). The extension
   * answers with VS Code's workspace trust: a workspace (and the team.toml in it) comes from whoever wrote the
   * repository. Unset: trusted (`agent-lens serve`, whose registry the user names on its command line).
   */
  trusted?(): boolean;
  log?: Logger;
}

export interface DispatchRequest {
  agent: string;
  taskId: string;
  /** The task text, written into the brief. */
  brief: string;
  /** The line typed into the terminal; default "Read {brief_path} and execute it.". */
  message?: string;
}

export interface DispatchResult {
  /** The brief is on the board (written, status set) — not that it was delivered. */
  submitted: boolean;
  delivered: boolean;
  /** Set when the in-flight gate refused: nothing was written. */
  refused?: string;
  error?: string;
  board?: Board;
  brief_path?: string;
  report_path?: string;
  contract?: string;
  /** The registry's `note` for this agent (the leader's own memo), echoed with every result. */
  note?: string;
}

/** Marks our generated read.md, so a user's own is never overwritten. */
const GENERATED = '<!-- agent-lens: generated; delete this line to keep your own version -->';
/** A read.md larger than this is no protocol an agent reads at its handshake: refused rather than kept or read. */
const READ_MD_MAX = 1024 * 1024;

/**
 * The start of an existing read.md (enough to see our marker line), undefined when there is none. It lies in a
 * folder the workspace can fill: a link (to /dev/zero, say), a FIFO or an oversized file is refused, never read
 * whole or waited on.
 */
function readMdHead(file: string): string | undefined {
  try {
    return readRegularFile(file, { max: READ_MD_MAX, head: Buffer.byteLength(GENERATED) }).toString('utf8');
  } catch (e) {
    if (e instanceof FileReadError && e.code === 'ENOENT') return undefined;
    throw new DispatchFailure('artifact_folder_failed', e instanceof FileReadError ? e.message : String((e as Error).message));
  }
}

export class Dispatcher {
  constructor(private readonly d: DispatchDeps) {}

  /** A dispatch: brief on the board (contract appended), status set, then the steps deliver the line. */
  async dispatch(req: DispatchRequest): Promise<DispatchResult> {
    const pre = this.prepare(req.agent, req.taskId);
    if ('result' in pre) return pre.result;
    const { agent, facts } = pre;
    const briefPath = this.d.paths.brief(agent.key, req.taskId);
    const reportPath = this.d.paths.report(agent.key, req.taskId);
    const all: ContractFacts = { ...facts, agent: agent.key, taskId: req.taskId, briefPath, reportPath };
    let message: string;
    try {
      message = render(req.message ?? DEFAULT_MESSAGE, { task_id: req.taskId, brief_path: briefPath }, -1);
      planSteps(stepsOf(agent), { message, task_id: req.taskId, brief_path: briefPath, pid: '1', title: 't', hwnd: 'h' });
    } catch (e) {
      return this.fail(agent.key, req.taskId, new DispatchFailure('delivery_failed', (e as Error).message));
    }
    const text = renderBrief({ agent: agent.key, taskId: req.taskId, task: req.brief, workspace: this.d.workspace }, all);
    try {
      writeFileAtomic(briefPath, text);
    } catch (e) {
      return this.fail(agent.key, req.taskId, new DispatchFailure('brief_write_failed', `${briefPath}: ${(e as Error).message}`));
    }
    const board = this.d.boards.set({
      ...this.d.boards.get(agent.key),
      state: 'in_progress',
      task_id: req.taskId,
      last_event: null,
      progress: null,
      error_reason: null,
      error_point: null,
      brief_path: briefPath,
      report_path: reportPath,
      delivery: 'pending',
      delivered_to: null,
    });
    this.d.log?.info(`dispatch ${agent.key}::${req.taskId}: brief on the board at ${briefPath}`);
    const delivered = await this.deliver(agent, { message, task_id: req.taskId, brief_path: briefPath });
    return {
      submitted: true,
      delivered: delivered.ok,
      error: delivered.error,
      board: delivered.board ?? board,
      brief_path: briefPath,
      report_path: reportPath,
      contract: text.slice(text.indexOf('## Doorbell contract')),
      ...(agent.note ? { note: agent.note } : {}),
    };
  }

  /** The first handshake: the agent reads read.md and rings progress; the board turns `ready`. */
  async handshake(key: string): Promise<DispatchResult> {
    const pre = this.prepare(key, HANDSHAKE_TASK);
    if ('result' in pre) return pre.result;
    const readMd = this.d.paths.readMd(key);
    this.d.boards.set({
      ...this.d.boards.get(key),
      state: 'in_progress',
      task_id: HANDSHAKE_TASK,
      last_event: null,
      progress: null,
      error_reason: null,
      error_point: null,
      brief_path: readMd,
      report_path: null,
      delivery: 'pending',
      delivered_to: null,
    });
    const delivered = await this.deliver(pre.agent, { message: handshakeMessage(readMd), task_id: HANDSHAKE_TASK, brief_path: readMd });
    return { submitted: true, delivered: delivered.ok, error: delivered.error, board: delivered.board, brief_path: readMd };
  }

  /** Creates the agent's handoff folder: read.md (ours, regenerated while it is ours), memory.md, briefs/, reports/, status.json. */
  initFolder(agent: TeamAgent, facts: HubFacts): void {
    const p = this.d.paths;
    const root = p.root;
    if (fs.existsSync(root) && !fs.statSync(root).isDirectory())
      throw new DispatchFailure(
        'workspace_not_folder',
        l10n.t('the handoff root {0} is not a folder: remove that file or set agentLens.handoff.root', root),
      );
    try {
      p.ensure(p.briefsDir(agent.key));
      p.ensure(p.reportsDir(agent.key));
    } catch (e) {
      throw new DispatchFailure(
        'artifact_folder_failed',
        l10n.t('cannot create {0}: {1}', p.agentDir(agent.key), String((e as Error).message)),
      );
    }
    const readMd = p.readMd(agent.key);
    const existing = readMdHead(readMd);
    if (existing === undefined || existing.startsWith(GENERATED)) {
      writeFileAtomic(
        readMd,
        `${GENERATED}\n${renderReadMd(agent.key, agent.description, { ...facts, agent: agent.key, briefsDir: p.briefsDir(agent.key), reportsDir: p.reportsDir(agent.key) })}`,
      );
    }
    if (!fs.existsSync(p.memoryMd(agent.key)))
      writeFileAtomic(p.memoryMd(agent.key), `# Memory of ${agent.key}\n\nNotes the agent keeps between tasks.\n`);
    if (!fs.existsSync(p.statusJson(agent.key))) this.d.boards.set(this.d.boards.get(agent.key));
  }

  /** The checks before anything is written: names, registration, the in-flight gate, the hub, the folder. */
  private prepare(key: string, taskId: string): { agent: TeamAgent; facts: HubFacts } | { result: DispatchResult } {
    try {
      checkSegment('agent key', key);
    } catch (e) {
      return {
        result: { submitted: false, delivered: false, error: l10n.t('{0}: {1}', errorPointText('invalid_project'), (e as Error).message) },
      };
    }
    try {
      checkSegment('task id', taskId);
    } catch (e) {
      return { result: this.fail(key, taskId, new DispatchFailure('invalid_project', (e as PathError).message), false) };
    }
    const agent = this.d.agent(key);
    if (!agent)
      return {
        result: this.fail(
          key,
          taskId,
          new DispatchFailure(
            'not_registered',
            l10n.t('"{0}" is not in team.toml: register it first (Agent Lens: Register External Agent…)', key),
          ),
          false,
        ),
      };
    const board = this.d.boards.get(key);
    if (isInFlight(board) && board.task_id !== taskId) {
      const refused = l10n.t(
        '{0} has task {1} in flight: wait for its doorbell (done or blocked), or cancel it (Agent Lens: Cancel Task…, or agent-lens task cancel --id {2} --reason "…"), then dispatch {3}',
        key,
        String(board.task_id),
        `${key}::${board.task_id}`,
        taskId,
      );
      return { result: { submitted: false, delivered: false, refused, error: refused, board } };
    }
    const facts = this.d.facts();
    if (!facts)
      return {
        result: {
          submitted: false,
          delivered: false,
          error: l10n.t('the doorbell is not listening yet, so the agent could not report: try again in a moment (see the Agent Lens log)'),
        },
      };
    try {
      this.initFolder(agent, facts);
    } catch (e) {
      return {
        result: this.fail(
          key,
          taskId,
          e instanceof DispatchFailure ? e : new DispatchFailure('artifact_folder_failed', (e as Error).message),
        ),
      };
    }
    return { agent, facts };
  }

  private async deliver(agent: TeamAgent, vars: StepVars): Promise<{ ok: boolean; error?: string; board?: Board }> {
    try {
      if (!DRIVABLE_MODES.includes(agent.mode))
        throw new DispatchFailure(
          'no_terminal',
          l10n.t(
            '{0} is mode "{1}", which is not drivable from VS Code: deliver it yourself ("{2}")',
            agent.key,
            agent.mode,
            String(vars.message),
          ),
        );
      const target = await this.find(agent);
      const all: StepVars = {
        ...vars,
        pid: target.pid !== undefined ? String(target.pid) : undefined,
        title: target.title,
        hwnd: target.id,
      };
      let actions;
      try {
        actions = planSteps(stepsOf(agent), all);
      } catch (e) {
        throw new DispatchFailure('delivery_failed', (e as StepError).message);
      }
      try {
        await runActions(actions, target, this.d.sleep);
      } catch (e) {
        throw new DispatchFailure('delivery_failed', (e as Error).message);
      }
      const cur = this.d.boards.get(agent.key);
      const board =
        cur.task_id === vars.task_id && cur.delivery === 'pending'
          ? this.d.boards.set({ ...cur, delivery: 'delivered', delivered_to: target.title })
          : cur;
      this.d.log?.info(`dispatch ${agent.key}::${vars.task_id}: delivered to ${printable(target.title)}`);
      return { ok: true, board };
    } catch (e) {
      const f = e instanceof DispatchFailure ? e : new DispatchFailure('delivery_failed', (e as Error).message);
      const r = this.fail(agent.key, vars.task_id!, f);
      return { ok: false, error: r.error, board: r.board };
    }
  }

  /**
   * The agent's terminal, found fresh. In an untrusted workspace none is looked for: the registry is the
   * workspace's, so its `launch`, `process`, `window_hint` and steps would let whoever wrote the repository
   * choose a terminal and what is typed into it. The brief stays on the board; delivery fails and says why.
   */
  private async find(agent: TeamAgent): Promise<DeliveryTarget> {
    if (!(this.d.trusted?.() ?? true)) {
      const launch = agent.launch ? l10n.t(' or run its launch command ({0})', quoted(agent.launch)) : '';
      throw new DispatchFailure(
        'no_terminal',
        l10n.t(
          'this workspace is not trusted, so Agent Lens does not type a dispatch from its team.toml into a terminal{0}: trust the workspace, or give {1} the brief yourself',
          launch,
          agent.key,
        ),
      );
    }
    try {
      return await this.d.finder.find(agent);
    } catch (e) {
      throw e instanceof DispatchFailure ? e : new DispatchFailure('capture_failed', (e as Error).message);
    }
  }

  /** Writes the failure on the board (state error, `error_reason` naming the point) and returns it. */
  private fail(key: string, taskId: string, f: DispatchFailure, persist = true): DispatchResult {
    // The key, the task id and the finder's message may carry what a request sent: escaped before they reach
    // the log, the board's error_reason and the answer.
    const error = printable(l10n.t('{0}: {1}', errorPointText(f.point), f.message));
    this.d.log?.warn(`dispatch ${printable(key)}::${printable(taskId)} failed: ${error}`);
    const cur = this.d.boards.get(key);
    const board = this.d.boards.set(
      {
        ...cur,
        state: 'error',
        task_id: isSafeSegment(taskId) ? taskId : cur.task_id,
        error_point: f.point,
        error_reason: error,
        delivery: cur.delivery === 'pending' ? 'failed' : cur.delivery,
      },
      persist,
    );
    return { submitted: board.brief_path !== null && cur.task_id === taskId && cur.delivery === 'pending', delivered: false, error, board };
  }
}
