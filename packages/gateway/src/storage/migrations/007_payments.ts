// Weekly payments (one row per Idempotency-Key, whatever the provider answers), the sandbox card
// network's charges, and what referrals need: one invitation per friend per inviter, and when the
// inviter's free week was granted.
export default `
CREATE TABLE payments (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  idempotency_key text NOT NULL,
  request_hash text NOT NULL,
  provider text NOT NULL CHECK (provider IN ('sandbox', 'stripe')),
  provider_ref text,
  weeks integer NOT NULL CHECK (weeks BETWEEN 1 AND 52),
  amount_cents integer NOT NULL CHECK (amount_cents > 0),
  currency text NOT NULL DEFAULT 'usd',
  status text NOT NULL CHECK (status IN ('pending', 'processing', 'succeeded', 'failed')),
  card_last4 text,
  failure_reason text,
  lease_until_ts bigint NOT NULL DEFAULT 0,
  created_ts bigint NOT NULL,
  settled_ts bigint,
  expiration_after_ts bigint,
  UNIQUE (user_id, idempotency_key)
);

CREATE UNIQUE INDEX payments_provider_ref ON payments (provider, provider_ref)
  WHERE provider_ref IS NOT NULL;

CREATE INDEX payments_user_created ON payments (user_id, created_ts);

CREATE INDEX payments_settled ON payments (settled_ts) WHERE status = 'succeeded';

CREATE TABLE sandbox_card_charges (
  id text PRIMARY KEY,
  idempotency_key text NOT NULL UNIQUE,
  amount_cents integer NOT NULL,
  currency text NOT NULL,
  card_last4 text NOT NULL,
  status text NOT NULL CHECK (status IN ('processing', 'succeeded', 'failed')),
  created_ts bigint NOT NULL
);

ALTER TABLE invitations ADD COLUMN free_week_ts bigint;

CREATE UNIQUE INDEX invitations_inviter_phone ON invitations (invited_by, normalized_phone)
  WHERE invited_by IS NOT NULL;

CREATE INDEX invitations_normalized_phone ON invitations (normalized_phone);

CREATE INDEX users_referral ON users (referral) WHERE referral IS NOT NULL;
`;
