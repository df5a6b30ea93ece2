// A version for sign-in state, bumped by any statement that revokes or deletes a session or
// changes or deletes an account, so every gateway process can keep verified tokens briefly and
// still drop them the moment a user signs out (see http/principal-cache.ts).
export default `
INSERT INTO table_versions (name, version) VALUES ('identity', 0);

CREATE FUNCTION bump_named_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE table_versions SET version = version + 1 WHERE name = TG_ARGV[0];
  RETURN NULL;
END;
$$;

CREATE TRIGGER identity_sessions_bump_version
  AFTER UPDATE OR DELETE OR TRUNCATE ON identity_sessions
  FOR EACH STATEMENT EXECUTE FUNCTION bump_named_version('identity');

CREATE TRIGGER identity_accounts_bump_version
  AFTER UPDATE OR DELETE OR TRUNCATE ON identity_accounts
  FOR EACH STATEMENT EXECUTE FUNCTION bump_named_version('identity');
`;
