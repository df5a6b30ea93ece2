// A version number per cached table, bumped by a statement-level trigger in the writing
// transaction, so every gateway process on the database sees a change with one cheap read.
export default `
CREATE TABLE table_versions (
  name text PRIMARY KEY,
  version bigint NOT NULL DEFAULT 0
);

INSERT INTO table_versions (name, version) VALUES ('users', 0), ('invitations', 0);

CREATE FUNCTION bump_table_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE table_versions SET version = version + 1 WHERE name = TG_TABLE_NAME;
  RETURN NULL;
END;
$$;

CREATE TRIGGER users_bump_version
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION bump_table_version();

CREATE TRIGGER invitations_bump_version
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON invitations
  FOR EACH STATEMENT EXECUTE FUNCTION bump_table_version();
`;
