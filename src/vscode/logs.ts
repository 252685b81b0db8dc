import * as vscode from 'vscode';
import { defaultLogLocations, JsonlLogSource, LogLocations } from '../sources/logs/logSources';
import type { AgentStore } from '../store/store';
import type { AgentLensConfig } from './config';

/** The session-log sources, started with the settings' locations and restarted when they change. */
export function startLogSources(store: AgentStore, config: () => AgentLensConfig, log: vscode.LogOutputChannel): vscode.Disposable & { reconfigure(): void } {
  let source: JsonlLogSource | undefined;
  let key = '';
  const start = () => {
    const c = config();
    const loc = locations(c);
    const next = c.sessionLogsEnabled ? JSON.stringify(loc) : '';
    if (next === key) return;
    key = next;
    void source?.dispose();
    source = undefined;
    if (!c.sessionLogsEnabled) return;
    const s = new JsonlLogSource({
      locations: loc,
      sink: (o) => store.observe(o),
      log: (level, msg) => log[level](msg),
    });
    source = s;
    s.start().then(
      () => log.info(`watching session logs in ${[...loc.claudeConfigDirs, ...loc.codexHomes].join(', ')}`),
      (e) => log.warn(`session logs cannot be watched: ${(e as Error).message}. States come from the screen only.`),
    );
  };
  start();
  return {
    reconfigure: start,
    dispose: () => void source?.dispose(),
  };
}

function locations(c: AgentLensConfig): LogLocations {
  const d = defaultLogLocations();
  return { claudeConfigDirs: [...d.claudeConfigDirs, ...c.claudeConfigDirs], codexHomes: [...d.codexHomes, ...c.codexHomes] };
}
