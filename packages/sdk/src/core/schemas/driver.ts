// A driver's block filters and the platform's offers and blocks, as the settings endpoints and
// the catcher exchange them; `matchOffer` in core/offers.ts decides with these shapes.
import { z } from 'zod';
import { timestampSchema } from './users.js';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export const weekdaySchema = z.enum(WEEKDAYS);
export type Weekday = z.infer<typeof weekdaySchema>;

export const NO_WAREHOUSE_MESSAGE = 'You must add at least one warehouse';

/** A time of day a window may start at: `HH:MM` from 00:00 to 23:59. */
export const clockTimeSchema = z
  .string()
  .regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/, { message: 'expected a time of day, HH:MM' });

/** A time of day a window may end at: 00:00–23:59, or 24:00 for the midnight that ends the day. */
export const windowEndSchema = z
  .string()
  .regex(/^(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/, { message: 'expected HH:MM or 24:00' });

/**
 * Hours a driver takes blocks in, read on the driver's wall clock on the block's start day.
 * Windows of one day may touch or overlap; a block still has to fit inside one of them.
 */
export const scheduleWindowSchema = z
  .object({ start: clockTimeSchema, end: windowEndSchema })
  // HH:MM strings of equal length compare like the times they write.
  .refine((w) => w.start < w.end, { message: 'a window must end after it starts', path: ['end'] });
export type ScheduleWindow = z.infer<typeof scheduleWindowSchema>;

export const weeklyScheduleSchema = z.object(
  Object.fromEntries(WEEKDAYS.map((day) => [day, z.array(scheduleWindowSchema)])) as Record<
    Weekday,
    z.ZodArray<typeof scheduleWindowSchema>
  >,
);
export type WeeklySchedule = z.infer<typeof weeklyScheduleSchema>;

/** An IANA zone name the runtime knows, such as `America/Chicago`. */
export const timeZoneSchema = z.string().refine(isKnownTimeZone, { message: 'unknown time zone' });

const moneySchema = z.number().nonnegative();

export const driverFiltersSchema = z.object({
  /** The service areas (warehouses) the driver takes blocks from. */
  warehouses: z.array(z.string().min(1)).min(1, { message: NO_WAREHOUSE_MESSAGE }),
  /** Dollars per hour of block. */
  minHourlyPay: moneySchema,
  /** Dollars per block. */
  minBlockPay: moneySchema,
  /** How long before its start a block may still be taken. */
  timeBufferMinutes: z.number().int().nonnegative(),
  weeklySchedule: weeklyScheduleSchema,
  /** The zone the weekly schedule is read in. */
  timeZone: timeZoneSchema,
});
export type DriverFilters = z.infer<typeof driverFiltersSchema>;

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

function isKnownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}
