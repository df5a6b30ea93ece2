// A second pair of eyes: a large send, or an admin's WhatsApp template send (marketing), waits with
// its recipients held until another admin with the approval permission approves it. Owners always
// may; `can_approve_sends` gives the permission to other admins. Settings an owner changes at run
// time (the approval threshold) live in `admin_settings`.
export default `
ALTER TABLE users ADD COLUMN can_approve_sends boolean NOT NULL DEFAULT false;
CREATE TABLE send_approvals (
  job_id text PRIMARY KEY REFERENCES send_jobs (id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
  reason text NOT NULL CHECK (reason IN ('size', 'whatsapp-marketing')),
  requested_by text NOT NULL,
  requested_ts bigint NOT NULL,
  release_ts bigint NOT NULL,
  decided_by text,
  decided_ts bigint,
  note text
);
CREATE INDEX send_approvals_pending ON send_approvals (requested_ts) WHERE status = 'pending';
CREATE TABLE admin_settings (
  name text PRIMARY KEY,
  value jsonb NOT NULL,
  changed_by text NOT NULL,
  changed_ts bigint NOT NULL
);
`;
