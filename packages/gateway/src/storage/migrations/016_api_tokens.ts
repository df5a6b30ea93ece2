// Tokens for machines (a cron job's `BLOCKCATCH_TOKEN`): only a SHA-256 of the secret is kept, with
// when it expires, when it was last used and when it was revoked.
export default `
CREATE TABLE api_tokens (
  id text PRIMARY KEY,
  user_id text NOT NULL,
  name text NOT NULL,
  secret_hash text NOT NULL,
  created_ts bigint NOT NULL,
  expires_ts bigint NOT NULL,
  last_used_ts bigint,
  revoked_ts bigint
);
CREATE INDEX api_tokens_user ON api_tokens (user_id, created_ts DESC);
`;
