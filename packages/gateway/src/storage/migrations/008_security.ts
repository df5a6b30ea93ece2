// Security counters shared by every gateway process (code guesses, password failures and locks,
// texts sent, HTTP rate limits); a sign-in challenge for an unknown user (no account); and the
// phone number a verification code will move an account to once it is entered.
export default `
CREATE TABLE security_counters (
  key text PRIMARY KEY,
  count integer NOT NULL,
  window_end bigint NOT NULL
);

CREATE INDEX security_counters_window_end ON security_counters (window_end);

ALTER TABLE identity_challenges ALTER COLUMN account_id DROP NOT NULL;

ALTER TABLE identity_codes ADD COLUMN pending_phone text;
`;
