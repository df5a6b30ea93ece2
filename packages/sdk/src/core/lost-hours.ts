// Credit for lost hours: how much of a driver's schedule in one week searching was impossible
// through no fault of theirs, and what of it is credited as service time (docs/product.md,
// 'Credit for lost hours'). Pure arithmetic; the gateway records the outages and runs the job.
import { formatIsoDay, startOfDay } from './days.js';
import { scheduleStretches } from './offers.js';
import type { DriverFilters } from './schemas/driver.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * Why searching was impossible, strongest first: where outages overlap, the time counts once,
 * under the first of these that covers it (our own gateway down outranks the platform failing,
 * which outranks it throttling the driver).
 */
export const LOST_TIME_REASONS = ['gateway-down', 'platform-outage', 'throttled'] as const;
export type LostTimeReason = (typeof LOST_TIME_REASONS)[number];

/** An outage as recorded: [start, end) in epoch milliseconds. */
export interface LostStretch {
  start: number;
  end: number;
  reason: LostTimeReason;
}

export interface LostHoursRules {
  /** Crediting is on (a setting; on by default). */
  enabled: boolean;
  /** A week's lost time is credited only when it comes to at least this many minutes. */
  minimumMinutes: number;
}

export interface LostHoursWeek {
  /** The Monday the week starts on, in the driver's zone (`YYYY-MM-DD`). */
  week: string;
  /** Its first instant (Monday 00:00 local) and the first instant after it. */
  start: number;
  end: number;
  /** Scheduled time lost, to the millisecond, each instant counted once, by reason. */
  lostMs: Record<LostTimeReason, number>;
  /** Whole minutes lost per reason (only reasons with any), strongest first. */
  byReason: { reason: LostTimeReason; minutes: number }[];
  /** The sum of `byReason`. */
  minutes: number;
  /** What is credited: `minutes` when crediting is on and it reaches the minimum, else 0. */
  creditedMinutes: number;
}

/** The Monday (`YYYY-MM-DD`) that starts the week `ts` falls in, on `timeZone`'s calendar. */
export function weekOf(ts: number, timeZone: string): string {
  const day = Date.parse(`${formatIsoDay(ts, timeZone)}T00:00:00Z`);
  const sinceMonday = (new Date(day).getUTCDay() + 6) % 7;
  return new Date(day - sinceMonday * DAY_MS).toISOString().slice(0, 10);
}

/** The week after `week` (a Monday, `YYYY-MM-DD`). */
function nextWeek(week: string): string {
  return new Date(Date.parse(`${week}T00:00:00Z`) + 7 * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The week starting on Monday `week` (Monday 00:00 to the next Monday 00:00 on the driver's wall
 * clock, so 167 or 169 hours when the clocks change in it): the outages intersected with the
 * schedule's windows, overlaps counted once, and the credit they earn.
 */
export function lostHoursInWeek(
  filters: Pick<DriverFilters, 'weeklySchedule' | 'timeZone'>,
  week: string,
  outages: readonly LostStretch[],
  rules: LostHoursRules,
): LostHoursWeek {
  const start = startOfDay(week, filters.timeZone);
  const end = startOfDay(nextWeek(week), filters.timeZone);
  const lostMs: Record<LostTimeReason, number> = {
    'gateway-down': 0,
    'platform-outage': 0,
    throttled: 0,
  };
  const events: { at: number; rank: number; delta: 1 | -1 }[] = [];
  for (const outage of outages) {
    const from = Math.max(outage.start, start);
    const to = Math.min(outage.end, end);
    if (!(from < to)) continue;
    const rank = LOST_TIME_REASONS.indexOf(outage.reason);
    if (rank < 0) continue;
    events.push({ at: from, rank, delta: 1 }, { at: to, rank, delta: -1 });
  }
  events.sort((a, b) => a.at - b.at);
  const schedule = events.length > 0 ? scheduleStretches(filters, start, end) : [];
  const open = [0, 0, 0];
  let s = 0;
  for (let i = 0; i < events.length; i++) {
    const event = events[i]!;
    open[event.rank]! += event.delta;
    const next = events[i + 1];
    if (!next || next.at === event.at) continue;
    const rank = open.findIndex((n) => n > 0);
    if (rank < 0) continue;
    // Both lists run forward in time: the schedule is walked once.
    const a = event.at;
    const b = next.at;
    while (s < schedule.length && schedule[s]![1] <= a) s++;
    for (let k = s; k < schedule.length && schedule[k]![0] < b; k++) {
      const overlap = Math.min(b, schedule[k]![1]) - Math.max(a, schedule[k]![0]);
      if (overlap > 0) lostMs[LOST_TIME_REASONS[rank]!] += overlap;
    }
  }
  const byReason = LOST_TIME_REASONS.map((reason) => ({
    reason,
    minutes: Math.floor(lostMs[reason] / MINUTE_MS),
  })).filter((r) => r.minutes > 0);
  const minutes = byReason.reduce((n, r) => n + r.minutes, 0);
  const creditedMinutes = rules.enabled && minutes >= rules.minimumMinutes ? minutes : 0;
  return { week, start, end, lostMs, byReason, minutes, creditedMinutes };
}

/** The weeks (Mondays) an outage touches in `timeZone`, in order. */
export function weeksTouched(outage: LostStretch, timeZone: string): string[] {
  if (!(outage.start < outage.end)) return [];
  const weeks: string[] = [];
  const last = weekOf(outage.end - 1, timeZone);
  for (let week = weekOf(outage.start, timeZone); ; week = nextWeek(week)) {
    weeks.push(week);
    if (week >= last) return weeks;
  }
}

/**
 * The service expiry after crediting `minutes`: added to the end of the paid time, or to now when
 * that already passed, so a credit is never spent on time gone by.
 */
export function creditExpiration(current: number, now: number, minutes: number): number {
  return Math.max(current, now) + minutes * MINUTE_MS;
}
