import { type Logger } from '../common/log';
/**
 * Keeps VS Code from auto-forwarding the hub's port. In Remote-SSH, containers and code-server, VS Code scans
 * for listening ports (the extension host's included) and forwards them to the client machine, where any local
 * process could then reach the hub (still behind its token, but it was meant to be loopback on one machine).
 *
 * The only per-port control is `workspace.registerPortAttributesProvider`, which is still a *proposed* API in
 * @types/vscode 1.93 (proposal `portsAttributes`): stable VS Code throws for an extension that has not enabled
 * the proposal, and a Marketplace extension cannot enable it. So this feature-detects it and swallows the
 * refusal: it takes effect where proposals are allowed (`--enable-proposed-api agent-lens.agent-lens`) and
 * once the API is finalized, and costs nothing elsewhere. `remote.portsAttributes` in configurationDefaults
 * cannot help: the port is random per run. Nothing here imports vscode (the caller passes its API in), so it is
 * unit-tested.
 */

const ADVICE =
  'VS Code may auto-forward the hub\'s port to your local machine (the token still guards it); to prevent that, set "remote.autoForwardPorts": false';

/** `PortAutoForwardAction.Ignore` in the proposal; used when the enum itself is not exposed. */
export const PORT_AUTO_FORWARD_IGNORE = 5;

interface Disposable {
  dispose(): unknown;
}

/** What the proposal's provider receives: `{port, pid, commandLine}` now, `(port, pid, commandLine)` before. */
type PortArg = number | { port?: number; pid?: number; commandLine?: string };

export interface PortAttributesApi {
  registerPortAttributesProvider?: (
    selector: { portRange?: [number, number]; pid?: number },
    provider: { providePortAttributes(attrs: PortArg, ...rest: unknown[]): { autoForwardAction: number } | undefined },
  ) => Disposable;
}

/**
 * Registers "ignore" for `port` when the API is there and allowed; returns its disposable, or undefined (with
 * the reason logged once) when it is not. Never throws.
 */
export function ignorePortForwarding(
  workspace: PortAttributesApi,
  port: number,
  ignoreAction: number | undefined,
  log?: Logger,
): Disposable | undefined {
  const register = workspace.registerPortAttributesProvider;
  if (typeof register !== 'function') {
    log?.info(`${ADVICE} (hub port ${port}; this VS Code has no port attributes API)`);
    return undefined;
  }
  const action = ignoreAction ?? PORT_AUTO_FORWARD_IGNORE;
  const provider = {
    providePortAttributes: (attrs: PortArg) =>
      (typeof attrs === 'number' ? attrs : attrs?.port) === port ? { autoForwardAction: action } : undefined,
  };
  try {
    // portRange's end is exclusive.
    return register.call(workspace, { portRange: [port, port + 1] }, provider);
  } catch (e) {
    log?.info(`${ADVICE} (hub port ${port}; VS Code refused the port attributes API: ${(e as Error).message.split('\n')[0]})`);
    return undefined;
  }
}
