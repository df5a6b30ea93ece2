// Station insight on PGlite and on PostgreSQL: pay per hour by station and hour of the week on the
// station's clock, how often faster drivers took offers first, and no figure with fewer than 5
// drivers behind it.
import { INSIGHT_MIN_DRIVERS } from '@blockcatch/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OfferRecord, recordOffers } from '../src/storage/driver-offers.js';
import { readStationInsight } from '../src/storage/station-insight.js';
import { insertUsers } from '../src/storage/users.js';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from './helpers/database.js';

const HOUR = 3_600_000;
const STATIONS = [
  { id: 'DAU1', timeZone: 'America/Chicago' },
  { id: 'DHO2', timeZone: 'America/Chicago' },
  { id: 'LHR9', timeZone: 'Europe/London' },
];
// Saturday 2026-11-21 08:00 in Chicago (14:00 UTC): hour of week 5 × 24 + 8.
const SATURDAY_8AM = Date.parse('2026-11-21T08:00:00-06:00');
const NOW = Date.parse('2026-11-26T12:00:00Z');

describe.each(DATABASE_KINDS)('station insight on %s', (kind) => {
  let test: TestDatabase;

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    const inserted = await insertUsers(
      test.db,
      Array.from({ length: 7 }, (_, i) => ({
        product: 'flex' as const,
        phone_number: `+1512555${String(7000 + i)}`,
        name: `Driver ${i}`,
      })),
    );
    const userIds = (
      await test.db.query<{ id: string; phone_number: string }>(
        'SELECT id, phone_number FROM users ORDER BY phone_number',
      )
    ).map((r) => r.id);
    expect(inserted).toBe(7);
    const records: OfferRecord[] = [];
    const offer = (
      user: string,
      id: string,
      start: number,
      hours: number,
      pay: number,
      k: OfferRecord['kind'] = 'disliked',
      area = 'DAU1',
    ) =>
      records.push({
        userId: user,
        offerId: id,
        kind: k,
        reason: k === 'disliked' ? 'hourly-pay' : null,
        serviceAreaId: area,
        startTime: start,
        endTime: start + hours * HOUR,
        pay,
        seenAt: start - 6 * HOUR,
      });
    // DAU1, Saturday 8 am: 4 offers of 4 hours at $96, $104, $112, $124 ($24, $26, $28, $31 an
    // hour), each shown to 6 drivers; one wanted offer won by us, three taken first by others.
    const pays = [96, 104, 112, 124];
    for (let d = 0; d < 6; d++) {
      pays.forEach((pay, i) => {
        const kind = d === 0 ? (i === 0 ? 'won' : 'gone') : 'disliked';
        offer(userIds[d]!, `dau1-sat-${i}`, SATURDAY_8AM + i * 60_000, 4, pay, kind);
      });
    }
    // DHO2 at the same hour, shown to 4 drivers only: below the threshold.
    for (let d = 0; d < 4; d++)
      offer(userIds[d]!, 'dho2-sat', SATURDAY_8AM, 4, 200, 'disliked', 'DHO2');
    // London at the same instant is 14:00 there, shown to 5 drivers: hour 5 × 24 + 14.
    for (let d = 0; d < 5; d++)
      offer(userIds[d]!, 'lhr9-sat', SATURDAY_8AM, 2, 50, 'disliked', 'LHR9');
    // Seen five weeks ago: outside the 4 weeks looked back over.
    for (let d = 0; d < 6; d++) offer(userIds[d]!, 'old', SATURDAY_8AM - 35 * 24 * HOUR, 4, 400);
    await recordOffers(test.db, records);
  });

  afterAll(async () => {
    await test?.drop();
  });

  const read = () =>
    readStationInsight(test.db, {
      stations: STATIONS,
      from: NOW - 28 * 24 * HOUR,
      to: NOW,
      minDrivers: INSIGHT_MIN_DRIVERS,
    });

  it("gives pay per hour by station and hour of the week on the station's clock, offers counted once", async () => {
    const figures = await read();
    expect(figures).toEqual([
      {
        station: 'DAU1',
        hourOfWeek: 5 * 24 + 8,
        drivers: 6,
        offers: 4,
        // Quartiles of 24, 26, 28, 31 (linear interpolation, as percentile_cont does).
        payPerHourLow: 25.5,
        payPerHourHigh: 28.75,
        takenFirstShare: 0.75,
      },
      {
        station: 'LHR9',
        hourOfWeek: 5 * 24 + 14,
        drivers: 5,
        offers: 1,
        payPerHourLow: 25,
        payPerHourHigh: 25,
        takenFirstShare: null,
      },
    ]);
  });

  it('shows no figure with fewer drivers behind it than the threshold', async () => {
    const figures = await read();
    expect(figures.every((f) => f.drivers >= INSIGHT_MIN_DRIVERS)).toBe(true);
    expect(figures.some((f) => f.station === 'DHO2')).toBe(false);
    const stricter = await readStationInsight(test.db, {
      stations: STATIONS,
      from: NOW - 28 * 24 * HOUR,
      to: NOW,
      minDrivers: 6,
    });
    expect(stricter.map((f) => f.station)).toEqual(['DAU1']);
  });
});
