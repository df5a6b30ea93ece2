// Users of both products, invitations, WhatsApp templates and the message outbox.
export default `
CREATE TABLE users (
  id text PRIMARY KEY,
  product text NOT NULL CHECK (product IN ('flex', 'spark')),
  phone_number text NOT NULL,
  name text NOT NULL,
  is_admin boolean NOT NULL DEFAULT false,
  role text,
  can_see_billing boolean NOT NULL DEFAULT false,
  can_send_multi_segment boolean NOT NULL DEFAULT false,
  referral text,
  referral_code text UNIQUE,
  human_region text,
  delivery_area text,
  good_standing boolean NOT NULL DEFAULT false,
  proxy_installed boolean NOT NULL DEFAULT false,
  setup_complete boolean NOT NULL DEFAULT false,
  create_date_ts bigint NOT NULL,
  expiration_ts bigint,
  stripe_express_id text,
  status text NOT NULL DEFAULT 'stop' CHECK (status IN ('start', 'stop')),
  UNIQUE (product, phone_number)
);

CREATE INDEX users_product_created ON users (product, create_date_ts, id);

CREATE TABLE invitations (
  id bigserial PRIMARY KEY,
  phone_number text NOT NULL,
  normalized_phone text,
  date_invited_ts bigint NOT NULL,
  free_week boolean NOT NULL DEFAULT false,
  referral_code text,
  invited_by text REFERENCES users (id) ON DELETE SET NULL
);

CREATE INDEX invitations_invited ON invitations (date_invited_ts, id);

CREATE TABLE whatsapp_templates (
  id text PRIMARY KEY,
  name text NOT NULL UNIQUE,
  language text NOT NULL,
  components jsonb NOT NULL
);

CREATE TABLE outbox_messages (
  id bigserial PRIMARY KEY,
  channel text NOT NULL CHECK (channel IN ('sms', 'whatsapp')),
  to_number text NOT NULL,
  body text NOT NULL,
  template jsonb,
  job_id text,
  created_ts bigint NOT NULL
);

CREATE INDEX outbox_messages_to ON outbox_messages (to_number, id);
`;
