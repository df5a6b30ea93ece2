// Station insight from every driver's recorded offers: per station and hour of the week (on the
// station's clock), the middle half of the pay per hour and how often faster drivers took wanted
// offers first. A figure needs `minDrivers` distinct drivers behind it, so none can be singled out.
// Computed in SQL, the same on PGlite and PostgreSQL, from the rollups migration 036 keeps as
// offers are recorded (docs/architecture.md, "Station insight").
import type { InsightFigure } from '@blockcatch/sdk';
import { LONG_READ, type Queryable } from './db.js';

export async function readStationInsight(
  db: Queryable,
  options: {
    stations: readonly { id: string; timeZone: string }[];
    from: number;
    to: number;
    minDrivers: number;
  },
): Promise<InsightFigure[]> {
  if (options.stations.length === 0) return [];
  // A station named twice counts once, on the first zone given for it.
  const zones = new Map<string, string>();
  for (const s of options.stations) if (!zones.has(s.id)) zones.set(s.id, s.timeZone);
  const stations = [...zones.keys()];
  // Rolls up a station seen for the first time or whose zone changed; otherwise reads one row.
  // One station per call, each a long read: a first rollup over weeks of offers takes seconds,
  // and on PGlite's one connection the short calls waiting (dashboards, polls) go in between.
  for (const [station, zone] of zones) {
    await db.query(
      'SELECT station_insight_follow_zones($1::text[], $2::text[])',
      [[station], [zone]],
      LONG_READ,
    );
  }
  // A rollup row knows the first and last sighting behind it: either inside [from, to) settles it.
  // Only one seen both before `from` and at or after `to` asks the recorded offers, in a branch of
  // its own so that its cost does not weigh on the plan of the rest (OFFSET 0 keeps it a lookup per
  // such row instead of a pass over the whole window). Disjoint branches: a row last seen before
  // `from` cannot be first seen at or after `to`. Quartiles are taken per figure from its
  // rates gathered in an array: a hash of ~1,000 small arrays instead of one sort of every offer.
  const rows = await db.query<{
    station: string;
    hour_of_week: number;
    drivers: number;
    offers: number;
    low: number;
    high: number;
    taken_first: number | null;
  }>(
    `WITH z AS (SELECT * FROM unnest($1::text[], $2::text[]) AS z(station, zone)),
     -- A figure's drivers: every driver ever seen there, less those seen only before or only
     -- after the window (few, through the indexes on first and last sighting).
     outside AS (
       SELECT d.station, d.hour_of_week FROM station_insight_drivers d WHERE d.last_seen < $3
       UNION ALL
       SELECT d.station, d.hour_of_week FROM station_insight_drivers d WHERE d.first_seen >= $4
       UNION ALL
       SELECT d.station, d.hour_of_week
       FROM station_insight_drivers d JOIN z USING (station)
       WHERE d.first_seen < $3 AND d.last_seen >= $4 AND NOT EXISTS (
         SELECT 1 FROM driver_offers o
         WHERE o.user_id = d.user_id AND o.service_area_id = d.station
           AND o.seen_ts >= $3 AND o.seen_ts < $4 AND o.end_ts > o.start_ts
           AND insight_hour_of_week(o.start_ts, z.zone) = d.hour_of_week
         OFFSET 0)
     ),
     outside_counts AS (
       SELECT station, hour_of_week, count(*)::int AS drivers
       FROM outside WHERE station = ANY($1::text[]) GROUP BY station, hour_of_week
     ),
     enough AS (
       SELECT t.station, t.hour_of_week, t.drivers - coalesce(o.drivers, 0) AS drivers
       FROM station_insight_driver_totals t
       LEFT JOIN outside_counts o USING (station, hour_of_week)
       WHERE t.station = ANY($1::text[]) AND t.drivers - coalesce(o.drivers, 0) >= $5
     ),
     taken AS (
       SELECT a.station, a.hour_of_week,
              (count(*) FILTER (WHERE a.gone))::float8 / NULLIF(count(*), 0) AS taken_first
       FROM station_insight_accepts a
       WHERE a.station = ANY($1::text[]) AND a.seen_ts >= $3 AND a.seen_ts < $4
       GROUP BY a.station, a.hour_of_week
     ),
     offers AS (
       SELECT f.station, f.hour_of_week, f.rate
       FROM station_insight_offers f
       WHERE f.station = ANY($1::text[]) AND f.last_seen >= $3
         AND (f.first_seen >= $3 AND f.first_seen < $4 OR f.last_seen < $4)
       UNION ALL
       SELECT f.station, f.hour_of_week, f.rate
       FROM station_insight_offers f
       WHERE f.station = ANY($1::text[]) AND f.first_seen < $3 AND f.last_seen >= $4 AND EXISTS (
         SELECT 1 FROM driver_offers o
         WHERE o.offer_id = f.offer_id AND o.service_area_id = f.station
           AND o.seen_ts >= $3 AND o.seen_ts < $4 AND o.end_ts > o.start_ts
         OFFSET 0)
     ),
     spread AS (
       SELECT station, hour_of_week, count(*)::int AS offers, array_agg(rate) AS rates
       FROM offers GROUP BY station, hour_of_week
     )
     SELECT e.station, e.hour_of_week, e.drivers, t.taken_first, s.offers, q[1] AS low, q[2] AS high
     FROM enough e JOIN spread s USING (station, hour_of_week)
     LEFT JOIN taken t USING (station, hour_of_week)
     CROSS JOIN LATERAL (
       SELECT percentile_cont(ARRAY[0.25, 0.75]) WITHIN GROUP (ORDER BY rate) AS q
       FROM unnest(s.rates) AS rate
     ) p
     ORDER BY e.station, e.hour_of_week`,
    [stations, [...zones.values()], options.from, options.to, options.minDrivers],
    LONG_READ,
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
