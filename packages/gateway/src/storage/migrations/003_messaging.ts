// Send jobs with one row per recipient, and the numbers that replied STOP: written by the messaging
// module. Recipients waiting for the worker are found through a partial index on their due time.
// send_recipients.job_id has no foreign key: rows are only written with their job, in its
// transaction, and the per-row check cost seconds on a 100,000-recipient send.
export default `
CREATE TABLE send_jobs (
  id text PRIMARY KEY,
  created_by text NOT NULL,
  idempotency_key text NOT NULL,
  request_hash text NOT NULL,
  channel text NOT NULL CHECK (channel IN ('sms', 'whatsapp')),
  body text NOT NULL,
  template jsonb,
  response_status integer NOT NULL,
  response_body jsonb NOT NULL,
  created_ts bigint NOT NULL,
  UNIQUE (created_by, idempotency_key)
);

CREATE TABLE send_recipients (
  job_id text NOT NULL,
  seq integer NOT NULL,
  to_number text NOT NULL,
  status text NOT NULL CHECK (
    status IN ('queued', 'sending', 'sent', 'failed', 'skipped-opted-out', 'skipped-invalid')
  ),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_ts bigint NOT NULL,
  last_error text,
  sent_ts bigint,
  PRIMARY KEY (job_id, seq)
);

CREATE INDEX send_recipients_due ON send_recipients (next_attempt_ts, job_id, seq)
  WHERE status IN ('queued', 'sending');

CREATE TABLE opt_outs (
  phone_number text PRIMARY KEY,
  opted_out_ts bigint NOT NULL
);
`;
