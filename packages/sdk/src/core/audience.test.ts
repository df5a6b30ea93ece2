import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AudienceContext, filterAudience } from './audience.js';
import { localTimeZone } from './days.js';
import type { AudienceFilters } from './schemas/filters.js';
import type { FlexUser, SparkUser } from './schemas/users.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NEW_YORK: AudienceContext = {
  product: 'flex',
  billingDetails: true,
  timeZone: 'America/New_York',
};

/** An independent reading of the day an instant falls on: en-CA writes dates as YYYY-MM-DD. */
function dayOf(ts: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(ts);
}

function flexUser(overrides: Partial<FlexUser> = {}): FlexUser {
  return {
    name: 'Ana García',
    phoneNumber: '+15551234567',
    referral: null,
    goodStanding: true,
    proxyInstalled: true,
    setupComplete: true,
    createDateTimestamp: Date.UTC(2026, 0, 15),
    expirationDate: '2026-06-01T00:00:00.000Z',
    expirationDateTimestamp: Date.UTC(2026, 5, 1),
    stripeExpressId: null,
    status: 'start',
    humanRegion: 'Dallas',
    ...overrides,
  };
}

// Instants on and around whole hours of a ten-day window spanning New York's spring-forward day,
// so day edges in every zone below are hit, and missed by a millisecond, often.
const FIRST_DAY = Date.UTC(2026, 2, 3);
const instant = fc
  .tuple(fc.integer({ min: 0, max: 10 * 24 }), fc.constantFrom(-1, 0, 0, 1, 1_800_000))
  .map(([hours, nudge]) => FIRST_DAY + hours * HOUR + nudge);
const dayAfterFirst = (min: number, max: number) =>
  fc.integer({ min, max }).map((n) => new Date(FIRST_DAY + n * DAY).toISOString().slice(0, 10));
const isoDay = dayAfterFirst(0, 10);
// Start days early in the window and end days late, so most ranges keep someone.
const earlyDay = dayAfterFirst(0, 6);
const lateDay = dayAfterFirst(4, 10);
const zone = fc.constantFrom('America/New_York', 'America/Los_Angeles', 'Asia/Kolkata', 'UTC');

/** The same instant written as the gateway might: toISOString, without milliseconds, or with an offset. */
const isoWriting = (ts: number) =>
  fc.constantFrom(
    new Date(ts).toISOString(),
    `${new Date(ts).toISOString().slice(0, 19)}Z`,
    `${new Date(ts - 5 * HOUR).toISOString().slice(0, 23)}-05:00`,
    `${new Date(ts + 5.5 * HOUR).toISOString().slice(0, 19)}+05:30`,
  );

// Case variants, a prefix and letters beyond ASCII (whose lower case may be longer, or ASCII).
const regions = [
  'Dallas',
  'Houston',
  'Miami',
  'DALLAS',
  'miami',
  'Dalla',
  'Dallás',
  'DALLÁS',
  'İstanbul',
  'i̇stanbul',
  '\u212aeys',
  'keys',
];
const referrals = ['MARIA10', 'FLEXPRO'];
const user = fc
  .record({
    id: fc.nat(),
    created: instant,
    expires: fc.option(instant, { freq: 4 }),
    goodStanding: fc.boolean(),
    proxyInstalled: fc.boolean(),
    setupComplete: fc.boolean(),
    humanRegion: fc.option(fc.constantFrom(...regions)),
    referral: fc.option(fc.constantFrom(...referrals)),
  })
  .chain((u) =>
    (u.expires === null ? fc.constant(null) : isoWriting(u.expires)).map((expirationDate) =>
      flexUser({
        name: `user ${u.id}`,
        createDateTimestamp: u.created,
        expirationDate,
        expirationDateTimestamp: u.expires,
        goodStanding: u.goodStanding,
        proxyInstalled: u.proxyInstalled,
        setupComplete: u.setupComplete,
        humanRegion: u.humanRegion,
        referral: u.referral,
      }),
    ),
  );
