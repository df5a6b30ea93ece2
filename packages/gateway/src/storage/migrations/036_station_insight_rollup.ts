// Station insight reads small rollups instead of every driver's offers (docs/architecture.md,
// "Station insight"): per station, hour of the week and driver the first and last sighting; per
// station and offer its pay per hour and first and last sighting; every won or gone offer with when
// it was seen. Hours of the week are on the station's clock, so a station is rolled up once its
// time zone is known (station_insight_zones, kept by the insight read); inserts add to the rollups
// as offers are recorded, and the rare delete or update (a driver's account removed) rebuilds the
// stations it touched.
export default `
CREATE TABLE station_insight_zones (
  station text PRIMARY KEY,
  zone text NOT NULL
);

CREATE TABLE station_insight_drivers (
  station text NOT NULL,
  hour_of_week smallint NOT NULL,
  user_id text NOT NULL,
  first_seen bigint NOT NULL,
  last_seen bigint NOT NULL,
  PRIMARY KEY (station, hour_of_week, user_id)
);
-- Finds the rare rows seen again after the window an insight looks at.
CREATE INDEX station_insight_drivers_by_last_seen ON station_insight_drivers (last_seen);

CREATE TABLE station_insight_offers (
  station text NOT NULL,
  offer_id text NOT NULL,
  hour_of_week smallint NOT NULL,
  rate double precision NOT NULL,
  first_seen bigint NOT NULL,
  last_seen bigint NOT NULL,
  PRIMARY KEY (station, offer_id)
);
CREATE INDEX station_insight_offers_by_last_seen ON station_insight_offers (last_seen);

CREATE TABLE station_insight_accepts (
  user_id text NOT NULL,
  offer_id text NOT NULL,
  station text NOT NULL,
  hour_of_week smallint NOT NULL,
  seen_ts bigint NOT NULL,
  gone boolean NOT NULL,
  PRIMARY KEY (user_id, offer_id)
);
CREATE INDEX station_insight_accepts_by_seen ON station_insight_accepts (seen_ts);

-- The hour of the week (0 = Monday 00:00) an offer starts at on a station's clock.
CREATE FUNCTION insight_hour_of_week(start_ts bigint, zone text) RETURNS int LANGUAGE sql STABLE AS $$
  SELECT (extract(isodow FROM to_timestamp(start_ts / 1000.0) AT TIME ZONE zone)::int - 1) * 24
    + extract(hour FROM to_timestamp(start_ts / 1000.0) AT TIME ZONE zone)::int
$$;

-- Rolls the given stations up again from every recorded offer. Inserts wait meanwhile, so none is
-- rolled up twice or missed.
CREATE FUNCTION station_insight_rebuild(touched text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  stations text[] := ARRAY(SELECT station FROM station_insight_zones WHERE station = ANY(touched));
BEGIN
  IF cardinality(stations) = 0 THEN RETURN; END IF;
  LOCK TABLE driver_offers IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM station_insight_drivers WHERE station = ANY(stations);
  DELETE FROM station_insight_offers WHERE station = ANY(stations);
  DELETE FROM station_insight_accepts WHERE station = ANY(stations);
  INSERT INTO station_insight_drivers (station, hour_of_week, user_id, first_seen, last_seen)
  SELECT o.service_area_id, insight_hour_of_week(o.start_ts, z.zone), o.user_id,
         min(o.seen_ts), max(o.seen_ts)
  FROM driver_offers o JOIN station_insight_zones z ON z.station = o.service_area_id
  WHERE o.service_area_id = ANY(stations) AND o.end_ts > o.start_ts
  GROUP BY 1, 2, 3;
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
  ANALYZE station_insight_offers;
  ANALYZE station_insight_accepts;
END;
$$;

-- Records the stations' time zones, rolling up again each station whose zone is new or changed.
CREATE FUNCTION station_insight_follow_zones(stations text[], zones text[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  changed text[];
BEGIN
  SELECT array_agg(s.station) INTO changed
  FROM unnest(stations, zones) AS s(station, zone)
  LEFT JOIN station_insight_zones z ON z.station = s.station
  WHERE z.zone IS DISTINCT FROM s.zone;
  IF changed IS NULL THEN RETURN; END IF;
  INSERT INTO station_insight_zones (station, zone)
  SELECT * FROM unnest(stations, zones)
  ON CONFLICT (station) DO UPDATE SET zone = excluded.zone;
  PERFORM station_insight_rebuild(changed);
END;
$$;

CREATE FUNCTION station_insight_add_offers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Ordered by key so that two catchers adding sightings of the same offers cannot deadlock.
  INSERT INTO station_insight_drivers AS d (station, hour_of_week, user_id, first_seen, last_seen)
  SELECT n.service_area_id, insight_hour_of_week(n.start_ts, z.zone), n.user_id,
         min(n.seen_ts), max(n.seen_ts)
  FROM new_rows n JOIN station_insight_zones z ON z.station = n.service_area_id
  WHERE n.end_ts > n.start_ts
  GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (station, hour_of_week, user_id) DO UPDATE
    SET first_seen = least(d.first_seen, excluded.first_seen),
        last_seen = greatest(d.last_seen, excluded.last_seen);
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

CREATE FUNCTION station_insight_rebuild_touched() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM station_insight_rebuild(ARRAY(SELECT DISTINCT service_area_id FROM old_rows));
  ELSE
    PERFORM station_insight_rebuild(ARRAY(
      SELECT service_area_id FROM old_rows UNION SELECT service_area_id FROM new_rows));
  END IF;
  RETURN NULL;
END;
$$;

CREATE FUNCTION station_insight_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE station_insight_drivers, station_insight_offers, station_insight_accepts;
  RETURN NULL;
END;
$$;

CREATE TRIGGER driver_offers_insight_insert AFTER INSERT ON driver_offers
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION station_insight_add_offers();
CREATE TRIGGER driver_offers_insight_update AFTER UPDATE ON driver_offers
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION station_insight_rebuild_touched();
CREATE TRIGGER driver_offers_insight_delete AFTER DELETE ON driver_offers
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION station_insight_rebuild_touched();
CREATE TRIGGER driver_offers_insight_truncate AFTER TRUNCATE ON driver_offers
  FOR EACH STATEMENT EXECUTE FUNCTION station_insight_clear();
`;
