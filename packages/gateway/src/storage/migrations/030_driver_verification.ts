// The platform may ask a driver to complete a check in its own app (a captcha, an identity
// check): the link keeps when it was asked until the driver confirms and the platform agrees.
// The sandbox platform keeps which accounts it asks.
export default `
ALTER TABLE driver_platform_links ADD COLUMN verification_required_ts bigint;
ALTER TABLE sandbox_platform_accounts ADD COLUMN verification_required boolean NOT NULL DEFAULT false;
-- Read with the open offers many times a second: only the few accounts asked are indexed.
CREATE INDEX sandbox_platform_accounts_verifying ON sandbox_platform_accounts (account_id)
  WHERE verification_required;
`;
