// Each driver's private calendar address: only a hash of its secret is kept, so the address is
// shown once when made; making a new one or turning it off revokes the old at once.
export default `
CREATE TABLE driver_calendar_feeds (
  user_id text PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  secret_hash text NOT NULL UNIQUE,
  created_ts bigint NOT NULL
);
`;