const users = fc.array(user, { maxLength: 60 });
const triState = fc.constantFrom('all', 'yes', 'no', undefined);
/** Unset two times in three, so that a run keeps users often enough to say something. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, { arbitrary, weight: 1 });
const filters: fc.Arbitrary<AudienceFilters> = fc.record({
  startDate: sometimes(earlyDay),
  endDate: sometimes(lateDay),
  startExpirationDate: sometimes(earlyDay),
  endExpirationDate: sometimes(lateDay),
  byGoodStanding: sometimes(triState),
  byProxyInstalled: sometimes(triState),
  bySetupComplete: sometimes(triState),
  byRegion: sometimes(fc.constantFrom(...regions, 'all', '')),
  selectedReferral: sometimes(fc.constantFrom(...referrals, 'all', '')),
});
const context = fc.record({
  product: fc.constantFrom('flex' as const, 'spark' as const),
  billingDetails: fc.boolean(),
  timeZone: zone,
});

/** Reference model: read every instant as a day in the zone and compare days as text. */
function keptByModel(u: FlexUser, f: AudienceFilters, ctx: Required<AudienceContext>): boolean {
  const day = (ts: number) => dayOf(ts, ctx.timeZone);
  const flag = (filter: string | undefined, value: boolean) =>
    filter === 'yes' ? value : filter === 'no' ? !value : true;
  const set = (filter: string | undefined) =>
    filter !== undefined && filter !== '' && filter !== 'all';
  if (f.startDate && day(u.createDateTimestamp) < f.startDate) return false;
  if (f.endDate && day(u.createDateTimestamp) > f.endDate) return false;
  if (
    f.startExpirationDate &&
    (u.expirationDate === null || day(Date.parse(u.expirationDate)) < f.startExpirationDate)
  )
    return false;
  if (
    f.endExpirationDate &&
    (u.expirationDateTimestamp === null || day(u.expirationDateTimestamp) > f.endExpirationDate)
  )
    return false;
  if (!flag(f.byGoodStanding, u.goodStanding)) return false;
  if (!flag(f.byProxyInstalled, u.proxyInstalled)) return false;
  if (!flag(f.bySetupComplete, u.setupComplete)) return false;
  if (
    ctx.product === 'flex' &&
    set(f.byRegion) &&
    u.humanRegion?.toLowerCase() !== f.byRegion?.toLowerCase()
  )
    return false;
  if (ctx.billingDetails && set(f.selectedReferral) && u.referral !== f.selectedReferral)
    return false;
  return true;
}

