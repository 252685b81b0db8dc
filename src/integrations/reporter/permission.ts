/**
 * `agent-lens-permission claude-code`: Claude Code's `PermissionRequest` hook. It reports the dialog as the
 * reporter does, on a connection it keeps open: when the user has turned on answering from VS Code and decides
 * there, the hub answers on it, and this prints Claude Code's decision JSON on stdout — the hook's documented
 * decision channel, and the only thing it ever prints. In every other case it prints nothing and exits, which
 * leaves the dialog in the terminal as it was: no hub, answering off, the dialog answered in the terminal, the
 * hold over its limit, anything unexpected. Claude Code SIGTERMs it when the dialog is refused there (No, Esc).
 */
import { readDiscovery } from '../../hub/discovery';
import { asciiJson, claudeDecisionJson, decisionOf, HOLD_GIVE_UP_MS, HOLD_PATH } from '../../hooks/decision';
import { post, request } from './client';
import { readReport } from './reportParts';

/** A plain report's own time, as the reporter gives it. */
const REPORT_MS = 3000;

async function main(argv: string[]): Promise<string | undefined> {
  const hubFile = process.env.AGENT_LENS_HUB;
  const hub = readDiscovery(hubFile);
  const r = await readReport(argv[0], hub ? hubFile : undefined);
  if (!hub || !r || r.report.agent !== 'claude-code') return undefined;
  const answer = await request(hub, HOLD_PATH, r.body, HOLD_GIVE_UP_MS);
  // A hub without the route (an older window, a test's) has not recorded the report: send it as the reporter does.
  if (answer?.status === 404) await post(hub, r.body, REPORT_MS);
  if (answer?.status !== 200) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.text);
  } catch {
    return undefined;
  }
  const d = decisionOf(parsed);
  // An answer is checked against the dialog's own input, from this hook's stdin, never the hub's copy.
  return d ? claudeDecisionJson(d, r.report.payload.tool_input) : undefined;
}

function exit(): void {
  process.exit(0);
}

// ASCII: on Windows PowerShell hands the line on through the console's code page (src/hooks/decision.ts asciiJson).
main(process.argv.slice(2)).then((out) => (out ? process.stdout.write(`${asciiJson(out)}\n`, exit) : exit()), exit);
