import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { filterInvitees, mergeInvitees } from './invitees.js';
import { normalizePhone } from './phone.js';
import type { InviteeFilters } from './schemas/filters.js';
import { type Invitation, type MergedInvitee, mergedInviteeSchema } from './schemas/invitations.js';
import type { FlexUser } from './schemas/users.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NEW_YORK = { timeZone: 'America/New_York' };

/** An independent reading of the day an instant falls on: en-CA writes dates as YYYY-MM-DD. */
function dayOf(ts: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(ts);
}

function invitation(phoneNumber: string, overrides: Partial<Invitation> = {}): Invitation {
  return {
    phoneNumber,
    dateInvitedTimestamp: Date.UTC(2026, 0, 10),
    freeWeek: false,
    referralCode: null,
    ...overrides,
  };
}

function flexUser(phoneNumber: string, overrides: Partial<FlexUser> = {}): FlexUser {
  return {
    name: 'Ana García',
    phoneNumber,
    referral: 'MARIA10',
    goodStanding: true,
    proxyInstalled: true,
    setupComplete: false,
    createDateTimestamp: Date.UTC(2026, 0, 12),
    expirationDate: '2026-02-12T00:00:00.000Z',
    expirationDateTimestamp: Date.UTC(2026, 1, 12),
    stripeExpressId: null,
    status: 'start',
    humanRegion: 'Dallas',
    ...overrides,
  };
}

function merged(overrides: Partial<MergedInvitee>): MergedInvitee {
  return mergedInviteeSchema.parse({
    phoneNumber: '+15550000000',
    dateInvitedTimestamp: Date.UTC(2026, 0, 10),
    name: 'Unregistered',
    unregistered: true,
    goodStanding: false,
    proxyInstalled: false,
    setupComplete: false,
    ...overrides,
  });
}

// A handful of numbers, each in a few notations, plus text that is no phone at all, so that
// duplicates and matches across notations are common.
const tenDigits = fc.constantFrom('5551234567', '2145550000', '3055550101', '7135559999');
const phone = fc.oneof(
  fc
    .tuple(tenDigits, fc.constantFrom('+1', '1-', '01', '', '('))
    .map(([digits, prefix]) => `${prefix}${digits}`),
  fc.constantFrom('not a phone', '555-1234', 'NOT A PHONE'),
);
const invitations = fc.array(
  fc.record({
    phoneNumber: phone,
    dateInvitedTimestamp: fc.nat({ max: 1_000_000 }),
    freeWeek: fc.boolean(),
    referralCode: fc.option(fc.constantFrom('MARIA10', 'FLEXPRO')),
  }),
  { maxLength: 30 },
);
const users = fc.array(
  fc
    .record({ phone, name: fc.string({ minLength: 1 }), proxyInstalled: fc.boolean() })
    .map((u) => flexUser(u.phone, { name: u.name, proxyInstalled: u.proxyInstalled })),
  { maxLength: 10 },
);

const key = (phoneNumber: string) => normalizePhone(phoneNumber) ?? phoneNumber;