describe('filterAudience', () => {
  it('keeps a user created at 23:30 on the end day and drops one created at 00:00 the next', () => {
    // 2026-03-08 is 23 hours long in New York; 2026-11-01 is 25.
    const spring = [
      flexUser({ name: 'late', createDateTimestamp: Date.UTC(2026, 2, 9, 3, 30) }),
      flexUser({ name: 'next', createDateTimestamp: Date.UTC(2026, 2, 9, 4) }),
    ];
    expect(filterAudience(spring, { endDate: '2026-03-08' }, NEW_YORK).map((u) => u.name)).toEqual([
      'late',
    ]);
    const fall = [
      flexUser({ name: 'late', createDateTimestamp: Date.UTC(2026, 10, 2, 4, 30) }),
      flexUser({ name: 'next', createDateTimestamp: Date.UTC(2026, 10, 2, 5) }),
    ];
    expect(filterAudience(fall, { endDate: '2026-11-01' }, NEW_YORK).map((u) => u.name)).toEqual([
      'late',
    ]);
  });

  it('keeps a user created at 00:00 on the start day and drops one a millisecond earlier', () => {
    const spring = [
      flexUser({ name: 'before', createDateTimestamp: Date.UTC(2026, 2, 8, 5) - 1 }),
      flexUser({ name: 'midnight', createDateTimestamp: Date.UTC(2026, 2, 8, 5) }),
    ];
    expect(
      filterAudience(spring, { startDate: '2026-03-08' }, NEW_YORK).map((u) => u.name),
    ).toEqual(['midnight']);
    // 01:30 happens twice on the fall-back day; both are on the day.
    const fall = [
      flexUser({ name: 'before', createDateTimestamp: Date.UTC(2026, 10, 1, 4) - 1 }),
      flexUser({ name: 'first 01:30', createDateTimestamp: Date.UTC(2026, 10, 1, 5, 30) }),
      flexUser({ name: 'second 01:30', createDateTimestamp: Date.UTC(2026, 10, 1, 6, 30) }),
    ];
    const range = { startDate: '2026-11-01', endDate: '2026-11-01' };
    expect(filterAudience(fall, range, NEW_YORK).map((u) => u.name)).toEqual([
      'first 01:30',
      'second 01:30',
    ]);
  });

  it('compares the expiration start with expirationDate however the instant is written', () => {
    const rows = [
      flexUser({ name: 'Z, a millisecond early', expirationDate: '2026-03-08T04:59:59.999Z' }),
      flexUser({ name: 'Z, on time', expirationDate: '2026-03-08T05:00:00.000Z' }),
      flexUser({ name: 'no milliseconds', expirationDate: '2026-03-08T05:00:00Z' }),
      flexUser({ name: 'offset, early', expirationDate: '2026-03-07T23:59:59-05:00' }),
      flexUser({ name: 'offset, on time', expirationDate: '2026-03-08T00:00:00-05:00' }),
      flexUser({ name: 'never paid', expirationDate: null }),
    ];
    expect(
      filterAudience(rows, { startExpirationDate: '2026-03-08' }, NEW_YORK).map((u) => u.name),
    ).toEqual(['Z, on time', 'no milliseconds', 'offset, on time']);
  });

  it('compares the expiration end with expirationDateTimestamp, not expirationDate', () => {
    const rows = [
      flexUser({
        name: 'in',
        expirationDate: '2030-01-01T00:00:00.000Z',
        expirationDateTimestamp: Date.UTC(2026, 2, 9, 3),
      }),
      flexUser({
        name: 'out',
        expirationDate: '2020-01-01T00:00:00.000Z',
        expirationDateTimestamp: Date.UTC(2026, 2, 9, 4),
      }),
      flexUser({ name: 'never paid', expirationDateTimestamp: null }),
    ];
    expect(
      filterAudience(rows, { endExpirationDate: '2026-03-08' }, NEW_YORK).map((u) => u.name),
    ).toEqual(['in']);
  });

  it('applies the region filter to Flex only and the referral filter only with billing details', () => {
    const rows = [
      flexUser({ name: 'dallas', humanRegion: 'Dallas', referral: 'MARIA10' }),
      flexUser({ name: 'miami', humanRegion: 'Miami', referral: null }),
    ];
    const f = { byRegion: 'Dallas', selectedReferral: 'MARIA10' };
    expect(filterAudience(rows, f, NEW_YORK).map((u) => u.name)).toEqual(['dallas']);
    expect(filterAudience(rows, { byRegion: 'dALLAS' }, NEW_YORK).map((u) => u.name)).toEqual([
      'dallas',
    ]);
    expect(filterAudience(rows, { byRegion: 'Dallas' }, { ...NEW_YORK, product: 'spark' })).toEqual(
      rows,
    );
    expect(
      filterAudience(rows, { selectedReferral: 'MARIA10' }, { ...NEW_YORK, billingDetails: false }),
    ).toEqual(rows);
  });

  it('filters Spark users too', () => {
    const spark: SparkUser[] = [
      { ...flexUser({ name: 'on' }), driverOptions: { deliveryArea: 'Austin' } },
      {
        ...flexUser({ name: 'off', proxyInstalled: false }),
        driverOptions: { deliveryArea: null },
      },
    ];
    const ctx = { ...NEW_YORK, product: 'spark' as const };
    expect(filterAudience(spark, { byProxyInstalled: 'no' }, ctx).map((u) => u.name)).toEqual([
      'off',
    ]);
  });

  it('throws a RangeError naming a malformed day', () => {
    expect(() => filterAudience([flexUser()], { startDate: '2026-02-30' }, NEW_YORK)).toThrow(
      '2026-02-30',
    );
    expect(() => filterAudience([], { endExpirationDate: '26-1-1' }, NEW_YORK)).toThrow(RangeError);
  });

  it('reads days in the runtime’s zone when the context names none', () => {
    const rows = Array.from({ length: 48 }, (_, h) =>
      flexUser({ name: `${h}`, createDateTimestamp: Date.UTC(2026, 2, 8) + h * HOUR }),
    );
    const f = { startDate: '2026-03-08', endDate: '2026-03-08' };
    const kept = filterAudience(rows, f, { product: 'flex', billingDetails: false });
    expect(kept).toEqual(
      rows.filter((u) => dayOf(u.createDateTimestamp, localTimeZone()) === '2026-03-08'),
    );
  });

  it('keeps exactly the users a day-by-day reference model keeps', () => {
    fc.assert(
      fc.property(users, filters, context, (list, f, ctx) => {
        expect(filterAudience(list, f, ctx)).toEqual(list.filter((u) => keptByModel(u, f, ctx)));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps a run of rows in sign-up order as a new array of exactly that run', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 60 }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 60 }),
        (days, a, b) => {
          // The gateway's order: by sign-up time.
          const list = days
            .sort((x, y) => x - y)
            .map((n) => flexUser({ createDateTimestamp: Date.UTC(2026, 0, 1, 17) + n * DAY }));
          const [from, to] = a <= b ? [a, b] : [b, a];
          const day = (n: number) =>
            new Date(Date.UTC(2026, 0, 1) + n * DAY).toISOString().slice(0, 10);
          const kept = filterAudience(list, { startDate: day(from), endDate: day(to) }, NEW_YORK);
          expect(kept).toEqual(list.filter((_user, i) => days[i]! >= from && days[i]! <= to));
          expect(kept).not.toBe(list);
          kept.length = 0;
          expect(list).toHaveLength(days.length);
        },
      ),
    );
  });

  it('filterAudience keeps order and returns a subset', () => {
    fc.assert(
      fc.property(users, filters, context, (list, f, ctx) => {
        let from = 0;
        for (const kept of filterAudience(list, f, ctx)) {
          const at = list.indexOf(kept, from);
          expect(at).toBeGreaterThanOrEqual(from);
          from = at + 1;
        }
      }),
    );
  });

  it('an absent, empty or all filter keeps every user', () => {
    const nothingSet = fc.record(
      {
        byGoodStanding: fc.constant('all' as const),
        byProxyInstalled: fc.constant('all' as const),
        bySetupComplete: fc.constant('all' as const),
        byRegion: fc.constantFrom('', 'all'),
        selectedReferral: fc.constantFrom('', 'all'),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(users, nothingSet, context, (list, f, ctx) => {
        expect(filterAudience(list, f, ctx)).toEqual(list);
      }),
    );
  });

  it('a yes filter and a no filter partition the rows', () => {
    const flag = fc.constantFrom('byGoodStanding', 'byProxyInstalled', 'bySetupComplete' as const);
    fc.assert(
      fc.property(users, flag, context, (list, key, ctx) => {
        const yes = filterAudience(list, { [key]: 'yes' }, ctx);
        const no = filterAudience(list, { [key]: 'no' }, ctx);
        expect(yes.length + no.length).toBe(list.length);
        expect(yes.filter((u) => no.includes(u))).toEqual([]);
      }),
    );
  });

  it('setting one more filter never adds a user', () => {
    fc.assert(
      fc.property(users, filters, filters, context, (list, some, more, ctx) => {
        const fewer = filterAudience(list, some, ctx);
        const defined = Object.entries(some).filter(([, value]) => value !== undefined);
        const narrowed = filterAudience(list, { ...more, ...Object.fromEntries(defined) }, ctx);
        expect(narrowed.every((u) => fewer.includes(u))).toBe(true);
      }),
    );
  });

  it('drops a user with no expiration whenever either expiration bound is set', () => {
    fc.assert(
      fc.property(users, isoDay, fc.boolean(), context, (list, day, useStart, ctx) => {
        const unpaid = list.map((u) => ({
          ...u,
          expirationDate: null,
          expirationDateTimestamp: null,
        }));
        const f = useStart ? { startExpirationDate: day } : { endExpirationDate: day };
        expect(filterAudience(unpaid, f, ctx)).toEqual([]);
      }),
    );
  });
});
