import type { Logger } from '../../common/log';
import { REPORT_BODY_LIMIT, REPORT_PATH } from '../../hooks/wire';
import { discoveryFolder, removeDiscovery, writeDiscovery } from '../../hub/discovery';
import { Hub } from '../../hub/hub';
import type { AgentStore } from '../../store/store';
import { HookSource, type HookSourceOptions } from './hookSource';

export interface HookHub {
  hub: Hub;
  hooks: HookSource;
  port: number;
  /** Writes the discovery file: clients find the hub from then on, so call it once every route is mounted. */
  publish(): void;
  /** Stops listening and removes the discovery file (only if it is still this hub's). */
  close(): Promise<void>;
}

/**
 * The hub agents' hooks report to, listening on loopback, and its 0600 discovery file: the same for a VS Code
 * window and for `agent-lens serve`. Other routes (the doorbell) are mounted on `hub` by their owner before
 * `publish()`, so a client that finds the file finds them too.
 */
export async function listenForHooks(
  store: AgentStore,
  o: Pick<HookSourceOptions, 'turnEnded' | 'ancestryOf'> & {
    discoveryFile: string;
    port?: number;
    log: Logger;
    terminalFor?: HookSourceOptions['terminalFor'];
  },
): Promise<HookHub> {
  // First: a folder where the token would not be private refuses the hub before it listens (Windows).
  discoveryFolder(o.discoveryFile);
  const hooks = new HookSource(store, {
    terminalFor: o.terminalFor ?? (() => undefined),
    log: o.log,
    turnEnded: o.turnEnded,
    ancestryOf: o.ancestryOf,
  });
  const hub = new Hub({ bodyLimit: REPORT_BODY_LIMIT, port: o.port, log: o.log });
  hub.mount(REPORT_PATH, hooks.handle);
  const port = await hub.listen();
  return {
    hub,
    hooks,
    port,
    publish: () => writeDiscovery(o.discoveryFile, { v: 1, port, token: hub.token, pid: process.pid }),
    close: async () => {
      removeDiscovery(o.discoveryFile, hub.token);
      await hub.close();
    },
  };
}
