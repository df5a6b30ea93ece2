// Station insight read from its rollups gives exactly what one pass over every recorded offer gives
// (the query it replaced, kept here as the definition), on random offers: sightings spread before,
// inside and after the window, stations on half-hour and daylight-saving clocks, offers added in
// batches, a driver's offers removed, offers changed, and a station's zone changed afterwards.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../src/storage/db.js';
import { type OfferRecord, recordOffers } from '../src/storage/driver-offers.js';
import { readStationInsight } from '../src/storage/station-insight.js';
import { insertUsers } from '../src/storage/users.js';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from './helpers/database.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// Sunday 2026-03-08, the night Chicago moves its clocks forward.
const BASE = Date.parse('2026-03-08T08:00:00Z');
const DRIVERS = 8;
const STATIONS = ['DAU1', 'LHR9', 'DEL1', 'ADL2'] as const;
const ZONES: Record<(typeof STATIONS)[number], readonly string[]> = {
  DAU1: ['America/Chicago', 'America/Denver'],
  LHR9: ['Europe/London', 'Europe/Berlin'],
  DEL1: ['Asia/Kolkata', 'Asia/Kathmandu'],
  ADL2: ['Australia/Adelaide', 'Australia/Sydney'],
};

type Station = { id: string; timeZone: string };

/** The definition: one pass over every recorded offer in the window. */
async function insightByFullScan(
  db: Queryable,
  options: { stations: readonly Station[]; from: number; to: number; minDrivers: number },
) {
  const rows = await db.query<{
    station: string;
    hour_of_week: number;
    drivers: number;
    offers: number;
    low: number;
    high: number;
    taken_first: number | null;
  }>(
    `WITH placed AS (
       SELECT o.user_id, o.offer_id, o.kind, o.service_area_id AS station,
              o.pay * 3600000.0 / (o.end_ts - o.start_ts) AS rate,
              ((extract(isodow FROM local_start)::int - 1) * 24
                + extract(hour FROM local_start)::int) AS hour_of_week
       FROM driver_offers o
       JOIN unnest($1::text[], $2::text[]) AS z(station, zone) ON z.station = o.service_area_id
       CROSS JOIN LATERAL (SELECT to_timestamp(o.start_ts / 1000.0) AT TIME ZONE z.zone AS local_start) l
       WHERE o.seen_ts >= $3 AND o.seen_ts < $4 AND o.end_ts > o.start_ts
     ),
     enough AS (
       SELECT station, hour_of_week, count(DISTINCT user_id)::int AS drivers,
              (count(*) FILTER (WHERE kind = 'gone'))::float8
                / NULLIF(count(*) FILTER (WHERE kind IN ('won', 'gone')), 0) AS taken_first
       FROM placed GROUP BY station, hour_of_week
       HAVING count(DISTINCT user_id) >= $5
     ),
     offers AS (
       SELECT DISTINCT ON (offer_id) offer_id, station, hour_of_week, rate
       FROM placed ORDER BY offer_id
     )
     SELECT e.station, e.hour_of_week, e.drivers, e.taken_first,
            count(*)::int AS offers,
            percentile_cont(0.25) WITHIN GROUP (ORDER BY o.rate) AS low,
            percentile_cont(0.75) WITHIN GROUP (ORDER BY o.rate) AS high
     FROM enough e JOIN offers o USING (station, hour_of_week)
     GROUP BY e.station, e.hour_of_week, e.drivers, e.taken_first
     ORDER BY e.station, e.hour_of_week`,
    [
      options.stations.map((s) => s.id),
      options.stations.map((s) => s.timeZone),
      options.from,
      options.to,
      options.minDrivers,
    ],
  );
  const cents = (n: number) => Math.round(Number(n) * 100) / 100;
  return rows.map((r) => ({
    station: r.station,
    hourOfWeek: Number(r.hour_of_week),
    drivers: Number(r.drivers),
    offers: Number(r.offers),
    payPerHourLow: cents(r.low),
    payPerHourHigh: cents(r.high),
    takenFirstShare: r.taken_first === null ? null : Number(r.taken_first),
  }));
}

const sighting = fc.record({
  driver: fc.integer({ min: 0, max: DRIVERS - 1 }),
  seenOffset: fc.integer({ min: -30 * DAY, max: 30 * DAY }),
  kind: fc.constantFrom<OfferRecord['kind']>('disliked', 'disliked', 'won', 'gone'),
});

