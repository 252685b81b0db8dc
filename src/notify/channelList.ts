import * as l10n from '@vscode/l10n';
import { z } from 'zod';
import { type Channel, ChannelSchema, jsonWhere, type NotifyEventKind } from './config';
import { issueWords } from './issues';
import { minutesOf, type QuietHours } from './quietHours';

/**
 * The phone and chat channels a VS Code window sends to, as kept in VS Code's secret storage: one JSON value
 * holding every channel, tokens and webhook URLs included, so none of them is ever in settings.json, where a
 * workspace, a settings sync or a screenshot could read it. The desktop channel is not here: it holds no secret
 * and is the `agentLens.notifications.desktop*` settings.
 */
export const SECRET_KEY = 'agentLens.notifications.channels';

const PushChannelSchema = ChannelSchema.refine(
  (c) => c.kind !== 'desktop',
  () => ({ message: l10n.t('desktop is set in the settings, not here') }),
);
const StoredSchema = z.object({ version: z.literal(1), channels: z.array(PushChannelSchema) });
export type PushChannel = Exclude<Channel, { kind: 'desktop' }>;

/**
 * The stored channels; a value that does not parse is an error naming what is wrong (nothing is dropped silently).
 * The window shows it (src/vscode/notifyChannels.ts), so it is worded in the window's language, field names aside.
 */
export function parseChannelList(text: string | undefined): PushChannel[] {
  if (text === undefined || text === '') return [];
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(
      l10n.t('the stored notification channels are not JSON ({0}); add the channels again in Configure Notifications…', jsonWhere(e)),
    );
  }
  const r = StoredSchema.safeParse(raw, { errorMap: issueWords });
  if (!r.success) {
    const first = r.error.issues[0];
    throw new Error(
      l10n.t(
        'the stored notification channels are not valid: {0}',
        fieldSays(first, (m) => l10n.t('the value {0}', m)),
      ),
    );
  }
  return r.data.channels as PushChannel[];
}

/** "url must be https://…": the field's JSON path as written, then what is wrong with it; `whole` words it when the value itself is. */
function fieldSays(issue: z.ZodIssue, whole: (message: string) => string): string {
  return issue.path.length ? `${issue.path.join('.')} ${issue.message}` : whole(issue.message);
}

export function serializeChannelList(channels: readonly PushChannel[]): string {
  return JSON.stringify({ version: 1, channels });
}

/** A new channel from what the user typed, with zod's defaults; an error names the field. */
export function makeChannel(raw: Record<string, unknown>): PushChannel {
  const r = PushChannelSchema.safeParse(raw, { errorMap: issueWords });
  if (r.success) return r.data as PushChannel;
  throw new Error(fieldSays(r.error.issues[0], (m) => l10n.t('the channel {0}', m)));
}

/**
 * How a channel is shown in a list: its kind and where it sends, never a token, and for a webhook only its host
 * (the URL's path is the webhook's secret). An ntfy topic is shown, since the user needs to tell topics apart;
 * it is not a secret the list would reveal to anyone but the user.
 */
export function channelWhere(c: PushChannel): string {
  if (c.kind === 'command') return c.argv[0];
  const u = new URL(c.url);
  if (c.kind === 'ntfy') return `${u.host}${u.pathname.replace(/\/+$/, '')}`;
  return u.host;
}

/** The command line of a command channel: a JSON array of strings, or words split at spaces ("…" keeps spaces). */
export function parseArgv(text: string): string[] {
  const t = text.trim();
  if (t.startsWith('[')) {
    const r = z.array(z.string().min(1)).nonempty().safeParse(safeJson(t));
    if (!r.success) throw new Error(l10n.t('a JSON array of strings is expected, such as ["notify.sh", "--quiet"]'));
    return r.data;
  }
  const words: string[] = [];
  // One pass, no backtracking: a quoted run or a run of non-space characters.
  for (const m of t.matchAll(/"([^"]*)"|(\S+)/g)) words.push(m[1] ?? m[2]);
  if (!words.length) throw new Error(l10n.t('type the program to run, then its arguments'));
  return words;
}

function safeJson(t: string): unknown {
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
}

/** Quiet hours typed as `22:00-07:00` (a one-digit hour is read as `07`); empty means none. */
export function parseQuietHours(text: string): QuietHours | undefined {
  const t = text.trim();
  if (!t) return undefined;
  const [from, to, ...rest] = t.split('-').map((x) => x.trim().replace(/^(\d):/, '0$1:'));
  if (rest.length || minutesOf(from) === undefined || to === undefined || minutesOf(to) === undefined)
    throw new Error(l10n.t('type two times of day, such as 22:00-07:00'));
  if (from === to) throw new Error(l10n.t('the quiet hours start and end at the same time'));
  return { from, to };
}

export const EVENT_ORDER: readonly NotifyEventKind[] = ['wait', 'turn-completed', 'turn-failed', 'reply', 'usage'];
