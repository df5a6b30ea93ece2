// One send, one job: a job's recipients are unique (a re-run with the same key adds only the new
// ones), and the job keeps what it sends (channel, text or template and values, schedule), so a key
// reused for other content is refused naming what changed.
export default `
CREATE UNIQUE INDEX send_recipients_job_number ON send_recipients (job_id, to_number);
ALTER TABLE send_jobs ADD COLUMN content jsonb;
`;
