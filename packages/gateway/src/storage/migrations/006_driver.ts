// The driver service: the sandbox delivery platform's own state (accounts, one-time codes, sessions,
// offers), each driver's link to it, filters, offer records, and the catcher's leases.
// The sandbox_* tables stand for the platform's servers: the gateway reaches them only through
// platform/sandbox.ts, as it would reach a real platform over HTTP.
export default `
CREATE TABLE sandbox_platform_accounts (
  account_id text PRIMARY KEY,
  email text NOT NULL UNIQUE,
  password_hash text NOT NULL,
  phone_number text NOT NULL,
  created_ts bigint NOT NULL
);

CREATE TABLE sandbox_platform_challenges (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES sandbox_platform_accounts (account_id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  expires_ts bigint NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  used boolean NOT NULL DEFAULT false
);

CREATE TABLE sandbox_platform_sessions (
  token_hash text PRIMARY KEY,
  account_id text NOT NULL REFERENCES sandbox_platform_accounts (account_id) ON DELETE CASCADE,
  created_ts bigint NOT NULL
);

CREATE TABLE sandbox_offers (
  id text PRIMARY KEY,
  service_area_id text NOT NULL,
  start_ts bigint NOT NULL,
  end_ts bigint NOT NULL,
  pay double precision NOT NULL,
  created_ts bigint NOT NULL,
  taken_by_others_ts bigint NOT NULL,
  accepted_by text,
  accepted_ts bigint,
  arrived_ts bigint
);

CREATE INDEX sandbox_offers_open ON sandbox_offers (taken_by_others_ts) WHERE accepted_by IS NULL;

CREATE INDEX sandbox_offers_accepted ON sandbox_offers (accepted_by, start_ts) WHERE accepted_by IS NOT NULL;

CREATE TABLE driver_platform_links (
  user_id text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  state text NOT NULL CHECK (state IN ('pending', 'connected')),
  challenge_id text,
  credentials_enc text NOT NULL,
  session_enc text,
  updated_ts bigint NOT NULL
);

CREATE TABLE driver_settings (
  user_id text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  filters jsonb NOT NULL,
  updated_ts bigint NOT NULL
);

CREATE TABLE driver_offers (
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  offer_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('won', 'disliked', 'gone')),
  reason text,
  service_area_id text NOT NULL,
  start_ts bigint NOT NULL,
  end_ts bigint NOT NULL,
  pay double precision NOT NULL,
  seen_ts bigint NOT NULL,
  PRIMARY KEY (user_id, offer_id)
);

CREATE INDEX driver_offers_by_kind ON driver_offers (user_id, kind, seen_ts DESC);

CREATE TABLE driver_leases (
  user_id text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  holder text NOT NULL,
  expires_ts bigint NOT NULL
);

CREATE INDEX driver_leases_holder ON driver_leases (holder, expires_ts);

CREATE TABLE catcher_holders (
  holder text PRIMARY KEY,
  expires_ts bigint NOT NULL
);
`;
