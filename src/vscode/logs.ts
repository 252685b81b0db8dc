import type * as vscode from 'vscode';
import { defaultLogLocations, JsonlLogSource, mergeLocations } from '../sources/logs/logSources';
import { OpenCodeLogSource } from '../sources/logs/opencodeSource';
import { SnapshotLogSource } from '../sources/logs/snapshotSource';
import { SNAPSHOT_DECODERS, type SnapshotLogAgent } from '../jsonl';
import type { AgentStore } from '../store/store';
import type { HookSourceOptions } from '../sources/hooks/hookSource';
import { printable } from '../common/printable';
import type { AgentLensConfig } from './config';
import { escaped, tagged } from '../common/log';
import { OPENCODE_FAMILY } from '../agents/opencode/family';
import { agentOf } from '../agents/registry';
import type { UsageBook } from '../usage/book';

interface Running {
  jsonl: JsonlLogSource;
  /** One per agent whose sessions are in an OpenCode-style database (OpenCode, Kilo). */
  databases: OpenCodeLogSource[];
  /** One per agent whose session file is rewritten whole on every change (Continue CLI). */
  snapshots: SnapshotLogSource[];
}

/** The session-log sources, started with the settings' locations and restarted when they change. */
export function startLogSources(
  store: AgentStore,
  config: () => AgentLensConfig,
  log: vscode.LogOutputChannel,
  usage?: UsageBook,
): vscode.Disposable & { reconfigure(): void; turnEnded: NonNullable<HookSourceOptions['turnEnded']> } {
  let running: Running | undefined;
  let key = '';
  const stop = () => {
    if (!running) return;
    void running.jsonl.dispose();
    for (const d of running.databases) d.dispose();
    for (const s of running.snapshots) s.dispose();
    running = undefined;
  };
  const start = () => {
    const c = config();
    const loc = mergeLocations(defaultLogLocations(), c.sessionLogPaths);
    const next = c.sessionLogsEnabled ? JSON.stringify(loc) : '';
    if (next === key) return;
    key = next;
    stop();
    if (!c.sessionLogsEnabled) return;
    const sink = (o: Parameters<AgentStore['observe']>[0]) => store.observe(o);
    // The sources' lines quote file names and log records: escaped, so a record cannot forge a log line.
    const r: Running = {
      jsonl: new JsonlLogSource({ locations: loc, sink, usage, log: tagged(escaped(log), 'session logs') }),
      databases: OPENCODE_FAMILY.map(
        (agent) =>
          new OpenCodeLogSource({
            agent,
            databases: loc[agent] ?? [],
            sink,
            usage,
            log: tagged(escaped(log), `${agentOf(agent).screen.displayName} database`),
          }),
      ),
      snapshots: (Object.keys(SNAPSHOT_DECODERS) as SnapshotLogAgent[]).map(
        (agent) =>
          new SnapshotLogSource({
            agent,
            dirs: loc[agent] ?? [],
            sink,
            usage,
            log: tagged(escaped(log), `${agentOf(agent).screen.displayName} sessions`),
          }),
      ),
    };
    running = r;
    for (const d of r.databases) d.start();
    for (const s of r.snapshots) s.start().catch((e) => log.warn(`session files cannot be watched: ${printable((e as Error).message)}`));
    r.jsonl.start().then(
      () => log.info(`watching session logs in ${printable(Object.values(loc).flat().join(', '))}`),
      (e) => log.warn(`session logs cannot be watched: ${printable((e as Error).message)}. States come from the screen only.`),
    );
  };
  start();
  // A hook says a turn ended: the log that holds the turn's last reply tells it (src/sources/logs/turnEnds.ts).
  const turnEnded: NonNullable<HookSourceOptions['turnEnded']> = (agent, sessionId, logPath, provenance) => {
    running?.jsonl
      .turnEnded(agent, sessionId, logPath, provenance)
      .catch((e) =>
        log.warn(`session logs: a turn's end could not be read from ${printable(logPath ?? agent)}: ${printable((e as Error).message)}`),
      );
  };
  return { reconfigure: start, dispose: stop, turnEnded };
}
