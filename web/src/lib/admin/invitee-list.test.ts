import type { FlexUser, Invitation } from '@blockcatch/sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildInviteeList, invitationCounts, invitationRows } from './invitee-list.js';

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

describe('the invitation figures', () => {
  it('agree with the Leads list and the Notifications audience, however the phones repeat', () => {
    const phones = ['305-555-0101', '(305) 555-0101', '305-555-0199', '+13055550177', '3055550188'];
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            phoneNumber: fc.constantFrom(...phones),
            dateInvitedTimestamp: fc.integer({ min: day, max: day + 30 * 86_400_000 }),
            freeWeek: fc.boolean(),
            referralCode: fc.constantFrom(null, 'A', 'B'),
          }),
          { maxLength: 30 },
        ),
        fc.subarray([user, { ...user, name: 'Bo', phoneNumber: '+13055550177' }]),
        (sent, users) => {
          const counts = invitationCounts(sent, users);
          const all = buildInviteeList(users, sent, {});
          const leads = buildInviteeList(users, sent, { registered: 'no' });
          const audience = all.status === 'ready' ? all.invitees.length : 0;
          const unregistered = leads.status === 'ready' ? leads.invitees.length : 0;
          expect(counts.sent).toBe(sent.length);
          expect(counts.invitees).toBe(audience);
          expect(counts.notSignedUp).toBe(unregistered);
          expect(counts.signedUp + counts.notSignedUp).toBe(counts.invitees);
          expect(counts.freeWeeks).toBe(sent.filter((i) => i.freeWeek).length);
        },
      ),
    );
  });
});
