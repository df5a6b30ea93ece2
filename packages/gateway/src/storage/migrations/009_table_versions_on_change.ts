// Cached tables' versions move only when a row really changed: a statement that touches no row,
// or rewrites rows with the values they had (the good-standing sweep every minute, a repeated
// save), would otherwise make every gateway rebuild a 100,000-row answer for nothing.
// Transition tables hold the statement's rows; they need one trigger per event.
export default `
CREATE FUNCTION bump_table_version_on_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NOT EXISTS (SELECT 1 FROM new_rows) THEN RETURN NULL; END IF;
  ELSIF TG_OP = 'DELETE' THEN
    IF NOT EXISTS (SELECT 1 FROM old_rows) THEN RETURN NULL; END IF;
  ELSIF TG_OP = 'UPDATE' THEN
    -- Whole rows compared: every column type of these tables has equality.
    IF NOT EXISTS (SELECT * FROM new_rows EXCEPT ALL SELECT * FROM old_rows) THEN RETURN NULL; END IF;
  END IF;
  UPDATE table_versions SET version = version + 1 WHERE name = TG_TABLE_NAME;
  RETURN NULL;
END;
$$;

DROP TRIGGER users_bump_version ON users;
DROP TRIGGER invitations_bump_version ON invitations;

CREATE TRIGGER users_bump_version_insert AFTER INSERT ON users
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bump_table_version_on_change();
CREATE TRIGGER users_bump_version_update AFTER UPDATE ON users
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bump_table_version_on_change();
CREATE TRIGGER users_bump_version_delete AFTER DELETE ON users
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bump_table_version_on_change();
CREATE TRIGGER users_bump_version_truncate AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION bump_table_version();

CREATE TRIGGER invitations_bump_version_insert AFTER INSERT ON invitations
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bump_table_version_on_change();
CREATE TRIGGER invitations_bump_version_update AFTER UPDATE ON invitations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bump_table_version_on_change();
CREATE TRIGGER invitations_bump_version_delete AFTER DELETE ON invitations
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bump_table_version_on_change();
CREATE TRIGGER invitations_bump_version_truncate AFTER TRUNCATE ON invitations
  FOR EACH STATEMENT EXECUTE FUNCTION bump_table_version();
`;
