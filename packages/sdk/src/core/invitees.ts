// The notifications screen's invitees (docs/product.md): invitations joined to the users
// they became, and the step-1 filters over them.

import { wantedFlag } from './audience.js';
import { endOfDay, localTimeZone, startOfDay } from './days.js';
import { normalizePhone } from './phone.js';
import type { InviteeFilters } from './schemas/filters.js';
import type { Invitation, MergedInvitee } from './schemas/invitations.js';
import type { FlexUser } from './schemas/users.js';

/**
 * One row per invited phone, in invitation order. Invitations already rewarded with a free week
 * are dropped, then every later invitation of a phone already seen (compared normalised, or raw
 * when the number does not normalise). A row takes the fields of the user with the same phone
 * (the first such user), including the user's own spelling of the number, which is the one
 * messages go to; with no such user it is named 'Unregistered' and every flag is false.
 */
export function mergeInvitees(
  invitations: readonly Invitation[],
  users: readonly FlexUser[],
): MergedInvitee[] {
  const usersByPhone = new Map<string, FlexUser>();
  for (const user of users) {
    const key = phoneKey(user.phoneNumber);
    if (!usersByPhone.has(key)) usersByPhone.set(key, user);
  }
  const seen = new Set<string>();
  const merged: MergedInvitee[] = [];
  for (const invitation of invitations) {
    if (invitation.freeWeek) continue;
    const key = phoneKey(invitation.phoneNumber);
    if (seen.has(key)) continue;
    seen.add(key);
    const user = usersByPhone.get(key);
    merged.push(user ? registered(invitation, user) : unregistered(invitation));
  }
  return merged;
}

export interface InviteeFilterContext {
  /** IANA zone the filter days are read in; the runtime's own zone when absent. */
  timeZone?: string;
}

/**
 * The invitees every set filter keeps, in their order: invited on or after the start of
 * `invitedFrom` and before the end of `invitedTo`; `registered` yes keeps matched rows, no keeps
 * unregistered ones; the two flags keep `true` for yes and not `true` for no. An absent or 'all'
 * filter keeps everyone. A malformed day throws a RangeError.
 */
export function filterInvitees<T extends MergedInvitee>(
  invitees: readonly T[],
  filters: InviteeFilters,
  ctx: InviteeFilterContext = {},
): T[] {
  const timeZone = ctx.timeZone ?? localTimeZone();
  const invitedFrom = filters.invitedFrom ? startOfDay(filters.invitedFrom, timeZone) : -Infinity;
  const invitedBefore = filters.invitedTo ? endOfDay(filters.invitedTo, timeZone) : Infinity;
  const registeredOnly = wantedFlag(filters.registered);
  const proxyInstalled = wantedFlag(filters.proxyInstalled);
  const setupComplete = wantedFlag(filters.setupComplete);
  return invitees.filter(
    (invitee) =>
      invitee.dateInvitedTimestamp >= invitedFrom &&
      invitee.dateInvitedTimestamp < invitedBefore &&
      (registeredOnly === null || invitee.unregistered !== registeredOnly) &&
      (proxyInstalled === null || (invitee.proxyInstalled === true) === proxyInstalled) &&
      (setupComplete === null || (invitee.setupComplete === true) === setupComplete),
  );
}

function phoneKey(phoneNumber: string): string {
  return normalizePhone(phoneNumber) ?? phoneNumber;
}

function registered(invitation: Invitation, user: FlexUser): MergedInvitee {
  return {
    phoneNumber: user.phoneNumber,
    dateInvitedTimestamp: invitation.dateInvitedTimestamp,
    freeWeek: invitation.freeWeek,
    referralCode: invitation.referralCode,
    name: user.name,
    unregistered: false,
    goodStanding: user.goodStanding,
    proxyInstalled: user.proxyInstalled,
    setupComplete: user.setupComplete,
    referral: user.referral,
    humanRegion: user.humanRegion,
    createDateTimestamp: user.createDateTimestamp,
    expirationDate: user.expirationDate,
    expirationDateTimestamp: user.expirationDateTimestamp,
    stripeExpressId: user.stripeExpressId,
    status: user.status,
  };
}

function unregistered(invitation: Invitation): MergedInvitee {
  return {
    phoneNumber: invitation.phoneNumber,
    dateInvitedTimestamp: invitation.dateInvitedTimestamp,
    freeWeek: invitation.freeWeek,
    referralCode: invitation.referralCode,
    name: 'Unregistered',
    unregistered: true,
    goodStanding: false,
    proxyInstalled: false,
    setupComplete: false,
    referral: null,
    humanRegion: null,
    createDateTimestamp: null,
    expirationDate: null,
    expirationDateTimestamp: null,
    stripeExpressId: null,
    status: null,
  };
}
