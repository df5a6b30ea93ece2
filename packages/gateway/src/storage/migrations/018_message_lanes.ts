// Every message has a class, and its recipients a lane the worker claims in order: codes and alerts
// (0) before invitations (1) before marketing (2), whatever their queue time. The class is derived
// when the job row is written (an admin's send is marketing; the gateway's own jobs by their key)
// unless the insert names it; recipients take their job's lane in one statement-level pass, so a
// 100,000-recipient marketing insert costs one check, not a trigger call per row.
export default `
ALTER TABLE send_jobs ADD COLUMN message_class text
  CHECK (message_class IN ('code', 'alert', 'invitation', 'marketing'));

CREATE FUNCTION send_job_message_class() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.message_class IS NULL THEN
    NEW.message_class := CASE
      WHEN NEW.origin = 'admin' THEN 'marketing'
      WHEN NEW.idempotency_key LIKE 'invitation:%' THEN 'invitation'
      WHEN NEW.idempotency_key LIKE 'code:%' THEN 'code'
      ELSE 'alert' END;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER send_jobs_message_class BEFORE INSERT ON send_jobs
  FOR EACH ROW EXECUTE FUNCTION send_job_message_class();

UPDATE send_jobs SET message_class = CASE
  WHEN origin = 'admin' THEN 'marketing'
  WHEN idempotency_key LIKE 'invitation:%' THEN 'invitation'
  WHEN idempotency_key LIKE 'code:%' THEN 'code'
  ELSE 'alert' END;
ALTER TABLE send_jobs ALTER COLUMN message_class SET NOT NULL;

ALTER TABLE send_recipients ADD COLUMN lane smallint NOT NULL DEFAULT 2;

CREATE FUNCTION send_recipients_lane() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE send_recipients r
     SET lane = CASE j.message_class WHEN 'invitation' THEN 1 ELSE 0 END
    FROM (SELECT DISTINCT job_id FROM new_rows) n
    JOIN send_jobs j ON j.id = n.job_id
   WHERE j.message_class <> 'marketing' AND r.job_id = n.job_id;
  RETURN NULL;
END $$;

CREATE TRIGGER send_recipients_lane AFTER INSERT ON send_recipients
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION send_recipients_lane();

UPDATE send_recipients r SET lane = CASE j.message_class WHEN 'invitation' THEN 1 ELSE 0 END
  FROM send_jobs j
 WHERE j.id = r.job_id AND j.message_class <> 'marketing';

DROP INDEX send_recipients_due;
CREATE INDEX send_recipients_due ON send_recipients (lane, next_attempt_ts, job_id, seq)
  WHERE status IN ('queued', 'sending');
`;
