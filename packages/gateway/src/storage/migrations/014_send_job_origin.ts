// Who asked for a send job: an admin's send, or the gateway itself (a driver's invitation to a
// friend, an alert). The admin screens list only the first; the others stay reported per job.
export default `
ALTER TABLE send_jobs ADD COLUMN origin text NOT NULL DEFAULT 'admin'
  CHECK (origin IN ('admin', 'system'));
UPDATE send_jobs SET origin = 'system'
  WHERE idempotency_key LIKE 'invitation:%' OR idempotency_key LIKE 'alert:%';
CREATE INDEX send_jobs_origin_created ON send_jobs (origin, created_ts DESC);
`;