const offer = fc.record({
  station: fc.integer({ min: 0, max: STATIONS.length - 1 }),
  // A few hours of the week, in weeks around the change of clocks, so that figures gather offers.
  startOffset: fc
    .tuple(fc.integer({ min: -5, max: 5 }), fc.integer({ min: 0, max: 3 * HOUR }))
    .map(([weeks, ms]) => weeks * 7 * DAY + ms),
  // Some end before they start: those are left out.
  minutes: fc.integer({ min: -60, max: 8 * 60 }),
  cents: fc.integer({ min: 1_000, max: 30_000 }),
  sightings: fc.uniqueArray(sighting, {
    selector: (s) => s.driver,
    minLength: 2,
    maxLength: DRIVERS,
  }),
});

const scenario = fc.record({
  offers: fc.array(offer, { minLength: 20, maxLength: 60 }),
  zones: fc.array(fc.integer({ min: 0, max: 1 }), {
    minLength: STATIONS.length,
    maxLength: STATIONS.length,
  }),
  batches: fc.integer({ min: 1, max: 3 }),
  // Most sightings recorded after the zones are known (added as recorded), some before (rolled up
  // when the insight first reads them).
  readFirst: fc.boolean(),
  removeDriver: fc.option(fc.integer({ min: 0, max: DRIVERS - 1 }), { nil: null }),
  markGone: fc.boolean(),
  flipZone: fc.option(fc.integer({ min: 0, max: STATIONS.length - 1 }), { nil: null }),
  stationsAsked: fc.subarray([0, 1, 2, 3], { minLength: 1 }),
  fromOffset: fc.integer({ min: -35 * DAY, max: 5 * DAY }),
  days: fc.integer({ min: 0, max: 50 }),
  extraMs: fc.integer({ min: 0, max: DAY }),
  minDrivers: fc.integer({ min: 1, max: 4 }),
});

describe.each(DATABASE_KINDS)('station insight rollups on %s', (kind) => {
  let test: TestDatabase;
  let userIds: string[];

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    await insertUsers(
      test.db,
      Array.from({ length: DRIVERS }, (_, i) => ({
        product: 'flex' as const,
        phone_number: `+1512555${String(8000 + i)}`,
        name: `Driver ${i}`,
      })),
    );
    userIds = (await test.db.query<{ id: string }>('SELECT id FROM users ORDER BY id')).map(
      (r) => r.id,
    );
  });

  afterAll(async () => {
    await test?.drop();
  });

  // Forty scenarios, each writing its offers afresh: longer than one test's default on a loaded
  // machine, hence the timeout.
  it('answers exactly as one pass over every recorded offer', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const { db } = test;
        await db.query('TRUNCATE driver_offers');
        const zoneOf = (i: number, flip = false) => {
          const id = STATIONS[i]!;
          return ZONES[id][flip ? 1 - s.zones[i]! : s.zones[i]!]!;
        };
        const all: Station[] = STATIONS.map((id, i) => ({ id, timeZone: zoneOf(i) }));
        const from = BASE + s.fromOffset;
        const window = { from, to: from + s.days * DAY + s.extraMs, minDrivers: s.minDrivers };
        if (s.readFirst) await readStationInsight(db, { stations: all, ...window });

        const records: OfferRecord[] = s.offers.flatMap((o, n) =>
          o.sightings.map((v) => ({
            userId: userIds[v.driver]!,
            offerId: `offer-${n}`,
            kind: v.kind,
            reason: v.kind === 'disliked' ? 'hourly-pay' : null,
            serviceAreaId: STATIONS[o.station]!,
            startTime: BASE + o.startOffset,
            endTime: BASE + o.startOffset + o.minutes * 60_000,
            pay: o.cents / 100,
            seenAt: BASE + v.seenOffset,
          })),
        );
        const size = Math.ceil(records.length / s.batches);
        for (let i = 0; i < records.length; i += size) {
          await recordOffers(db, records.slice(i, i + size));
        }
        if (s.removeDriver !== null) {
          await db.query('DELETE FROM driver_offers WHERE user_id = $1', [userIds[s.removeDriver]]);
        }
        if (s.markGone) {
          await db.query(
            "UPDATE driver_offers SET kind = 'gone', reason = NULL WHERE offer_id = 'offer-0'",
          );
        }
        const asked = s.stationsAsked.map((i) => ({
          id: STATIONS[i]!,
          timeZone: zoneOf(i, s.flipZone === i),
        }));
        const expected = await insightByFullScan(db, { stations: asked, ...window });
        const actual = await readStationInsight(db, { stations: asked, ...window });
        expect(actual).toEqual(expected);
      }),
      { numRuns: 40 },
    );
  }, 180_000);
});
