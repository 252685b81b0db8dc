import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { agentLensHome, markerDir, SESSION_MARKER_PREFIX } from '../integrations/commands';
import { pidAlive } from '../hub/discovery';
import type { Hub } from '../hub/hub';
import { ignorePortForwarding, type PortAttributesApi } from '../hub/portForwarding';
import { listenForHooks } from '../sources/hooks/hookHub';
import { WindowsLineage } from '../sources/hooks/lineage';
import type { HookSourceOptions } from '../sources/hooks/hookSource';
import type { HookSource } from '../sources/hooks/hookSource';
import type { AgentStore } from '../store/store';
import type { TerminalAdapter } from './terminals';
import { HUB_ENV } from '../handoff/hubClient';
import { answeringScript, installReporter } from '../integrations/reporter/reporterFiles';
import { mountHold } from '../answer/holdRoute';
import type { PendingAnswers } from '../answer/pending';
import { provenanceFor } from '../answer/provenance';
import { escaped } from '../common/log';
import { hostPlatform } from '../common/platform';

export interface RunningHub extends vscode.Disposable {
  hub: Hub;
  hooks: HookSource;
  /** The discovery file every terminal of this window names in `AGENT_LENS_HUB`. */
  discoveryFile: string;
  /** The stable reporter command hook settings call. */
  reporter: string;
}

/**
 * Starts this window's hub and tells terminals where it is. The environment holds only the path of a 0600
 * discovery file (port + token), never the token, and the path is the same on every activation of this
 * workspace, so terminals opened before a reload keep reporting to the new hub without a relaunch.
 */
export async function startHub(
  context: vscode.ExtensionContext,
  store: AgentStore,
  terminals: TerminalAdapter,
  log: vscode.LogOutputChannel,
  answers: { pending: PendingAnswers; enabled: () => boolean; turnEnded: HookSourceOptions['turnEnded'] },
): Promise<RunningHub> {
  const home = agentLensHome();
  const discoveryFile = path.join(home, 'hubs', `${workspaceKey()}.json`);
  // First: it refuses a bin folder others can write, and then no hub should be left listening.
  const reporter = installReporter(home, context.asAbsolutePath(path.join('dist', 'agent-lens-report.js')), nodeForHooks());
  const { hub, hooks, port, publish, close } = await listenForHooks(store, {
    discoveryFile,
    log,
    terminalFor: (pids) => terminals.terminalForPids(pids),
    turnEnded: answers.turnEnded,
    // Windows reporters send no ancestry: the hub reads it from the process table (src/sources/hooks/lineage.ts).
    ...(hostPlatform() === 'win32' ? { ancestryOf: new WindowsLineage().ancestry } : {}),
  });
  const script = answeringScript(home);
  mountHold(hub, {
    hooks,
    waits: store,
    pending: answers.pending,
    enabled: answers.enabled,
    provenance: provenanceFor(script),
    log: escaped(log),
  });
  publish();
  // Only remote windows forward ports: the hub is for this machine's terminals, not the client's (src/hub/portForwarding.ts).
  const noForward = vscode.env.remoteName
    ? ignorePortForwarding(
        vscode.workspace as unknown as PortAttributesApi,
        port,
        (vscode as unknown as { PortAutoForwardAction?: { Ignore?: number } }).PortAutoForwardAction?.Ignore,
        log,
      )
    : undefined;
  setEnvironment(context.environmentVariableCollection, discoveryFile);
  pruneMarkers(markerDir(discoveryFile));
  log.info(`hub listening on 127.0.0.1:${port}; terminals find it through ${HUB_ENV}=${discoveryFile}; reporter at ${reporter}`);
  return {
    hub,
    hooks,
    discoveryFile,
    reporter,
    dispose: () => {
      noForward?.dispose();
      void close();
    },
  };
}

/** One stable value per workspace (an empty window shares one). Replacing an identical value would still ask to relaunch terminals. */
function setEnvironment(env: vscode.GlobalEnvironmentVariableCollection, discoveryFile: string): void {
  env.description = vscode.l10n.t('Lets agents’ hooks report to Agent Lens (the path of its local hub’s discovery file; no secret).');
  if (env.get(HUB_ENV)?.value !== discoveryFile) env.replace(HUB_ENV, discoveryFile);
}

/** This workspace's key: names its hub's discovery file and what its terminals had (src/vscode/terminalMemory.ts). */
export function workspaceKey(): string {
  const ws = vscode.workspace.workspaceFile?.toString() ?? vscode.workspace.workspaceFolders?.[0]?.uri.toString() ?? 'no-folder';
  return createHash('sha256').update(ws).digest('hex').slice(0, 16);
}

/**
 * The Node that runs the reporter: VS Code's own runtime when it is plain Node (code-server, remote hosts),
 * else a `node` on PATH, else Electron in Node mode (slower to start).
 */
export function nodeForHooks(): { path: string; electron: boolean } {
  if (!process.versions.electron) return { path: process.execPath, electron: false };
  const name = hostPlatform() === 'win32' ? 'node.exe' : 'node';
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, name);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return { path: p, electron: false };
    } catch {
      /* next */
    }
  }
  return { path: process.execPath, electron: true };
}

/** A session's marker (Windows) outlives its wait only when the agent died in it; after a day it is taken for that. */
const SESSION_MARKER_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Wait markers of agent processes that are gone (a crash skips the close that clears them): each costs a report per
 * tool call. Windows names markers by session (src/hooks/markers.ts markerName), with no pid to ask about:
 * those go when a day old.
 */
function pruneMarkers(dir: string): void {
  let names: string[] = [];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) {
    const file = path.join(dir, n);
    if (n.startsWith(SESSION_MARKER_PREFIX)) {
      if (Date.now() - (fs.lstatSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > SESSION_MARKER_MAX_AGE_MS)
        fs.rmSync(file, { force: true });
      continue;
    }
    const pid = Number(n);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    if (!pidAlive(pid)) fs.rmSync(file, { force: true });
  }
}
