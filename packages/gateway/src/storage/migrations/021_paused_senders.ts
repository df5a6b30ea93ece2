// Senders the provider refused our credentials for (Twilio 401 / 20003): their messages wait queued
// and one is tried per probe interval; the first that goes through resumes the sender.
export default `
CREATE TABLE paused_senders (
  sender text PRIMARY KEY,
  reason text NOT NULL,
  paused_ts bigint NOT NULL,
  next_probe_ts bigint NOT NULL
);
`;