describe('mergeInvitees', () => {
  it('drops free-week invitations and later duplicates across notations', () => {
    const result = mergeInvitees(
      [
        invitation('(555) 123-4567', { dateInvitedTimestamp: 1 }),
        invitation('+1 214 555 0000', { freeWeek: true }),
        invitation('15551234567', { dateInvitedTimestamp: 2 }),
        invitation('2145550000', { dateInvitedTimestamp: 3 }),
        invitation('555-1234'),
        invitation('555 1234'),
      ],
      [],
    );
    expect(result.map((r) => [r.phoneNumber, r.dateInvitedTimestamp])).toEqual([
      ['(555) 123-4567', 1],
      ['2145550000', 3],
      ['555-1234', Date.UTC(2026, 0, 10)],
      ['555 1234', Date.UTC(2026, 0, 10)],
    ]);
  });

  it('overlays the matching user and marks the rest Unregistered with every flag false', () => {
    const ana = flexUser('+15551234567');
    const [registered, stranger] = mergeInvitees(
      [invitation('555.123.4567', { referralCode: 'FLEXPRO' }), invitation('2145550000')],
      [ana],
    );
    expect(registered).toEqual({
      ...ana,
      dateInvitedTimestamp: Date.UTC(2026, 0, 10),
      freeWeek: false,
      referralCode: 'FLEXPRO',
      unregistered: false,
    });
    expect(stranger).toEqual(
      merged({ phoneNumber: '2145550000', name: 'Unregistered', unregistered: true }),
    );
  });

  it('every invitee appears once per normalised phone', () => {
    fc.assert(
      fc.property(invitations, users, (list, people) => {
        const keys = mergeInvitees(list, people).map((r) => key(r.phoneNumber));
        expect(new Set(keys).size).toBe(keys.length);
      }),
    );
  });

  it('keeps the first invitation without a free week of each phone, in order', () => {
    fc.assert(
      fc.property(invitations, users, (list, people) => {
        const seen = new Set<string>();
        const expected = list.filter((inv) => {
          if (inv.freeWeek || seen.has(key(inv.phoneNumber))) return false;
          seen.add(key(inv.phoneNumber));
          return true;
        });
        const result = mergeInvitees(list, people);
        expect(
          result.map((r) => [
            key(r.phoneNumber),
            r.dateInvitedTimestamp,
            r.referralCode,
            r.freeWeek,
          ]),
        ).toEqual(
          expected.map((inv) => [
            key(inv.phoneNumber),
            inv.dateInvitedTimestamp,
            inv.referralCode,
            false,
          ]),
        );
      }),
    );
  });

  it('an invitee is registered exactly when a user has the same normalised phone, and carries the first such user', () => {
    fc.assert(
      fc.property(invitations, users, (list, people) => {
        for (const row of mergeInvitees(list, people)) {
          const user = people.find((u) => key(u.phoneNumber) === key(row.phoneNumber));
          expect(row.unregistered).toBe(user === undefined);
          if (user) {
            expect(row).toMatchObject({ ...user, unregistered: false });
          } else {
            expect(row).toMatchObject({
              name: 'Unregistered',
              goodStanding: false,
              proxyInstalled: false,
              setupComplete: false,
            });
          }
        }
      }),
    );
  });

  it('builds rows the merged-invitee schema accepts as they are', () => {
    fc.assert(
      fc.property(invitations, users, (list, people) => {
        for (const row of mergeInvitees(list, people)) {
          expect(mergedInviteeSchema.parse(row)).toEqual(row);
        }
      }),
    );
  });
});

const FIRST_DAY = Date.UTC(2026, 9, 28);
const instant = fc
  .tuple(fc.integer({ min: 0, max: 10 * 24 }), fc.constantFrom(-1, 0, 1, 1_800_000))
  .map(([hours, nudge]) => FIRST_DAY + hours * HOUR + nudge);
const isoDay = (min: number, max: number) =>
  fc.integer({ min, max }).map((n) => new Date(FIRST_DAY + n * DAY).toISOString().slice(0, 10));
const invitee = fc
  .record({
    at: instant,
    unregistered: fc.boolean(),
    proxyInstalled: fc.boolean(),
    setupComplete: fc.boolean(),
    id: fc.nat(),
  })
  .map((r) =>
    merged({
      phoneNumber: `+1555${String(r.id).padStart(7, '0').slice(-7)}`,
      dateInvitedTimestamp: r.at,
      unregistered: r.unregistered,
      name: r.unregistered ? 'Unregistered' : `user ${r.id}`,
      proxyInstalled: r.proxyInstalled,
      setupComplete: r.setupComplete,
    }),
  );
const invitees = fc.array(invitee, { maxLength: 40 });
const sometimes = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 1 }, { arbitrary, weight: 1 });
const triState = fc.constantFrom('all' as const, 'yes' as const, 'no' as const);
const inviteeFilters: fc.Arbitrary<InviteeFilters> = fc.record({
  invitedFrom: sometimes(isoDay(0, 6)),
  invitedTo: sometimes(isoDay(4, 10)),
  registered: sometimes(triState),
  proxyInstalled: sometimes(triState),
  setupComplete: sometimes(triState),
});
const zone = fc.constantFrom('America/New_York', 'Europe/London', 'Asia/Kolkata', 'UTC');

