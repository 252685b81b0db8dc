/** A channel's quiet hours: local wall-clock times, `HH:MM` in 24 hours; `from` after `to` spans midnight. */
export interface QuietHours {
  from: string;
  to: string;
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes after midnight of an `HH:MM` time, or undefined when it is not one. */
export function minutesOf(hhmm: string): number | undefined {
  const m = HHMM.exec(hhmm);
  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
}

/**
 * Whether `date` falls in the quiet hours, read on the local clock the person lives by (the hours and minutes
 * the machine shows, so a change to or from daylight saving time moves nothing): from `from` included to `to`
 * excluded, across midnight when `from` is later than `to`.
 */
export function inQuietHours(q: QuietHours, date: Date): boolean {
  const from = minutesOf(q.from);
  const to = minutesOf(q.to);
  if (from === undefined || to === undefined || from === to) return false;
  const now = date.getHours() * 60 + date.getMinutes();
  return from < to ? now >= from && now < to : now >= from || now < to;
}
