import type { Channel } from './config';
import type { Message } from './message';
import { type PostOptions, postJson } from './post';
import { commandSender, desktopSender } from './programs';
import type { Send, SenderOptions } from './sendTypes';

export type { Send, SenderOptions } from './sendTypes';

/** Text inside a Slack or Discord code block: no closing fence, and for Slack no `&`, `<`, `>` markup. */
function fenced(s: string, slack: boolean): string {
  const t = s.replace(/`/g, 'ˋ');
  return slack ? t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : t;
}

/** ntfy's tags are emoji short codes: one per kind of message. */
const TAGS: Record<Message['event'], string> = {
  wait: 'bell',
  reply: 'question',
  'turn-completed': 'white_check_mark',
  'turn-failed': 'x',
  usage: 'warning',
  summary: 'robot',
  test: 'robot',
};

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
        tags: [TAGS[m.event]],
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

/** The sender for one channel. */
export function senderFor(ch: Channel, o: SenderOptions): Send {
  if (ch.kind === 'ntfy') return ntfy(ch, o.post ?? {});
  if (ch.kind === 'webhook') return webhook(ch, o.post ?? {});
  if (ch.kind === 'desktop') return desktopSender(ch, o);
  return commandSender(ch, o);
}

/** A channel as the log names it: its kind and host, never its URL (a webhook's URL is its secret) or token. */
export function channelName(ch: Channel): string {
  if (ch.kind === 'command') return `command ${ch.argv[0]}`;
  if (ch.kind === 'desktop') return 'desktop';
  return `${ch.kind} ${new URL(ch.url).host}`;
}
