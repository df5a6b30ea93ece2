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
import { badFlag, UsageError } from './errors.js';
import type { AudienceFlags, InviteeFlags } from './flag-sets.js';
import { t } from './i18n.js';

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

function day(name: string, value: unknown): string | undefined {
  return value === undefined ? undefined : flag(name, isoDaySchema, value, t('cli.errors.dayFix'));
}

/** A range whose start is after its end keeps nobody: a usage error that says so. */
function range(from: [string, string | undefined], to: [string, string | undefined]) {
  const [fromFlag, start] = from;
  const [toFlag, end] = to;
  if (start !== undefined && end !== undefined && start > end) {
    throw new UsageError(t('cli.errors.reversedRange', { from: fromFlag, start, to: toFlag, end }));
  }
  return [start, end] as const;
}

/** `--proxy-installed` alone means yes. */
function tri(name: string, value: unknown) {
  if (value === undefined) return undefined;
  const said = value === true ? 'yes' : typeof value === 'string' ? value.toLowerCase() : value;
  return flag(name, triStateSchema, said, t('cli.errors.triFix'));
}

export function product(value: unknown): Product {
  const said = typeof value === 'string' ? value.toLowerCase() : value;
  return flag('--product', productSchema, said, t('cli.errors.productFix'));
}

export function audienceFilters(raw: AudienceFlags, forProduct: Product): AudienceFilters {
  if (raw.region !== undefined && forProduct !== 'flex') {
    throw badFlag('--region', raw.region, t('cli.errors.regionFlexOnly'));
  }
  const [startDate, endDate] = range(
    ['--created-from', day('--created-from', raw.createdFrom)],
    ['--created-to', day('--created-to', raw.createdTo)],
  );
  const [startExpirationDate, endExpirationDate] = range(
    ['--expires-from', day('--expires-from', raw.expiresFrom)],
    ['--expires-to', day('--expires-to', raw.expiresTo)],
  );
  const filters: AudienceFilters = {
    startDate,
    endDate,
    startExpirationDate,
    endExpirationDate,
    byGoodStanding: tri('--good-standing', raw.goodStanding),
    byProxyInstalled: tri('--proxy-installed', raw.proxyInstalled),
    bySetupComplete: tri('--setup-complete', raw.setupComplete),
    byRegion: raw.region,
    selectedReferral: raw.referral,
  };
  return dropUndefined(filters);
}

export function inviteeFilters(raw: InviteeFlags): InviteeFilters {
  const [invitedFrom, invitedTo] = range(
    ['--invited-from', day('--invited-from', raw.invitedFrom)],
    ['--invited-to', day('--invited-to', raw.invitedTo)],
  );
  return dropUndefined({
    invitedFrom,
    invitedTo,
    registered: tri('--registered', raw.registered),
    proxyInstalled: tri('--proxy-installed', raw.proxyInstalled),
    setupComplete: tri('--setup-complete', raw.setupComplete),
  });
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
