import * as path from 'path';

/** A name that became a folder or file name would escape its root (`..`, slashes, an absolute path). */
export class PathError extends Error {}

/** Agent keys and task ids: letters, digits, `_`, `-` and inner dots, never `..`; they name folders and files. */
const SEGMENT = /^[A-Za-z0-9](?:[A-Za-z0-9_.-]{0,62}[A-Za-z0-9_-])?$/;

export function isSafeSegment(s: string): boolean {
  return SEGMENT.test(s) && !s.includes('..');
}

export function checkSegment(what: 'agent key' | 'task id', s: string): string {
  if (!isSafeSegment(s)) throw new PathError(`${what} ${JSON.stringify(s)} is not allowed: use letters, digits, "-", "_" and inner dots (1–64 characters, no "..", no slashes)`);
  return s;
}

/** Where one agent's handoff files live under the handoff root (seed 002 §7). */
export class HandoffPaths {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  agentDir(agent: string): string {
    return path.join(this.root, checkSegment('agent key', agent));
  }
  readMd(agent: string): string {
    return path.join(this.agentDir(agent), 'read.md');
  }
  memoryMd(agent: string): string {
    return path.join(this.agentDir(agent), 'memory.md');
  }
  statusJson(agent: string): string {
    return path.join(this.agentDir(agent), 'status.json');
  }
  /** Every doorbell event, one JSON line each: no event is ever dropped, even one the board ignores. */
  eventsLog(agent: string): string {
    return path.join(this.agentDir(agent), 'events.jsonl');
  }
  briefsDir(agent: string): string {
    return path.join(this.agentDir(agent), 'briefs');
  }
  reportsDir(agent: string): string {
    return path.join(this.agentDir(agent), 'reports');
  }
  brief(agent: string, taskId: string): string {
    return path.join(this.briefsDir(agent), `${checkSegment('task id', taskId)}-brief.md`);
  }
  report(agent: string, taskId: string): string {
    return path.join(this.reportsDir(agent), `${checkSegment('task id', taskId)}-report.md`);
  }

  /**
   * A report path an agent names in a doorbell event, if it stays inside the handoff root (relative paths are
   * read from the agent's folder); anything else is refused, so a link in the board never opens a file elsewhere.
   */
  reportPathFor(agent: string, given: string): string {
    const p = path.resolve(this.agentDir(agent), given);
    const rel = path.relative(this.root, p);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) throw new PathError(`report_path ${JSON.stringify(given)} is outside the handoff folder ${this.root}: write the report to the path the brief names`);
    return p;
  }
}

/** `{agent}::{task_id}` split; undefined when the id has no `::` (seed 002 §7.2: such an event groups nowhere). */
export function splitEventId(id: string): { agent: string; taskId: string } | undefined {
  const i = id.indexOf('::');
  if (i < 0) return undefined;
  return { agent: id.slice(0, i), taskId: id.slice(i + 2) };
}

/** The default task id, `MMDD-NN`: today's date and the next number not yet used among `taken`. */
export function nextTaskId(now: Date, taken: Iterable<string>): string {
  const day = `${String(now.getMonth() + 1).padStart(2, '0')}${String(now.getDate()).padStart(2, '0')}`;
  const used = new Set(taken);
  for (let n = 1; ; n++) {
    const id = `${day}-${String(n).padStart(2, '0')}`;
    if (!used.has(id)) return id;
  }
}
