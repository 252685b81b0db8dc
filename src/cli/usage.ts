/**
 * What `agent-lens --help` and each verb's `--help` print: one text per verb, the general usage their
 * first lines. Data only; src/cli/cli.ts prints them.
 */

export const REPLAY_USAGE = `usage: agent-lens replay FILE.cast [--command-line "CMD"] [--cols N --rows N] [--screen]
                          [--log FILE [--log FILE …]] [--hooks FILE [--hooks FILE …]] [--t0 EPOCH_SECONDS]
       agent-lens replay --log FILE [--log FILE …] --usage

Replays an asciinema v2/v3 recording through the Agent Lens detector and prints one JSON object per
line on every change of agent or state:
  {"t": 12.345, "agent": "claude-code", "state": "waiting", "source": "pty-scrape", "evidence": "..."}

  --command-line CMD  the shell-integration command line that started the program (e.g. "claude")
  --cols N --rows N   terminal size (default: the recording's)
  --screen            print the final rendered screen after the states
  --log FILE          the agent's session log for this recording (Claude Code transcript .jsonl, Codex
                      rollout .jsonl, Gemini CLI or Qwen Code chat log .jsonl, Copilot CLI events.jsonl,
                      or an OpenCode rows dump .json); fed through the same store and
                      arbitration as the extension, so the lines show the shown state and its source
  --hooks FILE        hook payloads recorded for this recording, one JSON object a line:
                        {"t": SECONDS, "agent": "claude-code", "payload": {…}}   (t on the cast's clock)
                        {"at_ms": EPOCH_MS, "agent": "codex", "payload": {…}}    (placed by --t0)
                      agent: claude-code, codex, opencode, hermes, gemini, qwen or copilot; payload: the hook's stdin
                      JSON, OpenCode's bus event {type, properties} or Hermes's {hook, …}; read by the
                      extension's hook mapping and source (source "hook"), in time order with the rest
  --t0 SECONDS        wall-clock time (epoch seconds, fractions allowed) of the cast's t = 0, to place
                      the logs' records and "at_ms" hooks on the cast's clock (default: the header's
                      "timestamp")
  --usage             no recording: read the --log files and print one JSON object per agent session in
                      them, what it spent: {"session", "agent", "model", "turns", "tokens": {"input",
                      "output", "cacheRead", "cacheWrite"}, "contextUsed", "contextWindow", "cost",
                      "costSource": "log"|"estimated"|null, "pricesChecked", "partial"}`;

export const SERVE_USAGE = `usage: agent-lens serve --root DIR [--team FILE] [--port N] [--notify FILE] --info-file FILE
       agent-lens serve --workspace DIR [--root DIR] [--team FILE] [--port N] [--notify FILE] --info-file FILE

Runs the hub without VS Code: the handoff doorbell, the hook endpoint, boards under DIR and the registry
(--team, default DIR/team.toml); writes {"port","token"} to the --info-file (mode 0600), never prints the
token, stops on SIGTERM. Delivery goes to tmux panes (tmux send-keys).
  --workspace DIR  boards and registry default to DIR/.agent-lens/{handoff,team.toml}, as in VS Code, and
                   those defaults are the workspace's: a link in them from DIR down is refused, nothing is written.
  --notify FILE    push a dialog still open after delaySeconds to the file's channels (ntfy, webhook,
                   command); FILE is JSON of mode 0600, e.g. {"delaySeconds": 15, "channels": [{"kind": "ntfy",
                   "url": "https://ntfy.sh/TOPIC", "token": "…"}, {"kind": "webhook", "url": "…", "format": "slack"},
                   {"kind": "command", "argv": ["notify-send", "Agent Lens"]}]}.`;

export const NOTIFY_USAGE = `usage: agent-lens notify test --notify FILE

Sends one test message on each channel of --notify FILE (see agent-lens serve --help); exits 1 with one
line per failing channel.`;

const HUB_NOTE = `Talks to the hub named by the file in $AGENT_LENS_HUB (set in VS Code terminals by the extension; export
it to the --info-file for serve). The token is read from that file, never from argv.`;

export const TASK_USAGE = `usage: agent-lens task report --id AGENT::TASK --status done|progress|blocked --summary TEXT [--report PATH]
       agent-lens task cancel --id AGENT::TASK --reason TEXT

Rings the doorbell: tells the hub how a dispatched task stands (report) or that it is called off (cancel).
${HUB_NOTE}`;

export const DISPATCH_USAGE = `usage: agent-lens dispatch --agent AGENT --task-id TASK --brief FILE [--message TEXT]

Types Agent Lens's own line ("Read <brief> and execute it.") into the agent's pane; --message is refused (422)
unless the agent's section of team.toml sets allow_custom_message = true.
${HUB_NOTE}`;

export const STATUS_USAGE = `usage: agent-lens status [--json]

Prints each agent session (terminal, agent, model, context, tokens, cost) and each board (agent, state, task,
last event); --json prints the hub's answer as one JSON line.
${HUB_NOTE}`;

/** Each verb's own usage, for `agent-lens VERB --help` and `agent-lens help VERB`. */
export const VERB_USAGE: Readonly<Record<string, string>> = {
  replay: REPLAY_USAGE,
  serve: SERVE_USAGE,
  notify: NOTIFY_USAGE,
  task: TASK_USAGE,
  dispatch: DISPATCH_USAGE,
  status: STATUS_USAGE,
};

/** The first lines of every verb's usage, then how to read one verb's whole text. */
export const USAGE = [
  ...Object.values(VERB_USAGE).flatMap((u) => u.split('\n\n')[0].split('\n')),
  '',
  'agent-lens VERB --help prints what VERB does and each of its options.',
]
  .map((l, i) => (i === 0 || !l.startsWith('usage: ') ? l : l.replace(/^usage: /, '       ')))
  .join('\n');

/** Whether argv asks for help: `--help` or `-h` anywhere before a `--` (a value such as --summary "-h" is not one). */
export function asksHelp(argv: readonly string[]): boolean {
  for (const a of argv) {
    if (a === '--') return false;
    if (a === '--help' || a === '-h') return true;
  }
  return false;
}
