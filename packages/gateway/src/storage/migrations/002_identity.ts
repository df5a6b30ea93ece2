// Identity accounts (Cognito-compatible user pool): SRP verifiers, codes, sign-in challenges,
// refresh-token sessions and the token signing key, all shared by every gateway process.
export default `
CREATE TABLE identity_accounts (
  id text PRIMARY KEY,
  username text NOT NULL UNIQUE,
  status text NOT NULL CHECK (status IN ('UNCONFIRMED', 'CONFIRMED', 'FORCE_CHANGE_PASSWORD')),
  salt text NOT NULL,
  verifier text NOT NULL,
  attributes jsonb NOT NULL,
  sms_mfa boolean NOT NULL DEFAULT false,
  created_ts bigint NOT NULL,
  updated_ts bigint NOT NULL
);

CREATE TABLE identity_codes (
  account_id text NOT NULL REFERENCES identity_accounts (id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('sign_up', 'forgot_password', 'verify_phone', 'sms_mfa')),
  code_hash text NOT NULL,
  expires_ts bigint NOT NULL,
  failed_attempts integer NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, purpose)
);

CREATE TABLE identity_challenges (
  token_hash text PRIMARY KEY,
  account_id text NOT NULL REFERENCES identity_accounts (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('PASSWORD_VERIFIER', 'SMS_MFA', 'NEW_PASSWORD_REQUIRED')),
  data jsonb NOT NULL,
  expires_ts bigint NOT NULL
);

CREATE INDEX identity_challenges_expiry ON identity_challenges (expires_ts);

CREATE TABLE identity_sessions (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES identity_accounts (id) ON DELETE CASCADE,
  refresh_hash text NOT NULL UNIQUE,
  auth_time bigint NOT NULL,
  created_ts bigint NOT NULL,
  expires_ts bigint NOT NULL,
  revoked_ts bigint
);

CREATE INDEX identity_sessions_account ON identity_sessions (account_id);

CREATE TABLE identity_signing_keys (
  id text PRIMARY KEY,
  kid text NOT NULL UNIQUE,
  private_jwk jsonb NOT NULL,
  public_jwk jsonb NOT NULL,
  created_ts bigint NOT NULL
);
`;
