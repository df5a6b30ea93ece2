// Station insight counts each figure's drivers as the drivers ever seen at that station and hour
// of the week (kept per figure as offers are recorded) less the few seen only outside the window,
// found through indexes, instead of reading every driver's row (docs/architecture.md, "Station
// insight").
export default `
CREATE TABLE station_insight_driver_totals (
  station text NOT NULL,
  hour_of_week smallint NOT NULL,
  drivers integer NOT NULL,
  PRIMARY KEY (station, hour_of_week)
);
INSERT INTO station_insight_driver_totals (station, hour_of_week, drivers)
SELECT station, hour_of_week, count(*) FROM station_insight_drivers GROUP BY 1, 2;

-- Finds the rare rows first seen after the window an insight looks at.
CREATE INDEX station_insight_drivers_by_first_seen ON station_insight_drivers (first_seen);

CREATE OR REPLACE FUNCTION station_insight_rebuild(touched text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  stations text[] := ARRAY(SELECT station FROM station_insight_zones WHERE station = ANY(touched));
BEGIN
  IF cardinality(stations) = 0 THEN RETURN; END IF;
  LOCK TABLE driver_offers IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM station_insight_drivers WHERE station = ANY(stations);
  DELETE FROM station_insight_driver_totals WHERE station = ANY(stations);
  DELETE FROM station_insight_offers WHERE station = ANY(stations);
  DELETE FROM station_insight_accepts WHERE station = ANY(stations);
  INSERT INTO station_insight_drivers (station, hour_of_week, user_id, first_seen, last_seen)
  SELECT o.service_area_id, insight_hour_of_week(o.start_ts, z.zone), o.user_id,
         min(o.seen_ts), max(o.seen_ts)
  FROM driver_offers o JOIN station_insight_zones z ON z.station = o.service_area_id
  WHERE o.service_area_id = ANY(stations) AND o.end_ts > o.start_ts
  GROUP BY 1, 2, 3;
  INSERT INTO station_insight_driver_totals (station, hour_of_week, drivers)
  SELECT station, hour_of_week, count(*) FROM station_insight_drivers
  WHERE station = ANY(stations) GROUP BY 1, 2;
  INSERT INTO station_insight_offers (station, offer_id, hour_of_week, rate, first_seen, last_seen)
  SELECT o.service_area_id, o.offer_id, min(insight_hour_of_week(o.start_ts, z.zone)),
         min(o.pay * 3600000.0 / (o.end_ts - o.start_ts)), min(o.seen_ts), max(o.seen_ts)
  FROM driver_offers o JOIN station_insight_zones z ON z.station = o.service_area_id
  WHERE o.service_area_id = ANY(stations) AND o.end_ts > o.start_ts
  GROUP BY 1, 2;
  INSERT INTO station_insight_accepts (user_id, offer_id, station, hour_of_week, seen_ts, gone)
  SELECT o.user_id, o.offer_id, o.service_area_id, insight_hour_of_week(o.start_ts, z.zone),
         o.seen_ts, o.kind = 'gone'
  FROM driver_offers o JOIN station_insight_zones z ON z.station = o.service_area_id
  WHERE o.service_area_id = ANY(stations) AND o.end_ts > o.start_ts AND o.kind IN ('won', 'gone');
  -- The insight's plan needs the rollups' statistics at once, not at the next autovacuum.
  ANALYZE station_insight_drivers;
  ANALYZE station_insight_driver_totals;
  ANALYZE station_insight_offers;
  ANALYZE station_insight_accepts;
END;
$$;

CREATE OR REPLACE FUNCTION station_insight_add_offers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Ordered by key so that two catchers adding sightings of the same offers cannot deadlock.
  -- A driver new to a figure counts once in its total: a key both add is inserted by one only.
  WITH sighted AS (
    SELECT n.service_area_id AS station, insight_hour_of_week(n.start_ts, z.zone) AS hour_of_week,
           n.user_id, min(n.seen_ts) AS first_seen, max(n.seen_ts) AS last_seen
    FROM new_rows n JOIN station_insight_zones z ON z.station = n.service_area_id
    WHERE n.end_ts > n.start_ts
    GROUP BY 1, 2, 3
  ),
  added AS (
    INSERT INTO station_insight_drivers (station, hour_of_week, user_id, first_seen, last_seen)
    SELECT * FROM sighted ORDER BY 1, 2, 3
    ON CONFLICT (station, hour_of_week, user_id) DO NOTHING
    RETURNING station, hour_of_week
  )
  INSERT INTO station_insight_driver_totals AS t (station, hour_of_week, drivers)
  SELECT station, hour_of_week, count(*) FROM added GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (station, hour_of_week) DO UPDATE SET drivers = t.drivers + excluded.drivers;
  UPDATE station_insight_drivers d
  SET first_seen = least(d.first_seen, s.first_seen), last_seen = greatest(d.last_seen, s.last_seen)
  FROM (
    SELECT n.service_area_id AS station, insight_hour_of_week(n.start_ts, z.zone) AS hour_of_week,
           n.user_id, min(n.seen_ts) AS first_seen, max(n.seen_ts) AS last_seen
    FROM new_rows n JOIN station_insight_zones z ON z.station = n.service_area_id
    WHERE n.end_ts > n.start_ts
    GROUP BY 1, 2, 3
  ) s
  WHERE d.station = s.station AND d.hour_of_week = s.hour_of_week AND d.user_id = s.user_id
    AND (s.first_seen < d.first_seen OR s.last_seen > d.last_seen);
  INSERT INTO station_insight_offers AS f (station, offer_id, hour_of_week, rate, first_seen, last_seen)
  SELECT n.service_area_id, n.offer_id, min(insight_hour_of_week(n.start_ts, z.zone)),
         min(n.pay * 3600000.0 / (n.end_ts - n.start_ts)), min(n.seen_ts), max(n.seen_ts)
  FROM new_rows n JOIN station_insight_zones z ON z.station = n.service_area_id
  WHERE n.end_ts > n.start_ts
  GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (station, offer_id) DO UPDATE
    SET first_seen = least(f.first_seen, excluded.first_seen),
        last_seen = greatest(f.last_seen, excluded.last_seen);
  INSERT INTO station_insight_accepts (user_id, offer_id, station, hour_of_week, seen_ts, gone)
  SELECT n.user_id, n.offer_id, n.service_area_id, insight_hour_of_week(n.start_ts, z.zone),
         n.seen_ts, n.kind = 'gone'
  FROM new_rows n JOIN station_insight_zones z ON z.station = n.service_area_id
  WHERE n.end_ts > n.start_ts AND n.kind IN ('won', 'gone');
  RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION station_insight_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE station_insight_drivers, station_insight_driver_totals, station_insight_offers,
    station_insight_accepts;
  RETURN NULL;
END;
$$;
`;
