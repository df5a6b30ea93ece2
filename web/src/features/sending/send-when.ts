// When a send's texts leave, in one plain sentence: "Sends 403 now, 12 at 8:00 AM in their time
// zone (after quiet hours)." instead of "Sends now." above a separate count that waits.
import type { TFunction } from 'i18next';
import { formatters } from '../../hooks/useFormat.js';

/** Quiet hours end at 8 am in each recipient's zone (any day's 08:00 UTC, read in UTC). */
const QUIET_HOURS_END = Date.UTC(2000, 0, 1, 8);

export function sendWhenText(
  t: TFunction,
  language: string,
  {
    queued,
    waiting,
    when,
  }: {
    /** Recipients the send would queue (the skipped left out). */
    queued: number;
    /** Of those, how many are in quiet hours and wait for 8 am. */
    waiting: number;
    /** The scheduled start as the admin reads it, or undefined for now. */
    when: string | undefined;
  },
): string {
  if (waiting <= 0) {
    return when === undefined ? t('admin.review.sendsNow') : t('admin.review.sendsAt', { when });
  }
  const time = formatters(language, 'UTC', 'UTC').time(QUIET_HOURS_END);
  const split = { now: Math.max(0, queued - waiting), later: waiting, time };
  if (split.now === 0) return t('admin.review.sendsAllLater', { count: waiting, time });
  return when === undefined
    ? t('admin.review.sendsNowSplit', split)
    : t('admin.review.sendsAtSplit', { ...split, when });
}
