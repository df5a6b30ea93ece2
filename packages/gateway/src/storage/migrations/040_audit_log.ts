// Every staff action, with who, when, what and from which address. Append-only: the triggers refuse
// an UPDATE, DELETE or TRUNCATE whoever asks, so a history cannot be rewritten through the gateway's
// own connection (which owns the table) or any other role short of dropping the table.
export default `
CREATE TABLE audit_events (
  id bigserial PRIMARY KEY,
  ts bigint NOT NULL,
  actor_id text NOT NULL,
  actor_name text NOT NULL,
  actor_phone text NOT NULL,
  action text NOT NULL,
  target text,
  detail jsonb NOT NULL DEFAULT '{}'::jsonb,
  ip text,
  token_id text
);
CREATE INDEX audit_events_ts ON audit_events (ts DESC, id DESC);
CREATE INDEX audit_events_action_ts ON audit_events (action, ts DESC);
CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % is refused', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER audit_events_no_update_delete BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only();
`;
