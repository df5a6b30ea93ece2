// The admin screens' filter and list state, with its defaults (page 1, 20 rows a page).
import { z } from 'zod';
import { boundedFormat } from './bounds.js';

export const ROWS_PER_PAGE = [20, 40, 60, 80, 100] as const;
export const DEFAULT_ROWS_PER_PAGE = 20;

/** A calendar day, `YYYY-MM-DD`, read in the caller's time zone. */
export const isoDaySchema = boundedFormat(10, z.iso.date());

export const triStateSchema = z.enum(['all', 'yes', 'no']);
export type TriState = z.infer<typeof triStateSchema>;

export const audienceFiltersSchema = z.object({
  startDate: isoDaySchema.optional(),
  endDate: isoDaySchema.optional(),
  startExpirationDate: isoDaySchema.optional(),
  endExpirationDate: isoDaySchema.optional(),
  byGoodStanding: triStateSchema.optional(),
  byProxyInstalled: triStateSchema.optional(),
  bySetupComplete: triStateSchema.optional(),
  byRegion: z.string().optional(),
  selectedReferral: z.string().optional(),
});
export type AudienceFilters = z.infer<typeof audienceFiltersSchema>;

export const inviteeFiltersSchema = z.object({
  invitedFrom: isoDaySchema.optional(),
  invitedTo: isoDaySchema.optional(),
  registered: triStateSchema.optional(),
  proxyInstalled: triStateSchema.optional(),
  setupComplete: triStateSchema.optional(),
});
export type InviteeFilters = z.infer<typeof inviteeFiltersSchema>;
