// Station insight from every driver's recorded offers: per station and hour of the week (on the
// station's clock), the middle half of the pay per hour and how often faster drivers took wanted
// offers first. A figure needs `minDrivers` distinct drivers behind it, so none can be singled out.
// One statement, the same on PGlite and PostgreSQL.
import type { InsightFigure } from '@blockcatch/sdk';
import type { Queryable } from './db.js';

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
