// Station insight over 1,000 drivers and 30 days of recorded offers on PostgreSQL (goal: under
// 200 ms), beside a floor measured in the same run: counting the same rows by station, which any
// aggregate over them must at least do. The 6 sandbox stations publish 500 offers a day each, every
// offer shown to 10 of the station's 166 drivers: 30 offers a driver a day, 900,000 rows. The
// offers are written before the insight first reads them, so that read rolls them all up once
// (printed apart); the reads timed after it use the rollups.
// Run alone: npx tsx --conditions=source packages/gateway/bench/station-insight.bench.ts
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { INSIGHT_MIN_DRIVERS } from '@blockcatch/sdk';
import { SANDBOX_SERVICE_AREAS } from '../src/platform/service-areas.js';
import { openDatabase } from '../src/storage/db.js';
import { migrate } from '../src/storage/migrate.js';
import { readStationInsight } from '../src/storage/station-insight.js';
import { insertUsers } from '../src/storage/users.js';

const DATABASE_URL =
  process.env.BLOCKCATCH_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DRIVERS = 1000;
const DAYS = 30;
const OFFERS_PER_STATION_PER_DAY = 500;
const SHOWN_TO = 10;
const GOAL_MS = 200;
const RUNS = 7;
const DAY_MS = 86_400_000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

async function timed(run: () => Promise<unknown>): Promise<number> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return median(times);
}

export async function benchStationInsight(): Promise<string[]> {
  const schema = `bench_insight_${randomBytes(4).toString('hex')}`;
  const db = await openDatabase({ kind: 'postgres', url: DATABASE_URL, schema, maxConnections: 2 });
  try {
    await migrate(db);
    await insertUsers(
      db,
      Array.from({ length: DRIVERS }, (_, i) => ({
        product: 'flex' as const,
        phone_number: `+1512${String(5_000_000 + i).padStart(7, '0')}`,
        name: `Bench Driver ${i}`,
      })),
    );
    const ids = (await db.query<{ id: string }>('SELECT id FROM users ORDER BY id')).map(
      (r) => r.id,
    );
    const stations = SANDBOX_SERVICE_AREAS.map((a) => a.id);
    const now = Date.now();
    const perStation = Math.floor(DRIVERS / stations.length);
    // Generated in the database: offer o of day d at station s is shown to 10 of its drivers.
    const started = performance.now();
    await db.query(
      `INSERT INTO driver_offers (user_id, offer_id, kind, reason, service_area_id, start_ts,
         end_ts, pay, seen_ts)
       SELECT ($1::text[])[1 + s * $6 + ((o * 7 + k * 13) % $6)],
              'bench-' || s || '-' || d || '-' || o,
              CASE WHEN k = 0 AND o % 3 = 0 THEN 'gone' WHEN k = 0 AND o % 5 = 0 THEN 'won'
                   ELSE 'disliked' END,
              CASE WHEN k = 0 AND (o % 3 = 0 OR o % 5 = 0) THEN NULL ELSE 'hourly-pay' END,
              ($2::text[])[1 + s],
              seen + 2 * 3600000 + (o % 48) * 900000,
              seen + 2 * 3600000 + (o % 48) * 900000 + (2 + o % 4) * 3600000,
              (2 + o % 4) * (18 + (o * 37 % 17)),
              seen
       FROM generate_series(0, $3 - 1) s, generate_series(0, $4 - 1) d,
            generate_series(0, $5 - 1) o, generate_series(0, $7 - 1) k,
            LATERAL (SELECT $8::bigint - (d + 1) * ${DAY_MS}::bigint + o * 172000 AS seen) t`,
      [ids, stations, stations.length, DAYS, OFFERS_PER_STATION_PER_DAY, perStation, SHOWN_TO, now],
    );
    await db.query('ANALYZE driver_offers');
    const [{ n } = { n: 0 }] = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM driver_offers',
    );
    const filled = performance.now() - started;
    const from = now - 28 * DAY_MS;
    let figures = 0;
    const read = async () => {
      figures = (
        await readStationInsight(db, {
          stations: SANDBOX_SERVICE_AREAS,
          from,
          to: now,
          minDrivers: INSIGHT_MIN_DRIVERS,
        })
      ).length;
    };
    const firstStarted = performance.now();
    await read();
    const first = performance.now() - firstStarted;
    const ours = await timed(read);
    const floor = await timed(() =>
      db.query(
        `SELECT service_area_id, count(*) FROM driver_offers
         WHERE seen_ts >= $1 AND seen_ts < $2 GROUP BY service_area_id`,
        [from, now],
      ),
    );
    return [
      `rows: ${n.toLocaleString('en-US')} (${DRIVERS} drivers × ${DAYS} days), filled in ${(filled / 1000).toFixed(1)} s`,
      `first read, rolling up every offer once: ${(first / 1000).toFixed(1)} s`,
      `station insight (median of ${RUNS}): ${ours.toFixed(0)} ms, ${figures} figures — goal < ${GOAL_MS} ms: ${ours < GOAL_MS ? 'met' : 'NOT met'}`,
      `floor, counting the same rows by station: ${floor.toFixed(0)} ms (ours is ${(ours / floor).toFixed(1)}× it)`,
    ];
  } finally {
    await db.query(`DROP SCHEMA "${schema}" CASCADE`).catch(() => {});
    await db.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const line of await benchStationInsight()) console.log(line);
}
