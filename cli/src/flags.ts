// The filter flags shared by users, invitations and send, validated with the SDK's own schemas:
// a bad value is a usage error naming the flag, the value and the fix.
import {
  type AudienceFilters,
  type InviteeFilters,
  isoDaySchema,
  type Product,
  productSchema,
  triStateSchema,
} from '@blockcatch/sdk';
import type { z } from 'zod';
import { badFlag } from './errors.js';

/** Reads one flag's value with `schema`; a failure names the flag and how to fix it. */
export function flag<S extends z.ZodType>(
  name: string,
  schema: S,
  value: unknown,
  fix: string,
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw badFlag(name, value, fix);
  return parsed.data;
}

const DAY_FIX = 'give a calendar day as YYYY-MM-DD, e.g. 2026-03-31.';
const TRI_FIX = 'use yes, no or all.';

function day(name: string, value: unknown): string | undefined {
  return value === undefined ? undefined : flag(name, isoDaySchema, value, DAY_FIX);
}

/** `--proxy-installed` alone means yes. */
function tri(name: string, value: unknown) {
  if (value === undefined) return undefined;
  return flag(name, triStateSchema, value === true ? 'yes' : String(value).toLowerCase(), TRI_FIX);
}

export function product(value: unknown): Product {
  return flag('--product', productSchema, value, 'use flex or spark, e.g. --product flex.');
}

export interface RawAudienceFlags {
  createdFrom?: string;
  createdTo?: string;
  expiresFrom?: string;
  expiresTo?: string;
  goodStanding?: string | boolean;
  proxyInstalled?: string | boolean;
  setupComplete?: string | boolean;
  region?: string;
  referral?: string;
  search?: string;
}

export interface RawInviteeFlags {
  invitedFrom?: string;
  invitedTo?: string;
  registered?: string | boolean;
  proxyInstalled?: string | boolean;
  setupComplete?: string | boolean;
  search?: string;
}

export function audienceFilters(raw: RawAudienceFlags, forProduct: Product): AudienceFilters {
  if (raw.region !== undefined && forProduct !== 'flex') {
    throw badFlag(
      '--region',
      raw.region,
      'the region filter is for Flex only: drop it or use --product flex.',
    );
  }
  const filters: AudienceFilters = {
    startDate: day('--created-from', raw.createdFrom),
    endDate: day('--created-to', raw.createdTo),
    startExpirationDate: day('--expires-from', raw.expiresFrom),
    endExpirationDate: day('--expires-to', raw.expiresTo),
    byGoodStanding: tri('--good-standing', raw.goodStanding),
    byProxyInstalled: tri('--proxy-installed', raw.proxyInstalled),
    bySetupComplete: tri('--setup-complete', raw.setupComplete),
    byRegion: raw.region,
    selectedReferral: raw.referral,
  };
  return dropUndefined(filters);
}

export function inviteeFilters(raw: RawInviteeFlags): InviteeFilters {
  return dropUndefined({
    invitedFrom: day('--invited-from', raw.invitedFrom),
    invitedTo: day('--invited-to', raw.invitedTo),
    registered: tri('--registered', raw.registered),
    proxyInstalled: tri('--proxy-installed', raw.proxyInstalled),
    setupComplete: tri('--setup-complete', raw.setupComplete),
  });
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
