// Decides whether the catcher takes an offered block for a driver: the filter rules of
// docs/product.md ('The driver's filters'), checked in their order, with each driver's filters compiled once for the many offers they meet.
//
// Schedule windows are read on the driver's wall clock. A window `start`–`end` of a day holds
// exactly the instants at which the driver's clock shows that date and a time in [start, end);
// `24:00` is the midnight that ends the date. A window ending before it starts (22:00–02:00)
// crosses midnight: it holds that date from `start` on and the next date before `end`, as one
// stretch. A block fits when every instant of it is held by one window: one of the day it starts
// on (its local start day), or a crossing window of the day before. On daylight-saving days:
// - spring forward (2026-03-08 in New York, 02:00–03:00 never shown): a window edge inside the
//   skipped hour falls on the jump, so 01:00–04:00 lasts 2 real hours and 00:00–24:00 lasts 23;
// - fall back (2026-11-01 in New York, 01:00–02:00 shown twice): the window holds both passes of
//   the repeated times it covers, but not the other pass of times it does not. 01:30–03:00 holds
//   the first 01:30–02:00 and everything from the second 01:30 on, so a block from the second
//   01:30 to 02:30 fits while one from the first 01:30 does not (its clock goes back to 01:00);
//   00:00–24:00 lasts 25 hours.
// An offer ending no later than it starts fits no window, so it is refused for 'schedule'; the
// hourly-pay rule, which it would divide by zero or less for, lets it through to get there.
import { endOfDay, offsetAt, startOfDay } from './days.js';
import {
  type Block,
  type DriverFilters,
  type Offer,
  type ScheduleWindow,
  WEEKDAYS,
  type WeeklySchedule,
} from './schemas/driver.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Why an offer was refused, in the order the rules are checked. */
export const REFUSAL_REASONS = [
  'warehouse',
  'hourly-pay',
  'block-pay',
  'time-buffer',
  'schedule',
  'overlap',
  'block-length',
  'hours-per-day',
  'hours-per-week',
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

export interface MatchContext {
  /** Epoch milliseconds the decision is made at. */
  now: number;
  /** Blocks the driver already holds; an offer may touch them but not overlap. */
  wonBlocks: readonly Block[];
}

export interface MatchResult {
  readonly accept: boolean;
  /** The first rule the offer fails, or null when it is accepted. */
  readonly reason: RefusalReason | null;
}

export type OfferMatcher = (offer: Offer, ctx: MatchContext) => MatchResult;

/**
 * How long after it ends a won block still matters to the matcher: the hours caps count the won
 * blocks of the offer's week, which began at most 7 days (and a clock change) before any offer
 * that has not started yet. Callers may drop won blocks that ended longer ago than this.
 */
export const WON_BLOCKS_KEPT_MS = 8 * DAY_MS;

/**
 * The order the offers of one poll are decided in: the best-paying first, then the earliest
 * start, then the offer id. Overlap and the hours caps then leave the better block to the driver.
 */
export function compareForTaking(a: Offer, b: Offer): number {
  return (
    b.pay - a.pay ||
    a.startTime - b.startTime ||
    (a.offerId < b.offerId ? -1 : a.offerId > b.offerId ? 1 : 0)
  );
}

// Shared, frozen answers: a decision allocates nothing, which counts at every offer × driver.
const ACCEPTED: MatchResult = Object.freeze({ accept: true, reason: null });
const REFUSED = Object.fromEntries(
  REFUSAL_REASONS.map((reason) => [reason, Object.freeze({ accept: false, reason })]),
) as Record<RefusalReason, MatchResult>;

/**
 * Decides one offer. Compiles `filters` on every call; the catcher, which sees every offer for
 * every driver, keeps a `createOfferMatcher(filters)` per driver instead.
 */
export function matchOffer(offer: Offer, filters: DriverFilters, ctx: MatchContext): MatchResult {
  return createOfferMatcher(filters)(offer, ctx);
}

/** Compiles `filters` into a function deciding offers for them, the same way `matchOffer` does. */
export function createOfferMatcher(filters: DriverFilters): OfferMatcher {
  const rulesByStation = compileStationRules(filters);
  const minLengthMs = (filters.minBlockHours ?? 0) * HOUR_MS;
  const maxLengthMs = (filters.maxBlockHours ?? Number.POSITIVE_INFINITY) * HOUR_MS;
  const schedule = compileSchedule(filters.weeklySchedule);
  const calendar = calendarOf(filters.timeZone);
  const anyBlockPay = filters.anyBlockPay ?? Number.POSITIVE_INFINITY;
  const maxDayMs = capMs(filters.maxHoursPerDay);
  const maxWeekMs = capMs(filters.maxHoursPerWeek);
  const capped = Number.isFinite(maxDayMs) || Number.isFinite(maxWeekMs);

  /** The first cap the offer would break, counting the won blocks starting on its day and week. */
  function overCap(start: number, duration: number, won: readonly Block[]): MatchResult | null {
    const day = calendar.dayContaining(start);
    const monday = mondayOf(day);
    let dayMs = duration;
    let weekMs = duration;
    for (const block of won) {
      const wonDay = calendar.dayContaining(block.startTime);
      if (mondayOf(wonDay) !== monday) continue;
      weekMs += block.endTime - block.startTime;
      if (wonDay.wall === day.wall) dayMs += block.endTime - block.startTime;
    }
    if (dayMs > maxDayMs) return REFUSED['hours-per-day'];
    if (weekMs > maxWeekMs) return REFUSED['hours-per-week'];
    return null;
  }

  function fitsSchedule(start: number, end: number): boolean {
    const day = calendar.dayContaining(start);
    const { within, crossing } = schedule[day.weekday]!;
    for (let i = 0; i < within.length; i += 2) {
      if (windowHolds(day, within[i]!, within[i + 1]!, null, start, end)) return true;
    }
    if (crossing.length > 0) {
      const next = calendar.dayAfter(day);
      for (let i = 0; i < crossing.length; i += 2) {
        if (windowHolds(day, crossing[i]!, crossing[i + 1]!, next, start, end)) return true;
      }
    }
    // A crossing window of the day before holds this day's early hours.
    const before = schedule[(day.weekday + 6) % 7]!.crossing;
    if (before.length > 0) {
      const previous = calendar.dayBefore(day);
      for (let i = 0; i < before.length; i += 2) {
        if (windowHolds(previous, before[i]!, before[i + 1]!, day, start, end)) return true;
      }
    }
    return false;
  }

  return (offer, ctx) => {
    const { startTime, endTime, pay } = offer;
    const rules = rulesByStation.get(offer.serviceAreaId);
    if (rules === undefined) return REFUSED.warehouse;
    const duration = endTime - startTime;
    if (duration > 0 && pay / (duration / HOUR_MS) < rules.minHourlyPay && pay < anyBlockPay) {
      return REFUSED['hourly-pay'];
    }
    if (pay < rules.minBlockPay) return REFUSED['block-pay'];
    if (startTime - ctx.now < rules.bufferMs) return REFUSED['time-buffer'];
    if (duration <= 0 || !fitsSchedule(startTime, endTime)) return REFUSED.schedule;
    for (const won of ctx.wonBlocks) {
      // Half-open intervals: a block ending as the offer starts leaves it free.
      if (startTime < won.endTime && won.startTime < endTime) return REFUSED.overlap;
    }
    if (duration < minLengthMs || duration > maxLengthMs) return REFUSED['block-length'];
    if (capped) return overCap(startTime, duration, ctx.wonBlocks) ?? ACCEPTED;
    return ACCEPTED;
  };
}

/**
 * How far ahead of a schedule window the catcher already searches: platforms offer blocks hours
 * to a day before they start, so a driver is searched from a day before a window opens until it
 * closes (docs/product.md, 'Outside the schedule').
 */
export const SEARCH_AHEAD_MS = 24 * HOUR_MS;

export interface ScheduleSearch {
  /** A window is open now or opens within `SEARCH_AHEAD_MS`. */
  searching: boolean;
  /** When not searching: when searching starts again (a day before the next window), or null
   * when the schedule has no window at all. */
  searchFrom: number | null;
}

/** A week with the same windows every day (each day its own copies): "copy to every day". */
export function everyDay(windows: readonly ScheduleWindow[]): WeeklySchedule {
  return Object.fromEntries(
    WEEKDAYS.map((day) => [day, windows.map((w) => ({ ...w }))]),
  ) as WeeklySchedule;
}

/**
 * Whether the catcher should search for a driver with this schedule at `now`. Window edges are
 * placed on the clock's first pass, so on a clock-change day they may be an hour off; the day of
 * look-ahead makes that immaterial.
 */
export function scheduleSearch(
  filters: Pick<DriverFilters, 'weeklySchedule' | 'timeZone'>,
  now: number,
): ScheduleSearch {
  const schedule = compileSchedule(filters.weeklySchedule);
  const calendar = calendarOf(filters.timeZone);
  const today = calendar.dayContaining(now);
  let day = calendar.dayBefore(today);
  let next = Number.POSITIVE_INFINITY;
  // Yesterday's crossing windows may still be open; a week and a day covers every weekday.
  for (let i = 0; i < 9; i++, day = calendar.dayAfter(day)) {
    const { within, crossing } = schedule[day.weekday]!;
    for (let k = 0; k < within.length + crossing.length; k += 2) {
      const crosses = k >= within.length;
      const list = crosses ? crossing : within;
      const j = crosses ? k - within.length : k;
      const opens = clockInstant(day, list[j]!);
      const closes = crosses
        ? clockInstant(calendar.dayAfter(day), list[j + 1]!)
        : clockInstant(day, list[j + 1]!);
      if (closes <= now || opens >= closes) continue;
      if (opens - SEARCH_AHEAD_MS <= now) return { searching: true, searchFrom: null };
      next = Math.min(next, opens - SEARCH_AHEAD_MS);
    }
  }
  return { searching: false, searchFrom: Number.isFinite(next) ? next : null };
}

/**
 * The instants in [from, to) that the schedule's windows hold, on the wall clock of its zone as
 * the matcher reads them (the top of this file): sorted, merged [start, end) stretches. On a
 * fall-back day a window holds both passes of the repeated times it covers; on a spring-forward
 * day an edge in the skipped hour falls on the jump.
 */
export function scheduleStretches(
  filters: Pick<DriverFilters, 'weeklySchedule' | 'timeZone'>,
  from: number,
  to: number,
): [number, number][] {
  if (!(from < to)) return [];
  const schedule = compileSchedule(filters.weeklySchedule);
  const calendar = calendarOf(filters.timeZone);
  const held: [number, number][] = [];
  const hold = (day: LocalDay, lo: number, hi: number) => {
    for (const piece of day.pieces) {
      const midnight = day.wall - piece.offset;
      const a = Math.max(piece.from, midnight + lo, from);
      const b = Math.min(piece.to, midnight + hi, to);
      if (a < b) held.push([a, b]);
    }
  };
  // Yesterday's crossing windows reach into the first day.
  for (let day = calendar.dayBefore(calendar.dayContaining(from)); day.start < to; ) {
    const next = calendar.dayAfter(day);
    const { within, crossing } = schedule[day.weekday]!;
    for (let j = 0; j < within.length; j += 2) hold(day, within[j]!, within[j + 1]!);
    for (let j = 0; j < crossing.length; j += 2) {
      hold(day, crossing[j]!, DAY_MS);
      hold(next, 0, crossing[j + 1]!);
    }
    day = next;
  }
  held.sort((x, y) => x[0] - y[0]);
  const merged: [number, number][] = [];
  for (const [a, b] of held) {
    const last = merged.at(-1);
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  return merged;
}

/** A cap in hours as milliseconds, to the millisecond; none is infinite. */
function capMs(hours: number | undefined): number {
  return hours === undefined ? Number.POSITIVE_INFINITY : Math.round(hours * HOUR_MS);
}

/** The wall midnight of the Monday starting the week `day` is in: equal for days of one week. */
function mondayOf(day: LocalDay): number {
  return day.wall - ((day.weekday + 6) % 7) * DAY_MS;
}

/** The first instant of `day` at which its clock shows `clockMs` or later (a skipped time falls on the jump). */
function clockInstant(day: LocalDay, clockMs: number): number {
  for (const piece of day.pieces) {
    const at = Math.max(piece.from, day.wall - piece.offset + clockMs);
    if (at < piece.to) return at;
  }
  return day.end;
}

interface StationMinimums {
  minHourlyPay: number;
  minBlockPay: number;
  bufferMs: number;
}

/**
 * Each warehouse's minimums: the general ones, replaced field by field by its station rule.
 * Filters stored before station rules, block length or crossing windows existed lack those
 * fields; they read as none.
 */
function compileStationRules(filters: DriverFilters): Map<string, StationMinimums> {
  const rules = filters.stationRules ?? {};
  const byStation = new Map<string, StationMinimums>();
  for (const id of filters.warehouses) {
    const own = Object.hasOwn(rules, id) ? rules[id] : undefined;
    byStation.set(id, {
      minHourlyPay: own?.minHourlyPay ?? filters.minHourlyPay,
      minBlockPay: own?.minBlockPay ?? filters.minBlockPay,
      bufferMs: (own?.timeBufferMinutes ?? filters.timeBufferMinutes) * MINUTE_MS,
    });
  }
  return byStation;
}

/** One weekday's windows as flat [start, end, start, end…] milliseconds after the wall clock's midnight. */
interface DayWindows {
  /** Windows inside the day. */
  within: number[];
  /** Windows crossing midnight: `end` is on the next day's clock. */
  crossing: number[];
}

/** Each weekday's windows, indexed like `Date#getUTCDay` (0 is Sunday) so a day's weekday picks them directly. */
function compileSchedule(schedule: WeeklySchedule): DayWindows[] {
  const { sun, mon, tue, wed, thu, fri, sat } = schedule;
  const byWeekday = [sun, mon, tue, wed, thu, fri, sat];
  const compiled: DayWindows[] = [];
  for (const windows of byWeekday) {
    const day: DayWindows = { within: [], crossing: [] };
    for (const w of windows) {
      const start = clockMs(w.start);
      const end = clockMs(w.end);
      if (start < end) day.within.push(start, end);
      else if (start > end) day.crossing.push(start, end);
      // start === end holds no time at all; the schema refuses it.
    }
    compiled.push(day);
  }
  return compiled;
}

/**
 * `HH:MM` (up to 24:00) as milliseconds after midnight. Read by character, not by regular
 * expression, because `matchOffer` compiles on every call.
 */
function clockMs(hhmm: string): number {
  const hours = digitAt(hhmm, 0) * 10 + digitAt(hhmm, 1);
  const minutes = digitAt(hhmm, 3) * 10 + digitAt(hhmm, 4);
  const total = hours * 60 + minutes;
  // A non-digit reads as NaN, which fails every comparison and lands here too.
  if (!(hhmm.length === 5 && hhmm[2] === ':' && minutes <= 59 && total <= 24 * 60)) {
    throw new RangeError(`Not a time of day (HH:MM, up to 24:00): ${JSON.stringify(hhmm)}`);
  }
  return total * MINUTE_MS;
}

function digitAt(text: string, i: number): number {
  const d = text.charCodeAt(i) - 48; // '0'
  return d >= 0 && d <= 9 ? d : Number.NaN;
}

/**
 * Whether a window holds the whole of [start, end): `from`–`to` on `day`'s wall clock, or, when
 * `next` is given (a window crossing midnight), from `from` on `day` to `to` on `next`. On each
 * stretch of a day at one offset the window is one interval of instants; intervals of
 * neighbouring stretches that meet (across a skipped hour, or at midnight) join into one the
 * block may span.
 */
function windowHolds(
  day: LocalDay,
  from: number,
  to: number,
  next: LocalDay | null,
  start: number,
  end: number,
): boolean {
  let runStart = Number.NaN;
  let runEnd = Number.NaN;
  const lastOfFirst = next === null ? to : DAY_MS; // 24:00 of the first day
  for (let k = 0; k < 2; k++) {
    const d = k === 0 ? day : next;
    if (d === null) break;
    const lo = k === 0 ? from : 0;
    const hi = k === 0 ? lastOfFirst : to;
    for (const piece of d.pieces) {
      const midnight = d.wall - piece.offset;
      const a = Math.max(piece.from, midnight + lo);
      const b = Math.min(piece.to, midnight + hi);
      if (a >= b) continue;
      if (a !== runEnd) runStart = a;
      runEnd = b;
      if (start >= runStart && end <= runEnd) return true;
    }
  }
  return false;
}

/** One date in a zone, as real instants. */
interface LocalDay {
  /** The date's midnight written as if it were UTC: wall-clock times count from here. */
  wall: number;
  /** The first instant of the date and the first after it. */
  start: number;
  end: number;
  /** 0 is Sunday, as `Date#getUTCDay`. */
  weekday: number;
  /** The date cut where the offset changes: one piece, or two on a day the clocks change. */
  pieces: readonly { from: number; to: number; offset: number }[];
}

/**
 * The dates of one zone, worked out with Intl once each and then kept: Intl is far too slow to
 * ask per offer, and a zone sees a few hundred dates a year. Shared by every driver in the zone.
 */
class ZoneCalendar {
  private readonly days = new Map<number, LocalDay>();
  private last: LocalDay | undefined;

  constructor(private readonly timeZone: string) {}

  dayContaining(ts: number): LocalDay {
    const last = this.last;
    if (last !== undefined && ts >= last.start && ts < last.end) return last;
    // The last offset seen usually names the right date at once; zones stay within a day of
    // UTC, so a miss is off by one date at most.
    const guess = last === undefined ? 0 : last.pieces[0]!.offset;
    let day = this.day(Math.floor((ts + guess) / DAY_MS));
    if (ts < day.start) day = this.day(day.wall / DAY_MS - 1);
    else if (ts >= day.end) day = this.day(day.wall / DAY_MS + 1);
    this.last = day;
    return day;
  }

  dayBefore(day: LocalDay): LocalDay {
    return this.day(day.wall / DAY_MS - 1);
  }

  dayAfter(day: LocalDay): LocalDay {
    return this.day(day.wall / DAY_MS + 1);
  }

  private day(epochDay: number): LocalDay {
    let day = this.days.get(epochDay);
    if (day === undefined) {
      day = buildDay(epochDay, this.timeZone);
      this.days.set(epochDay, day);
    }
    return day;
  }
}

const calendars = new Map<string, ZoneCalendar>();

function calendarOf(timeZone: string): ZoneCalendar {
  let calendar = calendars.get(timeZone);
  if (calendar === undefined) {
    calendar = new ZoneCalendar(timeZone);
    calendars.set(timeZone, calendar);
  }
  return calendar;
}

/** Assumes at most one offset change within a date, as days.ts does; real zones keep to that. */
function buildDay(epochDay: number, timeZone: string): LocalDay {
  const wall = epochDay * DAY_MS;
  const isoDay = new Date(wall).toISOString().slice(0, 10);
  const start = startOfDay(isoDay, timeZone);
  const end = endOfDay(isoDay, timeZone);
  const weekday = (((epochDay + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday
  const before = offsetAt(start, timeZone);
  const after = offsetAt(end - 1, timeZone);
  if (before === after) {
    return { wall, start, end, weekday, pieces: [{ from: start, to: end, offset: before }] };
  }
  // Halve down to the second the offset changes at (zone rules change on whole seconds).
  let lo = start;
  let hi = end - 1;
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (offsetAt(mid, timeZone) === after) hi = mid;
    else lo = mid;
  }
  return {
    wall,
    start,
    end,
    weekday,
    pieces: [
      { from: start, to: hi, offset: before },
      { from: hi, to: end, offset: after },
    ],
  };
}
