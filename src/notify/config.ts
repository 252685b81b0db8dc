import * as l10n from '@vscode/l10n';
import * as fs from 'fs';
import { z } from 'zod';
import { minutesOf } from './quietHours';

/**
 * What a channel may be told of: a dialog left open, a long turn that completed, or one that failed, and — only
 * when asked for, since many replies end with one — a reply that ends with a question, or a session whose context
 * is nearly full or that passed its budget.
 */
export const NOTIFY_EVENTS = ['wait', 'turn-completed', 'turn-failed', 'reply', 'usage'] as const;
export type NotifyEventKind = (typeof NOTIFY_EVENTS)[number];

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** HTTPS, or plain HTTP to this machine only (a self-hosted server behind a local proxy, the tests' mocks). */
export function allowedUrl(u: string): boolean {
  try {
    const url = new URL(u);
    // A user:password in the address would be quoted by fetch's errors into the log: a token goes in its own field.
    if (url.username || url.password) return false;
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
  } catch {
    return false;
  }
}

/**
 * A schema's own message, looked up when a value fails rather than when this module loads (before the window's
 * bundle is configured): the window shows these errors in its language, the CLI (no bundle) in English.
 */
const says = (message: () => string) => () => ({ message: message() });

function parsesAsUrl(u: string): boolean {
  try {
    new URL(u);
    return true;
  } catch {
    return false;
  }
}

const url = z
  .string()
  .refine(
    parsesAsUrl,
    says(() => l10n.t('is not a URL')),
  )
  .refine(
    allowedUrl,
    says(() => l10n.t('must be https:// (plain http:// only to 127.0.0.1, [::1] or localhost), with no user:password in it')),
  );

const clockTime = z.string().refine(
  (t) => minutesOf(t) !== undefined,
  says(() => l10n.t('must be a time HH:MM on the 24-hour clock, like "22:00"')),
);

/** Local times between which a channel stays silent; `from` later than `to` spans midnight. */
const quietHours = z.object({ from: clockTime, to: clockTime }).refine(
  (q) => q.from !== q.to,
  says(() => l10n.t('from and to are the same time: give the hours to stay silent, like {"from": "22:00", "to": "07:00"}')),
);

/** A command channel's argv: an empty one is named for what it lacks (the schema's own map, so the words are looked up late). */
const argv = z
  .array(z.string().min(1), {
    errorMap: (issue, ctx) => ({ message: issue.code === 'too_small' ? l10n.t('needs the program to run') : ctx.defaultError }),
  })
  .nonempty();

const common = {
  /** The question, command or reply text too; off, only the agent, the terminal and the kind of wait leave the machine. */
  details: z.boolean().default(false),
  events: z.array(z.enum(NOTIFY_EVENTS)).nonempty().default(['wait']),
  /** Sends closer together than this are folded into one summary. */
  minIntervalSeconds: z.number().min(0).max(3600).default(30),
  /** Nothing but test messages is sent on this channel between these local times (the event is dropped, not held). */
  quietHours: quietHours.optional(),
};

export const ChannelSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('ntfy'),
    /** The topic's URL: `https://ntfy.sh/TOPIC` or a self-hosted server's. */
    url: url.refine(
      // Refinements run on a value already refused too: an address that does not parse is left to the first one.
      (u) => !parsesAsUrl(u) || new URL(u).pathname.replace(/\/+$/, '').split('/').pop() !== '',
      says(() => l10n.t('must end in the topic (https://ntfy.sh/TOPIC)')),
    ),
    token: z.string().min(1).optional(),
    priority: z.number().int().min(1).max(5).default(4),
    ...common,
  }),
  z.object({ kind: z.literal('webhook'), url, format: z.enum(['json', 'slack', 'discord']).default('json'), ...common }),
  z.object({ kind: z.literal('desktop'), sound: z.boolean().default(false), ...common }),
  z.object({
    kind: z.literal('command'),
    argv,
    timeoutSeconds: z.number().min(1).max(300).default(10),
    ...common,
  }),
]);
export type Channel = z.infer<typeof ChannelSchema>;

export const NotifyFileSchema = z.object({
  /** Seconds a dialog stays open before anyone is told (the notification rule: 15). */
  delaySeconds: z.number().min(0).max(3600).default(15),
  /** A turn counts as long, worth telling of its end, after this much work. */
  turnSeconds: z.number().min(0).max(86_400).default(60),
  channels: z.array(ChannelSchema),
});
export type NotifySettings = z.infer<typeof NotifyFileSchema>;

/** Reads `agent-lens serve --notify FILE`: the user's own file, which may hold tokens, so it must be theirs alone. */
export function readNotifyFile(file: string): NotifySettings {
  const st = fs.statSync(file);
  if (!st.isFile()) throw new Error(`${file} is not a file`);
  if ((st.mode & 0o077) !== 0) throw new Error(`${file} holds tokens but others may read it: run chmod 600 ${file}`);
  if (typeof process.getuid === 'function' && st.uid !== process.getuid())
    throw new Error(`${file} belongs to another user: use a file of your own`);
  return parseNotifySettings(fs.readFileSync(file, 'utf8'), file);
}

/**
 * Where JSON.parse stopped, without its quote of the text around it: the text holds tokens, and the message goes
 * to stderr or the log.
 */
export function jsonWhere(e: unknown): string {
  const m = /position (\d+)(?: \(line (\d+) column (\d+)\))?/.exec(String((e as Error).message));
  if (!m) return l10n.t('it does not parse');
  return m[2] ? l10n.t('at position {0} (line {1} column {2})', m[1], m[2], m[3]) : l10n.t('at position {0}', m[1]);
}

/** Parses the settings, naming the field that is wrong. */
export function parseNotifySettings(text: string, where: string): NotifySettings {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(`${where}: not JSON (${jsonWhere(e)})`);
  }
  const r = NotifyFileSchema.safeParse(raw);
  if (r.success) return r.data;
  const first = r.error.issues[0];
  throw new Error(`${where}: ${first.path.join('.') || 'the file'} ${first.message}`);
}
