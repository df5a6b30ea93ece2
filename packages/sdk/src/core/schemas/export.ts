// The users and invitees exports: the admin tables' filters and search, answered as CSV or NDJSON
// in chunks.
import { z } from 'zod';
import { audienceFiltersSchema, inviteeFiltersSchema } from './filters.js';
import { productSchema } from './users.js';

export const exportFormatSchema = z.enum(['csv', 'ndjson']);
export type ExportFormat = z.infer<typeof exportFormatSchema>;

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** What both exports take beside their filters. */
const exportOptions = {
  format: exportFormatSchema.default('csv'),
  /** The review's search box: name, phone, region or referral. */
  search: z.string().max(200).optional(),
  /** Where filter days and exported days are read; the gateway's own zone when absent. */
  timeZone: z
    .string()
    .max(64)
    .refine(isTimeZone, 'an IANA time zone, e.g. America/New_York')
    .optional(),
};

// Strict: a misspelt filter is refused by name instead of quietly exporting every row.
export const usersExportQuerySchema = audienceFiltersSchema
  .extend({ product: productSchema, ...exportOptions })
  .strict();
export type UsersExportQuery = z.input<typeof usersExportQuerySchema>;

/** The invitees export: the notifications screen's filters and search. */
export const invitationsExportQuerySchema = inviteeFiltersSchema.extend(exportOptions).strict();
export type InvitationsExportQuery = z.input<typeof invitationsExportQuerySchema>;
