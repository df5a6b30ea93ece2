// The users table's answer, kept row by row by the database itself: each user's item of the
// `Items` array as the JSON text the gateway sends, written by triggers on every insert, update and
// delete of users. Building an item (escaping, the expiration's ISO text) is most of the cost of the
// answer: 100,000 of them took about 570 ms on PGlite at every rebuild, against about 80 ms to join
// items already written. Ordered and indexed as the table's pages are read (docs/operations.md,
// "Memory on PGlite").
export default `
CREATE TABLE users_table_items (
  id text PRIMARY KEY,
  product text NOT NULL,
  create_date_ts bigint NOT NULL,
  item text NOT NULL
);
CREATE INDEX users_table_items_order ON users_table_items (product, create_date_ts, id);

-- Milliseconds since the epoch as Date#toISOString writes them (null stays null). STABLE like
-- to_char, so a query calling it has it inlined.
CREATE FUNCTION epoch_ms_iso(ms bigint) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT to_char('epoch'::timestamp + ms * interval '1 millisecond', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;

-- The same text as JSON.stringify(toFlexUser(row)) or JSON.stringify(toSparkUser(row)), byte for byte.
CREATE FUNCTION users_table_item(u users) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT '{"name":' || to_json(u.name)::text ||
    ',"phoneNumber":' || to_json(u.phone_number)::text ||
    ',"referral":' || coalesce(to_json(u.referral)::text, 'null') ||
    ',"goodStanding":' || u.good_standing::text ||
    ',"proxyInstalled":' || u.proxy_installed::text ||
    ',"setupComplete":' || u.setup_complete::text ||
    ',"createDateTimestamp":' || u.create_date_ts::text ||
    ',"expirationDate":' || coalesce('"' || epoch_ms_iso(u.expiration_ts) || '"', 'null') ||
    ',"expirationDateTimestamp":' || coalesce(u.expiration_ts::text, 'null') ||
    ',"stripeExpressId":' || coalesce(to_json(u.stripe_express_id)::text, 'null') ||
    ',"status":' || to_json(u.status)::text ||
    CASE u.product
      WHEN 'flex' THEN ',"humanRegion":' || coalesce(to_json(u.human_region)::text, 'null')
      ELSE ',"driverOptions":{"deliveryArea":' || coalesce(to_json(u.delivery_area)::text, 'null') || '}'
    END || '}'
$$;

-- Statement triggers with transition tables: a 10,000-row insert writes its items in one statement.
CREATE FUNCTION users_table_items_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM users_table_items WHERE id IN (SELECT id FROM old_rows);
  ELSIF TG_OP = 'TRUNCATE' THEN
    TRUNCATE users_table_items;
  ELSE
    IF TG_OP = 'UPDATE' THEN
      -- A row whose id changed leaves its old item behind otherwise.
      DELETE FROM users_table_items WHERE id IN (SELECT id FROM old_rows EXCEPT SELECT id FROM new_rows);
    END IF;
    INSERT INTO users_table_items (id, product, create_date_ts, item)
      -- From the table itself, where each row has the users type the function takes.
      SELECT u.id, u.product, u.create_date_ts, users_table_item(u) FROM users u
      WHERE u.id IN (SELECT id FROM new_rows)
    ON CONFLICT (id) DO UPDATE SET product = excluded.product,
      create_date_ts = excluded.create_date_ts, item = excluded.item
      WHERE (users_table_items.product, users_table_items.create_date_ts, users_table_items.item)
        IS DISTINCT FROM (excluded.product, excluded.create_date_ts, excluded.item);
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER users_table_items_insert AFTER INSERT ON users
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION users_table_items_write();
CREATE TRIGGER users_table_items_update AFTER UPDATE ON users
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION users_table_items_write();
CREATE TRIGGER users_table_items_delete AFTER DELETE ON users
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION users_table_items_write();
CREATE TRIGGER users_table_items_truncate AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION users_table_items_write();

INSERT INTO users_table_items (id, product, create_date_ts, item)
  SELECT u.id, u.product, u.create_date_ts, users_table_item(u) FROM users u;
`;
