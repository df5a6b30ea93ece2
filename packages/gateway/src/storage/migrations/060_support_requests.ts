// Support requests from drivers and staff's answers: the inbox lists open ones oldest first, a
// driver reads their own newest first.
export default `
CREATE TABLE support_requests (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  topic text NOT NULL,
  message text NOT NULL,
  name text NOT NULL,
  phone_number text NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'answered')),
  reply text,
  reply_channel text CHECK (reply_channel IN ('sms', 'app')),
  answered_by text REFERENCES users (id) ON DELETE SET NULL,
  created_ts bigint NOT NULL,
  answered_ts bigint
);
CREATE INDEX support_requests_by_user ON support_requests (user_id, created_ts DESC);
CREATE INDEX support_requests_by_status ON support_requests (status, created_ts);
`;
