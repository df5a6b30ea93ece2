// The notifications screen's recipient list: built only once both tables are
// loaded and there is at least one invitation.
import {
  type FlexUser,
  filterInvitees,
  type Invitation,
  type InviteeFilters,
  type MergedInvitee,
  mergeInvitees,
  normalizePhone,
} from '@blockcatch/sdk';

export type InviteeList =
  | { status: 'loading' }
  | { status: 'empty' }
  | { status: 'ready'; invitees: MergedInvitee[] };

/**
 * 'loading' until both users and invitations are here, 'empty' with no invitation at all, else
 * the merged invitees the filters keep. A malformed filter day throws a RangeError.
 */
export function buildInviteeList(
  users: readonly FlexUser[] | undefined,
  invitations: readonly Invitation[] | undefined,
  filters: InviteeFilters,
  timeZone?: string,
): InviteeList {
  if (!users || !invitations) return { status: 'loading' };
  if (invitations.length === 0) return { status: 'empty' };
  const merged = mergeInvitees(invitations, users);
  return {
    status: 'ready',
    invitees: filterInvitees(merged, filters, timeZone ? { timeZone } : {}),
  };
}

export interface InvitationRow {
  phoneNumber: string;
  dateInvitedTimestamp: number;
  freeWeek: boolean;
  referralCode: string | null;
  /** The registered user's name, or null for a phone that has not signed up. */
  name: string | null;
}

/**
 * Every invitation, free weeks and repeats included, newest first, with the name of the user it
 * became: phones are compared normalised, as mergeInvitees compares them.
 */
export function invitationRows(
  invitations: readonly Invitation[],
  users: readonly FlexUser[],
): InvitationRow[] {
  const names = new Map<string, string>();
  for (const user of users) {
    const key = normalizePhone(user.phoneNumber) ?? user.phoneNumber;
    if (!names.has(key)) names.set(key, user.name);
  }
  return invitations
    .map((invitation) => ({
      phoneNumber: invitation.phoneNumber,
      dateInvitedTimestamp: invitation.dateInvitedTimestamp,
      freeWeek: invitation.freeWeek,
      referralCode: invitation.referralCode,
      name: names.get(normalizePhone(invitation.phoneNumber) ?? invitation.phoneNumber) ?? null,
    }))
    .sort((a, b) => b.dateInvitedTimestamp - a.dateInvitedTimestamp);
}

/** The invitation figures every admin screen shows, counted one way (see each field). */
export interface InvitationCounts {
  /** Invitation texts sent, repeats to one phone and granted free weeks included. */
  sent: number;
  /** Phones invited whose free week is not granted yet: the Notifications screen's audience. */
  invitees: number;
  /** Of those, phones with an account. */
  signedUp: number;
  /** Of those, phones without an account: the Leads list, and Notifications with Registered No. */
  notSignedUp: number;
  /** Invitations that earned the inviter a free week (the friend paid). */
  freeWeeks: number;
}

export function invitationCounts(
  invitations: readonly Invitation[],
  users: readonly FlexUser[],
): InvitationCounts {
  const merged = mergeInvitees(invitations, users);
  const notSignedUp = filterInvitees(merged, { registered: 'no' }).length;
  return {
    sent: invitations.length,
    invitees: merged.length,
    signedUp: merged.length - notSignedUp,
    notSignedUp,
    freeWeeks: invitations.filter((i) => i.freeWeek).length,
  };
}
