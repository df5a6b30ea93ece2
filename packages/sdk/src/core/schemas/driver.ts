// A driver's block filters and the platform's offers and blocks, as the settings endpoints and
// the catcher exchange them (`matchOffer` in core/offers.ts decides with these shapes), and the
// bodies and answers of the driver endpoints (packages/gateway/API.md, "Driver service").
import { z } from 'zod';
import { EMAIL_PATTERN } from '../validation.js';
import {
  boundedFormat,
  MAX_BUFFER_MINUTES,
  MAX_EMAIL_LENGTH,
  MAX_ID_LENGTH,
  MAX_MONEY,
} from './bounds.js';

/** The longest block length a filter may name, in hours. */
export const MAX_BLOCK_HOURS = 24;
/** The most warehouses that may have rules of their own. */
const MAX_STATION_RULES = 200;
/** The highest caps on hours of blocks a driver may set, per day and per week. */
export const MAX_HOURS_PER_DAY = 24;
export const MAX_HOURS_PER_WEEK = 168;

import { isoDaySchema } from './filters.js';
import { timestampSchema, userStatusSchema } from './users.js';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export const weekdaySchema = z.enum(WEEKDAYS);
export type Weekday = z.infer<typeof weekdaySchema>;

export const NO_WAREHOUSE_MESSAGE = 'You must add at least one warehouse';

/** A time of day a window may start at: `HH:MM` from 00:00 to 23:59. */
const clockTimeSchema = z
  .string()
  .max(5, { abort: true })
  .regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/, { message: 'expected a time of day, HH:MM' });

