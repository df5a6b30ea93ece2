import type { FlexUser, Invitation } from '@blockcatch/sdk';
import { describe, expect, it } from 'vitest';
import { buildInviteeList, invitationRows } from './invitee-list.js';

const user: FlexUser = {
  name: 'Ana Ruiz',
  phoneNumber: '+13055550101',
  referral: null,
  goodStanding: true,
  proxyInstalled: true,
  setupComplete: false,
  createDateTimestamp: 0,
  expirationDate: null,
  expirationDateTimestamp: null,
  stripeExpressId: null,
  status: 'start',
  humanRegion: 'Miami',
};
const day = Date.UTC(2026, 8, 10, 12);
const invitations: Invitation[] = [
  { phoneNumber: '305-555-0101', dateInvitedTimestamp: day, freeWeek: false, referralCode: 'A' },
  {
    phoneNumber: '305-555-0199',
    dateInvitedTimestamp: day + 86_400_000,
    freeWeek: false,
    referralCode: 'A',
  },
  { phoneNumber: '305-555-0177', dateInvitedTimestamp: day, freeWeek: true, referralCode: 'B' },
];

describe('buildInviteeList', () => {
  it('waits until both users and invitations are loaded', () => {
    expect(buildInviteeList(undefined, invitations, {})).toEqual({ status: 'loading' });
    expect(buildInviteeList([user], undefined, {})).toEqual({ status: 'loading' });
  });

  it('builds no list without at least one invitation', () => {
    expect(buildInviteeList([user], [], {})).toEqual({ status: 'empty' });
  });

  it('merges, drops free weeks and applies the filters', () => {
    const all = buildInviteeList([user], invitations, {}, 'UTC');
    expect(all.status === 'ready' && all.invitees.map((i) => i.name)).toEqual([
      'Ana Ruiz',
      'Unregistered',
    ]);
    const unregistered = buildInviteeList([user], invitations, { registered: 'no' }, 'UTC');
    expect(
      unregistered.status === 'ready' && unregistered.invitees.map((i) => i.phoneNumber),
    ).toEqual(['305-555-0199']);
    const firstDay = buildInviteeList([user], invitations, { invitedTo: '2026-09-10' }, 'UTC');
    expect(firstDay.status === 'ready' && firstDay.invitees).toHaveLength(1);
  });
});

describe('invitationRows', () => {
  it('lists every invitation newest first with the registered name', () => {
    const rows = invitationRows(invitations, [user]);
    expect(rows.map((r) => [r.phoneNumber, r.name, r.freeWeek])).toEqual([
      ['305-555-0199', null, false],
      ['305-555-0101', 'Ana Ruiz', false],
      ['305-555-0177', null, true],
    ]);
  });
});
