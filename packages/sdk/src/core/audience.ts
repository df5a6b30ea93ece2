// The Send SMS screen's audience (docs/product.md, 'The admin audience filters'): which Flex or Spark users the filters keep.
// Runs over the whole user table on every change, so it is one loop over precomputed bounds.

import { endOfDay, localTimeZone, startOfDay } from './days.js';
import type { AudienceFilters, TriState } from './schemas/filters.js';
import type { FlexUser, Product, UserRow } from './schemas/users.js';

const CHAR_T = 84;
const CHAR_DOT = 46;
const CHAR_Z = 90;
const CHAR_A = 65;
const CHAR_DEL = 127;
const CASE_OFFSET = 32;

/**
 * The kept rows' indices, reused from call to call (the filter runs to completion, never two at
 * once): a table-sized array per call is garbage the collector then spends as long on as the filter.
 */
let scratch = new Uint32Array(0);

export interface AudienceContext {
  product: Product;
  /** The signed-in role's billing-details permission; without it the referral filter is off. */
  billingDetails: boolean;
  /** IANA zone the filter days are read in; the runtime's own zone when absent. */
  timeZone?: string;
}

/**
 * The users every set filter keeps, in their order. Creation days bound `createDateTimestamp`
 * from the start of `startDate` to the end of `endDate`; `startExpirationDate` bounds
 * `expirationDate` and `endExpirationDate` bounds `expirationDateTimestamp`, and a row whose
 * compared field is null fails that bound. Yes/no filters keep `true` / not `true`. `byRegion`
 * (Flex only) matches ignoring case; `selectedReferral` (with billing details only) must match
 * exactly. An absent,
 * empty or 'all' filter keeps everyone. A malformed day throws a RangeError.
 */
export function filterAudience<T extends UserRow>(
  users: readonly T[],
  filters: AudienceFilters,
  ctx: AudienceContext,
): T[] {
  const timeZone = ctx.timeZone ?? localTimeZone();
  const createdFrom = filters.startDate ? startOfDay(filters.startDate, timeZone) : -Infinity;
  const createdBefore = filters.endDate ? endOfDay(filters.endDate, timeZone) : Infinity;
  const expiresFrom = filters.startExpirationDate
    ? startOfDay(filters.startExpirationDate, timeZone)
    : null;
  const expiresBefore = filters.endExpirationDate
    ? endOfDay(filters.endExpirationDate, timeZone)
    : null;
  const expiresFromIso = expiresFrom === null ? null : comparableIso(expiresFrom);
  const goodStanding = wantedFlag(filters.byGoodStanding);
  const proxyInstalled = wantedFlag(filters.byProxyInstalled);
  const setupComplete = wantedFlag(filters.bySetupComplete);
  const region = ctx.product === 'flex' ? (chosen(filters.byRegion)?.toLowerCase() ?? null) : null;
  const referral = ctx.billingDetails ? chosen(filters.selectedReferral) : null;

  const createdOnly =
    expiresFrom === null &&
    expiresBefore === null &&
    goodStanding === null &&
    proxyInstalled === null &&
    setupComplete === null &&
    region === null &&
    referral === null;
  if (createdOnly && createdFrom === -Infinity && createdBefore === Infinity) return users.slice();

  // Indices into a typed array, rows copied out once the count is known: pushing a large result
  // costs more than the filtering itself, and a row-sized array up front is waste for a small one.
  if (scratch.length < users.length) scratch = new Uint32Array(users.length);
  const picked = scratch;
  let count = 0;
  // Sign-up days alone keep most of a table: the general loop's tests of unset filters then cost
  // as much as reading the rows.
  for (let i = 0; createdOnly && i < users.length; i++) {
    const created = users[i]!.createDateTimestamp;
    if (created >= createdFrom && created < createdBefore) picked[count++] = i;
  }
  for (let i = 0; !createdOnly && i < users.length; i++) {
    const user = users[i]!;
    const created = user.createDateTimestamp;
    if (created < createdFrom || created >= createdBefore) continue;
    if (goodStanding !== null && (user.goodStanding === true) !== goodStanding) continue;
    if (proxyInstalled !== null && (user.proxyInstalled === true) !== proxyInstalled) continue;
    if (setupComplete !== null && (user.setupComplete === true) !== setupComplete) continue;
    if (region !== null && !sameRegion((user as Partial<FlexUser>).humanRegion, region)) continue;
    if (referral !== null && user.referral !== referral) continue;
    if (expiresBefore !== null) {
      const expires = user.expirationDateTimestamp;
      if (expires === null || expires >= expiresBefore) continue;
    }
    if (expiresFrom !== null) {
      const expires = user.expirationDate;
      if (expires === null || !isOnOrAfter(expires, expiresFrom, expiresFromIso)) continue;
    }
    picked[count++] = i;
  }
  // Copying a run of rows is one memcpy; element by element it costs as much as the filtering.
  // Rows kept in one run are common: the gateway answers the table in sign-up order, so sign-up
  // days alone keep one.
  if (count === 0) return [];
  const first = picked[0]!;
  if (picked[count - 1]! - first + 1 === count) return users.slice(first, first + count);
  const kept = new Array<T>(count);
  for (let j = 0; j < count; j++) kept[j] = users[picked[j]!]!;
  return kept;
}

/** The flag value a Yes/No/All filter asks for: 'yes' true, 'no' false, else null (no filter). */
export function wantedFlag(filter: TriState | undefined): boolean | null {
  return filter === 'yes' ? true : filter === 'no' ? false : null;
}

/**
 * Regions are names people type: 'miami' is Miami. `wanted` is already lower case. Equal to
 * `region.toLowerCase() === wanted`, but ASCII is compared in place, since lower-casing a string
 * per row costs more than the rest of the filter; ASCII letters lower-case alone, whatever follows.
 */
function sameRegion(region: string | null | undefined, wanted: string): boolean {
  if (region == null) return false;
  for (let i = 0; i < region.length; i++) {
    let c = region.charCodeAt(i);
    if (c > CHAR_DEL) return region.toLowerCase() === wanted;
    if (c >= CHAR_A && c <= CHAR_Z) c += CASE_OFFSET;
    if (c !== wanted.charCodeAt(i)) return false;
  }
  return region.length === wanted.length;
}

function chosen(filter: string | undefined): string | null {
  return filter === undefined || filter === '' || filter === 'all' ? null : filter;
}

/**
 * Parsing an ISO string costs about 200 ns, a fifth of a second over a million rows. Strings in
 * `toISOString`'s own shape (`YYYY-MM-DDTHH:mm:ss.sssZ`) sort in time order, so those are
 * compared as text against the bound written the same way; anything else (an offset, no
 * milliseconds, a six-digit year) is parsed.
 */
function isOnOrAfter(iso: string, bound: number, boundIso: string | null): boolean {
  if (
    boundIso !== null &&
    iso.length === 24 &&
    iso.charCodeAt(23) === CHAR_Z &&
    iso.charCodeAt(19) === CHAR_DOT &&
    iso.charCodeAt(10) === CHAR_T
  ) {
    return iso >= boundIso;
  }
  return Date.parse(iso) >= bound;
}

/** The bound in `toISOString` form, or null outside years 0000–9999 where that form changes. */
function comparableIso(ts: number): string | null {
  const iso = new Date(ts).toISOString();
  return iso.length === 24 ? iso : null;
}
