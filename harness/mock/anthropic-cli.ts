/**
 * Standalone Anthropic Messages API mock for Claude Code:
 *
 *   node mock-anthropic.js --script <scenario.json> --port-file <path> --log <path> [--port N] [--verbose]
 *
 * Then launch `claude` with ANTHROPIC_BASE_URL=http://127.0.0.1:<port> (see homes.prepareClaudeHome()).
 * Scenario scripts: `record --export-mock-scripts <dir>` writes <dir>/claude-code/<scenario>.json.
 */
import { mockCliMain } from './cli';

mockCliMain(process.argv.slice(2), 'anthropic').catch((e: unknown) => {
  process.stderr.write(`${String((e as Error).stack ?? e)}\n`);
  process.exit(2);
});
