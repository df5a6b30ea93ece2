// Delivery you can see and pace: each recipient keeps its provider message id, delivery status,
// error code, segments, rendered text and template content (content id and variable values); jobs may be scheduled and cancelled; a
// template carries its provider content id and typed variables; senders share one pace through
// sender_pace; numbers a provider called landlines or unknown are skipped; inbound keyword replies are logged once per provider message.
export default `
ALTER TABLE users ADD COLUMN preferred_language text NOT NULL DEFAULT 'en';

CREATE INDEX users_phone_number ON users (phone_number);

ALTER TABLE whatsapp_templates ADD COLUMN content_sid text;
ALTER TABLE whatsapp_templates ADD COLUMN variables jsonb NOT NULL DEFAULT '[]'::jsonb;

ALTER TABLE send_jobs ADD COLUMN send_at_ts bigint;
ALTER TABLE send_jobs ADD COLUMN cancelled_ts bigint;
ALTER TABLE send_jobs ADD COLUMN sender text NOT NULL DEFAULT '';
ALTER TABLE send_jobs ADD COLUMN quiet_hours boolean NOT NULL DEFAULT true;

CREATE INDEX send_jobs_created ON send_jobs (created_ts DESC, id);

ALTER TABLE send_recipients DROP CONSTRAINT send_recipients_status_check;
ALTER TABLE send_recipients ADD CONSTRAINT send_recipients_status_check CHECK (
  status IN ('queued', 'sending', 'sent', 'delivered', 'undelivered', 'failed', 'cancelled',
             'skipped-opted-out', 'skipped-invalid', 'skipped-landline')
);
ALTER TABLE send_recipients ADD COLUMN body text;
ALTER TABLE send_recipients ADD COLUMN variables jsonb;
ALTER TABLE send_recipients ADD COLUMN time_zone text;
ALTER TABLE send_recipients ADD COLUMN segments integer NOT NULL DEFAULT 1;
ALTER TABLE send_recipients ADD COLUMN provider_sid text;
ALTER TABLE send_recipients ADD COLUMN error_code integer;
ALTER TABLE send_recipients ADD COLUMN status_ts bigint;

CREATE INDEX send_recipients_provider_sid ON send_recipients (provider_sid)
  WHERE provider_sid IS NOT NULL;

CREATE TABLE sender_pace (
  sender text PRIMARY KEY,
  next_slot_ms double precision NOT NULL
);

CREATE TABLE undeliverable_numbers (
  phone_number text PRIMARY KEY,
  reason text NOT NULL CHECK (reason IN ('landline', 'invalid')),
  error_code integer NOT NULL,
  reported_ts bigint NOT NULL
);

CREATE TABLE inbound_replies (
  message_sid text PRIMARY KEY,
  from_number text NOT NULL,
  keyword text NOT NULL,
  reply text,
  received_ts bigint NOT NULL
);
`;
