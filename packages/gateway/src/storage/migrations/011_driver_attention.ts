// What keeps a driver from searching besides their flags: a platform link that needs a new code
// (state 'needs-code') and the time the platform throttles polling until. The sandbox's sessions
// expire and carry a refresh token, and the sandbox can ask an account for a new code.
export default `
ALTER TABLE driver_platform_links DROP CONSTRAINT driver_platform_links_state_check;
ALTER TABLE driver_platform_links ADD CONSTRAINT driver_platform_links_state_check
  CHECK (state IN ('pending', 'connected', 'needs-code'));
ALTER TABLE driver_platform_links ADD COLUMN throttled_until_ts bigint;

ALTER TABLE sandbox_platform_sessions ADD COLUMN refresh_hash text;
ALTER TABLE sandbox_platform_sessions ADD COLUMN expires_ts bigint;
CREATE UNIQUE INDEX sandbox_platform_sessions_refresh ON sandbox_platform_sessions (refresh_hash);
ALTER TABLE sandbox_platform_accounts ADD COLUMN code_required boolean NOT NULL DEFAULT false;
`;
