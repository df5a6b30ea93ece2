// Alerts and offer timelines: which alerts each driver gets and by which channel (every alert on,
// by SMS, while no row exists), and for each offer the catcher decided, the moments of its
// timeline: published by the platform (when it says), decided, accept sent and answered. The first
// sight is `seen_ts`. An alert's once-only key is its send job's idempotency key.
export default `
CREATE TABLE driver_alert_settings (
  user_id text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  settings jsonb NOT NULL,
  updated_ts bigint NOT NULL
);

ALTER TABLE driver_offers ADD COLUMN published_ts bigint;
ALTER TABLE driver_offers ADD COLUMN decided_ts bigint;
ALTER TABLE driver_offers ADD COLUMN accept_sent_ts bigint;
ALTER TABLE driver_offers ADD COLUMN answer_ts bigint;

CREATE INDEX driver_offers_accepts ON driver_offers (user_id, seen_ts DESC)
  WHERE accept_sent_ts IS NOT NULL;
`;
