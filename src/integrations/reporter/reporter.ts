/**
 * `agent-lens-report <agent>`: run by an agent's hook with the hook's JSON on stdin. Its rules: never a
 * byte on stdout (some CLIs feed a hook's stdout to the model); exit 0 always; bounded time (3 s for its own
 * request; hooks are registered with timeout 10); credentials only from the environment (`AGENT_LENS_HUB`
 * names the discovery file). Every agent's reporter waits for its own request, Codex's too (Codex shows a hook
 * that runs over 300 ms as "Running hook"; a report takes ~0.1 s): the hub finds who sent a report by the
 * process holding its connection, and a copy that outlived the hook could no longer be traced to its agent.
 */
import { readDiscovery } from '../../hub/discovery';
import { post } from './client';
import { readReport } from './reportParts';

const REQUEST_MS = 3000;

async function main(argv: string[]): Promise<void> {
  const hubFile = process.env.AGENT_LENS_HUB;
  const hub = readDiscovery(hubFile);
  const r = await readReport(argv[0], hub ? hubFile : undefined);
  if (hub && r) await post(hub, r.body, REQUEST_MS);
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  () => process.exit(0),
);
