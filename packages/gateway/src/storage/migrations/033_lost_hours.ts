// Credit for lost hours (docs/product.md): the stretches of time a driver could not be searched
// for through no fault of theirs, the gateway's heartbeat that shows when it was down, and the
// weekly credits, one per driver and week at most (the primary key makes crediting idempotent).
export default `
CREATE TABLE lost_time (
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  reason text NOT NULL CHECK (reason IN ('gateway-down', 'platform-outage', 'throttled')),
  start_ts bigint NOT NULL,
  end_ts bigint NOT NULL CHECK (end_ts > start_ts),
  PRIMARY KEY (user_id, reason, start_ts)
);

-- The weekly job reads the last weeks' stretches only.
CREATE INDEX lost_time_by_end ON lost_time (end_ts);

CREATE TABLE gateway_heartbeat (
  id smallint PRIMARY KEY CHECK (id = 1),
  beat_ts bigint NOT NULL
);

CREATE TABLE lost_hours_credits (
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  week text NOT NULL CHECK (week ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
  minutes integer NOT NULL CHECK (minutes > 0),
  reasons jsonb NOT NULL,
  expiration_after_ts bigint NOT NULL,
  created_ts bigint NOT NULL,
  PRIMARY KEY (user_id, week)
);
`;
