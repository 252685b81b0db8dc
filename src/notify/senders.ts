import { spawn } from 'child_process';
import type { Channel } from './config';
import type { Message } from './message';
import { type PostOptions, postJson, SendError } from './post';

export type Send = (m: Message) => Promise<void>;

/** Text inside a Slack or Discord code block: no closing fence, and for Slack no `&`, `<`, `>` markup. */
function fenced(s: string, slack: boolean): string {
  const t = s.replace(/`/g, 'ˋ');
  return slack ? t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : t;
}

/** ntfy's JSON publish: POST to the server's root with the topic in the body. */
function ntfy(ch: Extract<Channel, { kind: 'ntfy' }>, o: PostOptions): Send {
  const u = new URL(ch.url);
  const parts = u.pathname.split('/').filter(Boolean);
  const topic = parts.pop()!;
  const root = `${u.origin}/${parts.map((p) => `${p}/`).join('')}`;
  const headers: Record<string, string> = ch.token ? { authorization: `Bearer ${ch.token}` } : {};
  return (m) =>
    postJson(
      root,
      {
        topic,
        title: m.title,
        message: m.body,
        priority: m.event === 'wait' || m.event === 'summary' ? ch.priority : Math.min(ch.priority, 3),
        tags: [m.event === 'wait' ? 'bell' : m.event === 'turn-failed' ? 'x' : m.event === 'turn-completed' ? 'white_check_mark' : 'robot'],
      },
      headers,
      o,
    );
}

/** A JSON webhook: Agent Lens's own shape, or Slack's or Discord's incoming-webhook body. */
function webhook(ch: Extract<Channel, { kind: 'webhook' }>, o: PostOptions): Send {
  return (m) => {
    if (ch.format === 'slack')
      return postJson(ch.url, { text: `${fenced(m.title, true)}\n\`\`\`${fenced(m.body, true)}\`\`\``, mrkdwn: true }, {}, o);
    if (ch.format === 'discord')
      // No mentions, no link previews (flags 4: SUPPRESS_EMBEDS); the outside text sits in a code block.
      return postJson(
        ch.url,
        { content: `${fenced(m.title, false)}\n\`\`\`\n${fenced(m.body, false)}\n\`\`\``, allowed_mentions: { parse: [] }, flags: 4 },
        {},
        o,
      );
    return postJson(ch.url, { source: 'agent-lens', event: m.event, title: m.title, body: m.body, count: m.count }, {}, o);
  };
}

const OUTPUT_KEPT = 4096;

/**
 * The user's command: argv as given (no shell), the message in AGENT_LENS_* variables and as JSON on stdin.
 * What it prints goes to `output` (the log), cut to 4 KB; a non-zero exit or the timeout is a failure.
 */
function command(ch: Extract<Channel, { kind: 'command' }>, output: (text: string) => void): Send {
  return (m) =>
    new Promise((resolve, reject) => {
      const [program, ...args] = ch.argv;
      const env = {
        ...process.env,
        AGENT_LENS_EVENT: m.event,
        AGENT_LENS_TITLE: m.title,
        AGENT_LENS_BODY: m.body,
        AGENT_LENS_COUNT: String(m.count),
      };
      const p = spawn(program, args, { env, stdio: ['pipe', 'pipe', 'pipe'], timeout: ch.timeoutSeconds * 1000, killSignal: 'SIGKILL' });
      let out = '';
      const keep = (d: Buffer) => void (out.length < OUTPUT_KEPT && (out += d.toString('utf8')));
      p.stdout.on('data', keep);
      p.stderr.on('data', keep);
      p.on('error', (e) => reject(new SendError('spawn', `could not run ${program}: ${e.message}`)));
      p.on('close', (code, signal) => {
        if (out.trim()) output(out.slice(0, OUTPUT_KEPT).trim());
        if (code === 0) resolve();
        else if (signal) reject(new SendError('timeout', `${program} did not finish within ${ch.timeoutSeconds} s (${signal})`));
        else reject(new SendError(`exit ${code}`, `${program} exited with ${code}`));
      });
      p.stdin.on('error', () => undefined);
      p.stdin.end(JSON.stringify({ source: 'agent-lens', event: m.event, title: m.title, body: m.body, count: m.count }));
    });
}

/** The sender for one channel. */
export function senderFor(ch: Channel, o: { post?: PostOptions; output(text: string): void }): Send {
  if (ch.kind === 'ntfy') return ntfy(ch, o.post ?? {});
  if (ch.kind === 'webhook') return webhook(ch, o.post ?? {});
  return command(ch, o.output);
}

/** A channel as the log names it: its kind and host, never its URL (a webhook's URL is its secret) or token. */
export function channelName(ch: Channel): string {
  if (ch.kind === 'command') return `command ${ch.argv[0]}`;
  return `${ch.kind} ${new URL(ch.url).host}`;
}