/** Reference model: read the invitation instant as a day in the zone and compare days as text. */
function keptByModel(row: MergedInvitee, f: InviteeFilters, timeZone: string): boolean {
  const day = dayOf(row.dateInvitedTimestamp, timeZone);
  const flag = (filter: string | undefined, value: boolean) =>
    filter === 'yes' ? value : filter === 'no' ? !value : true;
  return (
    (!f.invitedFrom || day >= f.invitedFrom) &&
    (!f.invitedTo || day <= f.invitedTo) &&
    flag(f.registered, !row.unregistered) &&
    flag(f.proxyInstalled, row.proxyInstalled) &&
    flag(f.setupComplete, row.setupComplete)
  );
}

describe('filterInvitees', () => {
  it('keeps an invitee invited at 23:30 on the last day and drops one invited at 00:00 the next', () => {
    // 2026-11-01 is New York's 25-hour fall-back day.
    const rows = [
      merged({ name: 'first minute', dateInvitedTimestamp: Date.UTC(2026, 10, 1, 4) }),
      merged({ name: '23:30', dateInvitedTimestamp: Date.UTC(2026, 10, 2, 4, 30) }),
      merged({ name: 'next day', dateInvitedTimestamp: Date.UTC(2026, 10, 2, 5) }),
      merged({ name: 'day before', dateInvitedTimestamp: Date.UTC(2026, 10, 1, 4) - 1 }),
    ];
    const range = { invitedFrom: '2026-11-01', invitedTo: '2026-11-01' };
    expect(filterInvitees(rows, range, NEW_YORK).map((r) => r.name)).toEqual([
      'first minute',
      '23:30',
    ]);
    expect(filterInvitees(rows, { invitedTo: '2026-11-01' }, NEW_YORK).map((r) => r.name)).toEqual([
      'first minute',
      '23:30',
      'day before',
    ]);
  });

  it('keeps registered or unregistered invitees, and flags as asked', () => {
    const rows = [
      merged({ name: 'Unregistered', unregistered: true }),
      merged({ name: 'Ana', unregistered: false, proxyInstalled: true, setupComplete: false }),
    ];
    expect(filterInvitees(rows, { registered: 'yes' }).map((r) => r.name)).toEqual(['Ana']);
    expect(filterInvitees(rows, { registered: 'no' }).map((r) => r.name)).toEqual(['Unregistered']);
    expect(filterInvitees(rows, { proxyInstalled: 'yes' }).map((r) => r.name)).toEqual(['Ana']);
    expect(filterInvitees(rows, { setupComplete: 'no' }).map((r) => r.name)).toEqual([
      'Unregistered',
      'Ana',
    ]);
    expect(filterInvitees(rows, {})).toEqual(rows);
  });

  it('throws a RangeError naming a malformed day', () => {
    expect(() => filterInvitees([], { invitedFrom: '2026-02-30' })).toThrow('2026-02-30');
  });

  it('keeps exactly the invitees a day-by-day reference model keeps', () => {
    fc.assert(
      fc.property(invitees, inviteeFilters, zone, (list, f, timeZone) => {
        const expected = list.filter((row) => keptByModel(row, f, timeZone));
        expect(filterInvitees(list, f, { timeZone })).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('a yes filter and a no filter partition the rows', () => {
    const flag = fc.constantFrom('registered', 'proxyInstalled', 'setupComplete' as const);
    fc.assert(
      fc.property(invitees, flag, (list, name) => {
        const yes = filterInvitees(list, { [name]: 'yes' });
        const no = filterInvitees(list, { [name]: 'no' });
        expect(yes.length + no.length).toBe(list.length);
        expect(yes.filter((row) => no.includes(row))).toEqual([]);
      }),
    );
  });

  it('keeps order and returns a subset', () => {
    fc.assert(
      fc.property(invitees, inviteeFilters, zone, (list, f, timeZone) => {
        let from = 0;
        for (const row of filterInvitees(list, f, { timeZone })) {
          const at = list.indexOf(row, from);
          expect(at).toBeGreaterThanOrEqual(from);
          from = at + 1;
        }
      }),
    );
  });
});
