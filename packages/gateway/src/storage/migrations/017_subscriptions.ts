// Hosted checkout and weekly subscriptions (docs/architecture.md, "Payments"): checkouts the
// gateway opened, the processor's subscription per driver, each webhook event applied once,
// refunds with their reason, billing flags (disputes), referral credit, and the sandbox
// processor's own records (customers, checkouts, subscriptions, events, portal sessions).
export default `
ALTER TABLE payments ADD COLUMN kind text NOT NULL DEFAULT 'one_off'
  CHECK (kind IN ('one_off', 'renewal'));
ALTER TABLE payments ADD COLUMN refunded_weeks integer NOT NULL DEFAULT 0;
ALTER TABLE payments ADD COLUMN receipt_url text;
ALTER TABLE payments DROP CONSTRAINT IF EXISTS payments_amount_cents_check;
ALTER TABLE payments ADD CONSTRAINT payments_amount_cents_check CHECK (amount_cents >= 0);

CREATE TABLE checkouts (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  idempotency_key text NOT NULL,
  provider text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('subscription', 'payment')),
  weeks integer NOT NULL CHECK (weeks BETWEEN 1 AND 52),
  amount_cents integer NOT NULL,
  provider_ref text,
  url text,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'complete', 'expired')),
  failure_code text,
  created_ts bigint NOT NULL,
  UNIQUE (user_id, idempotency_key)
);

CREATE TABLE subscriptions (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provider text NOT NULL,
  customer_ref text,
  status text NOT NULL CHECK (status IN ('incomplete', 'active', 'past_due', 'canceled')),
  cancel_at_period_end boolean NOT NULL DEFAULT false,
  current_period_end_ts bigint,
  dunning_attempts integer NOT NULL DEFAULT 0,
  next_retry_ts bigint,
  last_failure_code text,
  failed_since_ts bigint,
  credit_weeks integer NOT NULL DEFAULT 0,
  created_ts bigint NOT NULL,
  canceled_ts bigint
);
CREATE INDEX subscriptions_user ON subscriptions (user_id, created_ts DESC);

CREATE TABLE billing_customers (
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provider text NOT NULL,
  customer_ref text NOT NULL,
  PRIMARY KEY (user_id, provider)
);

CREATE TABLE webhook_events (
  provider text NOT NULL,
  id text NOT NULL,
  type text NOT NULL,
  received_ts bigint NOT NULL,
  PRIMARY KEY (provider, id)
);

CREATE TABLE refunds (
  id text PRIMARY KEY,
  payment_id text NOT NULL REFERENCES payments (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  weeks integer NOT NULL CHECK (weeks > 0),
  amount_cents integer NOT NULL,
  reason text NOT NULL,
  refunded_by text NOT NULL,
  provider_ref text,
  created_ts bigint NOT NULL
);
CREATE INDEX refunds_created ON refunds (created_ts);

CREATE TABLE billing_flags (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('dispute')),
  payment_id text,
  reason text NOT NULL,
  amount_cents integer NOT NULL,
  created_ts bigint NOT NULL
);

CREATE TABLE billing_credits (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  weeks integer NOT NULL,
  pushed boolean NOT NULL DEFAULT false,
  created_ts bigint NOT NULL
);

ALTER TABLE sandbox_card_charges ADD COLUMN payment_intent text;
ALTER TABLE sandbox_card_charges ADD COLUMN refunded_cents integer NOT NULL DEFAULT 0;

CREATE TABLE sandbox_customers (
  id text PRIMARY KEY,
  email text,
  card_kind text,
  card_last4 text,
  balance_cents integer NOT NULL DEFAULT 0,
  created_ts bigint NOT NULL
);

CREATE TABLE sandbox_checkouts (
  id text PRIMARY KEY,
  customer text NOT NULL,
  mode text NOT NULL,
  amount_cents integer NOT NULL,
  description text NOT NULL,
  locale text NOT NULL,
  metadata text NOT NULL,
  success_url text NOT NULL,
  cancel_url text NOT NULL,
  status text NOT NULL DEFAULT 'open',
  payment_intent text NOT NULL,
  awaiting_card text,
  created_ts bigint NOT NULL
);

CREATE TABLE sandbox_subscriptions (
  id text PRIMARY KEY,
  customer text NOT NULL,
  amount_cents integer NOT NULL,
  metadata text NOT NULL,
  status text NOT NULL,
  cancel_at_period_end boolean NOT NULL DEFAULT false,
  current_period_end_ts bigint NOT NULL,
  open_invoice text,
  attempt_count integer NOT NULL DEFAULT 0,
  next_attempt_ts bigint,
  claimed_until_ts bigint,
  created_ts bigint NOT NULL
);

CREATE TABLE sandbox_invoices (
  id text PRIMARY KEY,
  subscription text NOT NULL,
  customer text NOT NULL,
  total_cents integer NOT NULL,
  amount_paid_cents integer NOT NULL DEFAULT 0,
  status text NOT NULL,
  payment_intent text NOT NULL,
  card_last4 text,
  created_ts bigint NOT NULL,
  paid_ts bigint
);

CREATE TABLE sandbox_events (
  id text PRIMARY KEY,
  payload text NOT NULL,
  delivered boolean NOT NULL DEFAULT false,
  created_ts bigint NOT NULL
);
CREATE INDEX sandbox_events_undelivered ON sandbox_events (created_ts) WHERE NOT delivered;

CREATE TABLE sandbox_portal_sessions (
  id text PRIMARY KEY,
  customer text NOT NULL,
  return_url text NOT NULL,
  locale text NOT NULL,
  expires_ts bigint NOT NULL
);
`;
