// A message may carry an expiry (a throttle alert until the throttle ends, "block won" until the
// block starts): past it the worker marks the recipient 'expired' instead of sending. Kept beside
// the job, written before it, so the job's own insert is unchanged and no worker can claim the job
// before its expiry is known.
export default `
ALTER TABLE send_recipients DROP CONSTRAINT send_recipients_status_check;
ALTER TABLE send_recipients ADD CONSTRAINT send_recipients_status_check CHECK (
  status IN ('queued', 'sending', 'sent', 'delivered', 'undelivered', 'failed', 'cancelled',
             'expired', 'skipped-opted-out', 'skipped-invalid', 'skipped-landline')
);

CREATE TABLE send_job_expiry (
  job_id text PRIMARY KEY,
  expires_ts bigint NOT NULL
);
`;