/** A time of day a window may end at: 00:00–23:59, or 24:00 for the midnight that ends the day. */
const windowEndSchema = z
  .string()
  .max(5, { abort: true })
  .regex(/^(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/, { message: 'expected HH:MM or 24:00' });

/**
 * Hours a driver takes blocks in, read on the driver's wall clock on the window's day. A window
 * ending before it starts (22:00–02:00) crosses midnight: it runs into the next day's early hours.
 * Windows may touch or overlap; a block still has to fit inside one of them.
 */
export const scheduleWindowSchema = z
  .strictObject({ start: clockTimeSchema, end: windowEndSchema })
  .refine((w) => w.start !== w.end, {
    message: 'a window must not end when it starts',
    path: ['end'],
  });
export type ScheduleWindow = z.infer<typeof scheduleWindowSchema>;

export const weeklyScheduleSchema = z.strictObject(
  Object.fromEntries(WEEKDAYS.map((day) => [day, z.array(scheduleWindowSchema).max(48)])) as Record<
    Weekday,
    z.ZodArray<typeof scheduleWindowSchema>
  >,
);
export type WeeklySchedule = z.infer<typeof weeklyScheduleSchema>;

/** An IANA zone name the runtime knows, such as `America/Chicago`. */
const timeZoneSchema = z
  .string()
  .max(MAX_ID_LENGTH)
  .refine(isKnownTimeZone, { message: 'unknown time zone' });

/** Dollars, 0 to MAX_MONEY. */
const moneySchema = z.number().min(0).max(MAX_MONEY);
/** Minutes before its start a block may still be taken. */
const bufferSchema = z.number().int().min(0).max(MAX_BUFFER_MINUTES);
/** Hours of block, in quarter hours at most a day. */
const blockHoursSchema = z.number().min(0).max(MAX_BLOCK_HOURS);

/** What one station (warehouse) sets for itself instead of the driver's general minimums. */
const stationRuleSchema = z.strictObject({
  minHourlyPay: moneySchema.optional(),
  minBlockPay: moneySchema.optional(),
  timeBufferMinutes: bufferSchema.optional(),
});

export const driverFiltersSchema = z
  .strictObject({
    /** The service areas (warehouses) the driver takes blocks from. */
    // The gateway answers an empty list with the code `no_warehouse`, named here.
    warehouses: z
      .array(z.string().min(1).max(MAX_ID_LENGTH))
      .max(MAX_STATION_RULES)
      .refine((list) => list.length > 0, {
        message: NO_WAREHOUSE_MESSAGE,
        params: { code: 'no_warehouse' },
      }),
    /** Dollars per hour of block. */
    minHourlyPay: moneySchema,
    /** Dollars per block. */
    minBlockPay: moneySchema,
    /** How long before its start a block may still be taken. */
    timeBufferMinutes: bufferSchema,
    weeklySchedule: weeklyScheduleSchema,
    /** The zone the weekly schedule is read in. */
    timeZone: timeZoneSchema,
    /** Per warehouse id: minimums that replace the general ones for that warehouse's blocks. */
    stationRules: z
      .record(z.string().min(1).max(MAX_ID_LENGTH), stationRuleSchema)
      .refine((rules) => Object.keys(rules).length <= MAX_STATION_RULES, {
        message: `at most ${MAX_STATION_RULES} station rules`,
      })
      .default({}),
    /** The shortest block taken, in hours; 0 takes any. */
    minBlockHours: blockHoursSchema.default(0),
    /** The longest block taken, in hours; null takes any. */
    maxBlockHours: blockHoursSchema.positive().nullable().default(null),
    /** Most hours of won blocks starting on one day of the driver's clock; absent is no cap. */
    maxHoursPerDay: z.number().positive().max(MAX_HOURS_PER_DAY).optional(),
    /** Most hours of won blocks starting in one week (Monday to Sunday); absent is no cap. */
    maxHoursPerWeek: z.number().positive().max(MAX_HOURS_PER_WEEK).optional(),
    /** A block paying at least this many dollars passes whatever its pay per hour; absent is off. */
    anyBlockPay: moneySchema.positive().optional(),
  })
  .superRefine((filters, ctx) => {
    for (const id of Object.keys(filters.stationRules)) {
      if (!filters.warehouses.includes(id)) {
        ctx.addIssue({
          code: 'custom',
          message: 'a station rule must be for one of your warehouses',
          path: ['stationRules', id],
        });
      }
    }
    if (filters.maxBlockHours !== null && filters.maxBlockHours < filters.minBlockHours) {
      ctx.addIssue({
        code: 'custom',
        message: 'the longest block must not be shorter than the shortest',
        path: ['maxBlockHours'],
      });
    }
  });
/**
 * Filters as clients send them and the matcher takes them: the fields added later (station
 * rules, block length) may be left out and then mean none. Parsing fills them in.
 */
export type DriverFilters = z.input<typeof driverFiltersSchema>;
/** Filters as parsed or read back: every field present. */
export type SavedDriverFilters = z.output<typeof driverFiltersSchema>;

/**
 * Filters as they were stored, possibly before a field existed or with a key a later version
 * dropped: unknown keys are left out and missing fields take their defaults, so reading old rows
 * never fails on shape alone. What is kept must still be valid filters. (A transform: parse with
 * it, never declare it as an answer, which is encoded.)
 */
export const storedDriverFiltersSchema = z.preprocess(knownFilterKeys, driverFiltersSchema);

/**
 * A block the platform offers. Times are epoch milliseconds, pay is dollars. An offer ending no
 * later than it starts is kept as received: the matcher refuses it, so the catcher can record why.
 */
export const offerSchema = z.object({
  offerId: z.string().min(1),
  serviceAreaId: z.string().min(1),
  startTime: timestampSchema,
  endTime: timestampSchema,
  pay: moneySchema,
});
export type Offer = z.infer<typeof offerSchema>;

/** A block a driver already holds; `offerId` when it came through an offer we accepted. */
export const blockSchema = z.object({
  startTime: timestampSchema,
  endTime: timestampSchema,
  offerId: z.string().min(1).optional(),
});
export type Block = z.infer<typeof blockSchema>;

// The driver endpoints under /api/flex/v1. The gateway parses requests with the request schemas;
// clients type what they send with them (`z.input`) and parse answers with the answer schemas.

/** `POST /platform/sign-in`: the delivery account's credentials. */
export const platformSignInRequestSchema = z.strictObject({
  // The forms' loose email check (isEmail): text, an @, text, a dot, text, no spaces.
  email: z
    .string()
    .trim()
    .max(MAX_EMAIL_LENGTH, { abort: true })
    .regex(EMAIL_PATTERN, { message: 'expected an email address such as name@example.com' }),
  password: z.string().min(1, { message: 'the delivery account password is required' }).max(256),
});
export type PlatformSignInRequest = z.input<typeof platformSignInRequestSchema>;

/** The platform texted a one-time code to `sentTo`, the signed-in driver's phone. */
export const platformChallengeSchema = z.object({ challengeId: z.string(), sentTo: z.string() });
export type PlatformChallenge = z.infer<typeof platformChallengeSchema>;

/** `POST /platform/verify`: the code the platform texted for that challenge. */
export const platformVerifyRequestSchema = z.strictObject({
  challengeId: boundedFormat(
    36,
    z.uuid({ message: 'expected the challengeId the sign-in answered' }),
  ),
  code: z
    .string()
    .max(20, { abort: true })
    .trim()
    .regex(/^\d{6}$/, { message: 'expected the 6-digit code sent to your phone' }),
});
export type PlatformVerifyRequest = z.input<typeof platformVerifyRequestSchema>;

/** The answer of verify (true) and of `DELETE /platform` (false). */
export const platformLinkResponseSchema = z.object({ proxyInstalled: z.boolean() });

/**
 * `POST /platform/verified`: the driver says they completed the check the platform asked for in
 * its app; the platform agreed, and searching resumes. (409 `verification_pending` when it does not.)
 */
export const platformVerifiedResponseSchema = z.object({ resumed: z.literal(true) });

/** `GET /platform`: connected, and whether a sign-in waits for its code. */
export const platformStateResponseSchema = z.object({
  proxyInstalled: z.boolean(),
  pendingCode: z.boolean(),
});
export type PlatformState = z.infer<typeof platformStateResponseSchema>;

export const serviceAreaSchema = z.object({
  id: z.string(),
  name: z.string(),
  timeZone: z.string(),
});
export type ServiceArea = z.infer<typeof serviceAreaSchema>;
export const serviceAreasResponseSchema = z.object({ Items: z.array(serviceAreaSchema) });

/** `GET /settings`: null until the driver first saves filters. */
export const driverSettingsResponseSchema = z.object({
  // The gateway reads stored rows through storedDriverFiltersSchema, so answers are always whole.
  Item: driverFiltersSchema.nullable(),
  setupComplete: z.boolean(),
});
/** `PUT /settings` takes `DriverFilters` and answers them back with the setup flag. */
export const savedSettingsResponseSchema = z.object({
  Item: driverFiltersSchema,
  setupComplete: z.boolean(),
});
export type SavedSettings = z.infer<typeof savedSettingsResponseSchema>;

/** What one set of filters would have caught in a preview: blocks and their pay in dollars. */
const caughtTotalsSchema = z.object({ blocks: z.number(), pay: z.number() });

/**
 * `POST /settings/preview` (body: the filters being edited): what they and the saved filters would
 * have caught from the offers seen in the last 7 days. Always an estimate (`previewFilters`).
 */
export const filterPreviewResponseSchema = z.object({
  Item: z.object({
    current: caughtTotalsSchema,
    proposed: caughtTotalsSchema,
    deltaBlocks: z.number(),
    deltaPay: z.number(),
    offersConsidered: z.number(),
    from: z.number(),
    to: z.number(),
    estimate: z.literal(true),
  }),
});

/** `PUT /status` body and answer: the system switched on ('start') or off ('stop'). */
export const driverStatusRequestSchema = z.strictObject({
  status: z.enum(userStatusSchema.options, { message: "expected 'start' or 'stop'" }),
});
export const driverStatusResponseSchema = z.object({ status: userStatusSchema });

/** `POST /arrive`: checked in for the won block under way or next, if any. */
export const arriveResponseSchema = z.object({
  arrived: z.boolean(),
  offerId: z.string().nullable(),
});
export type ArriveResult = z.infer<typeof arriveResponseSchema>;

export const offerKindSchema = z.enum(['won', 'disliked', 'gone'], {
  message: 'expected kind=won, kind=disliked or kind=gone',
});
export type OfferKind = z.infer<typeof offerKindSchema>;

/** `GET /offers`. Query values arrive as text; `z.coerce.number<number>` keeps callers typed. */
export const offersQuerySchema = z.strictObject({
  kind: offerKindSchema,
  limit: z.coerce.number<number>().int().min(1).max(200).default(50),
  /** A `seenAt` from the previous page: returns older records. */
  before: z.coerce.number<number>().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
});
export type OffersQuery = z.input<typeof offersQuerySchema>;

/** What the catcher did with one offer. */
export const offerItemSchema = z.object({
  offerId: z.string(),
  kind: offerKindSchema,
  /** The matcher's refusal for disliked offers, else null. */
  reason: z.string().nullable(),
  serviceAreaId: z.string(),
  startTime: z.number(),
  endTime: z.number(),
  pay: z.number(),
  seenAt: z.number(),
});
export type OfferItem = z.infer<typeof offerItemSchema>;
export const offersResponseSchema = z.object({ Items: z.array(offerItemSchema) });

/** Why a driver is not searching for blocks, checked in this order. */
export const NOT_SEARCHING_REASONS = [
  'system-off',
  'needs-code',
  'needs-verification',
  'not-connected',
  'setup-incomplete',
  'not-in-good-standing',
  'throttled',
  'outside-schedule',
  'starting',
] as const;
export type NotSearchingReason = (typeof NOT_SEARCHING_REASONS)[number];

export const driverDashboardSchema = z.object({
  status: userStatusSchema,
  systemOn: z.boolean(),
  /** A gateway process is polling the platform for this driver right now. */
  searching: z.boolean(),
  /** Why the catcher is not searching, the first that applies in this order; null when it is. */
  notSearchingBecause: z.enum(NOT_SEARCHING_REASONS).nullable(),
  /** The platform throttles polling until then (epoch ms) when the reason is 'throttled'. */
  throttledUntil: z.number().nullable(),
  /**
   * When the reason is 'outside-schedule': when searching starts again (a day before the next
   * schedule window), or null when the schedule has no window.
   */
  searchingFrom: z.number().nullable(),
  /**
   * Something only the driver can fix: the platform asks for a new one-time code ('enter-code'),
   * or for a check in the platform's own app, which the driver then confirms ('verify').
   */
  needsAttention: z.enum(['enter-code', 'verify']).nullable(),
  offers: z.object({ won: z.number(), disliked: z.number(), gone: z.number() }),
  proxyInstalled: z.boolean(),
  setupComplete: z.boolean(),
  goodStanding: z.boolean(),
  expirationDateTimestamp: z.number().nullable(),
  expired: z.boolean(),
  /** The service ends within the next 24 hours. */
  expiringSoon: z.boolean(),
});
export type DriverDashboard = z.infer<typeof driverDashboardSchema>;
/** `GET /dashboard`, and an admin's `GET /admin/users/{phone}/dashboard`. */
export const driverDashboardResponseSchema = z.object({ Item: driverDashboardSchema });

/** `GET /calendar` (and an admin's per-user calendar): days in the driver's filter time zone. */
export const calendarQuerySchema = z
  .strictObject({
    /** First day shown (default: today). */
    from: isoDaySchema.optional(),
    /** Last day shown, inclusive (default: 30 days after `from`). */
    to: isoDaySchema.optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    message: 'to must not be before from',
    path: ['to'],
  });
export type CalendarQuery = z.input<typeof calendarQuerySchema>;

/** Won blocks starting in the range, in start order. */
export const driverCalendarSchema = z.object({
  timeZone: z.string(),
  from: z.number(),
  to: z.number(),
  Items: z.array(offerItemSchema),
});
export type DriverCalendar = z.infer<typeof driverCalendarSchema>;

/** `GET /calendar-feed`: whether the driver has a private calendar address, and since when. */
export const calendarFeedStateSchema = z.object({
  active: z.boolean(),
  createdAt: z.number().nullable(),
});
export type CalendarFeedState = z.infer<typeof calendarFeedStateSchema>;

/**
 * `POST /calendar-feed`: a new private address serving the won blocks as iCalendar, shown this
 * once (only its hash is kept); the address made before stops working.
 */
export const calendarFeedCreatedSchema = z.object({ url: z.string(), createdAt: z.number() });
export type CalendarFeedCreated = z.infer<typeof calendarFeedCreatedSchema>;

const FILTER_KEYS = [
  'warehouses',
  'minHourlyPay',
  'minBlockPay',
  'timeBufferMinutes',
  'weeklySchedule',
  'timeZone',
  'stationRules',
  'minBlockHours',
  'maxBlockHours',
  'maxHoursPerDay',
  'maxHoursPerWeek',
  'anyBlockPay',
] as const;
const STATION_RULE_KEYS = ['minHourlyPay', 'minBlockPay', 'timeBufferMinutes'] as const;

function pick(value: unknown, keys: readonly string[]): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}

function knownFilterKeys(value: unknown): unknown {
  const filters = pick(value, FILTER_KEYS);
  if (typeof filters !== 'object' || filters === null) return filters;
  const out = filters as Record<string, unknown>;
  const schedule = pick(out.weeklySchedule, WEEKDAYS);
  if (typeof schedule === 'object' && schedule !== null) {
    const days = schedule as Record<string, unknown>;
    for (const day of WEEKDAYS) {
      if (Array.isArray(days[day])) days[day] = days[day].map((w) => pick(w, ['start', 'end']));
    }
    out.weeklySchedule = days;
  }
  if (typeof out.stationRules === 'object' && out.stationRules !== null) {
    out.stationRules = Object.fromEntries(
      Object.entries(out.stationRules).map(([id, rule]) => [id, pick(rule, STATION_RULE_KEYS)]),
    );
  }
  return out;
}

function isKnownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}
