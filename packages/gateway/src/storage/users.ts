// The users table: both products' rows, read in the shapes the SDK's schemas define.
import { randomUUID } from 'node:crypto';
import type { FlexUser, Product, SignedInUser, SparkUser } from '@blockcatch/sdk';
import { type Db, LONG_READ, type Queryable } from './db.js';
import type { TableRecord, UserRecord } from './user-record.js';
import { decodeUsersPage, USERS_PAGE_TEXT_SQL } from './users-page-text.js';

export type NewUser = Partial<UserRecord> & Pick<UserRecord, 'product' | 'phone_number' | 'name'>;

/** The columns a new row may set, each with the type its array parameter is cast to. */
const COLUMNS = {
  product: 'text',
  phone_number: 'text',
  name: 'text',
  is_admin: 'boolean',
  role: 'text',
  can_see_billing: 'boolean',
  can_send_multi_segment: 'boolean',
  referral: 'text',
  referral_code: 'text',
  human_region: 'text',
  delivery_area: 'text',
  good_standing: 'boolean',
  proxy_installed: 'boolean',
  setup_complete: 'boolean',
  create_date_ts: 'bigint',
  expiration_ts: 'bigint',
  stripe_express_id: 'text',
  status: 'text',
} as const satisfies Partial<Record<keyof UserRecord, 'text' | 'boolean' | 'bigint'>>;

const COLUMN_NAMES = Object.keys(COLUMNS) as Array<keyof typeof COLUMNS>;

const DEFAULTS: Omit<UserRecord, 'id' | 'product' | 'phone_number' | 'name' | 'create_date_ts'> = {
  is_admin: false,
  role: null,
  can_see_billing: false,
  can_send_multi_segment: false,
  referral: null,
  referral_code: null,
  human_region: null,
  delivery_area: null,
  good_standing: false,
  proxy_installed: false,
  setup_complete: false,
  expiration_ts: null,
  stripe_express_id: null,
  status: 'stop',
};

/** Rows per INSERT: the statement's cost is per row past a few thousand, its round trip is not. */
const INSERT_CHUNK_ROWS = 10_000;

/**
 * One statement per chunk, its values passed as one array per column and unnested: bound
 * parameters (19 a row) would cap a statement at 3,000 rows, and a million rows then take minutes.
 */
const INSERT_USERS = `WITH inserted AS (
  INSERT INTO users (id, ${COLUMN_NAMES.join(', ')})
  SELECT * FROM unnest($1::text[], ${COLUMN_NAMES.map((c, i) => `$${i + 2}::${COLUMNS[c]}[]`).join(', ')})
  ON CONFLICT (product, phone_number) DO NOTHING RETURNING 1
) SELECT count(*)::int AS n FROM inserted`;

/**
 * Inserts users (an array or any iterable, read a chunk at a time, so a generator of a million
 * rows never sits in memory); a phone already in the product is left as it is. Resolves with the
 * number of rows inserted.
 */
export async function insertUsers(
  db: Queryable,
  users: Iterable<NewUser>,
  now = Date.now(),
): Promise<number> {
  let inserted = 0;
  const fresh = () => Array.from({ length: COLUMN_NAMES.length + 1 }, (): unknown[] => []);
  let columns = fresh();
  let rows = 0;
  const flush = async () => {
    const result = await db.query<{ n: number }>(INSERT_USERS, columns);
    inserted += result[0]?.n ?? 0;
    columns = fresh();
    rows = 0;
  };
  for (const user of users) {
    const full = { ...DEFAULTS, create_date_ts: now, ...user };
    columns[0]!.push(user.id ?? randomUUID());
    for (let c = 0; c < COLUMN_NAMES.length; c++)
      columns[c + 1]!.push(full[COLUMN_NAMES[c]!] ?? null);
    if (++rows === INSERT_CHUNK_ROWS) await flush();
  }
  if (rows > 0) await flush();
  // As PostgreSQL's autovacuum would after so many new rows, which PGlite never runs: the pages of
  // the users table and of its export are planned on these columns (ensureAnalyzed).
  if (inserted >= ANALYZE_AFTER_ROWS) await analyzeUsers(db);
  return inserted;
}

/** New rows in one insert after which the table's statistics are taken again. */
const ANALYZE_AFTER_ROWS = 10_000;

export async function findUserByPhone(
  db: Queryable,
  product: Product,
  phoneNumber: string,
): Promise<UserRecord | null> {
  const rows = await db.query<UserRecord>(
    'SELECT * FROM users WHERE product = $1 AND phone_number = $2',
    [product, phoneNumber],
  );
  return rows[0] ?? null;
}

export async function listUsers(db: Queryable, product: Product): Promise<UserRecord[]> {
  return db.query<UserRecord>(
    'SELECT * FROM users WHERE product = $1 ORDER BY create_date_ts, id',
    [product],
  );
}

/**
 * Rows per page of the users table's answer (see usersTableItemsChunks). On PGlite a request's
 * query can wait for one page under way, so pages stay small: under the mixed load
 * (`npm run bench:load`), 5,000-row pages built as JSON by the database made the drivers' dashboard
 * wait (p99 682 ms against 307). Read as text, a page of 1,000 takes PGlite a few milliseconds.
 */
const TABLE_JSON_PAGE_ROWS = 1_000;

/**
 * A page's row count and last key, beside its text. Every aggregate of a page is ordered as the page
 * is read (its index's order), so the planner feeds them the rows as they come and sorts nothing;
 * ordered the other way, each page was sorted twice (a third of the time of a 100,000-row build).
 */
const PAGE_TOTALS = `count(*)::int AS rows,
         (array_agg(create_date_ts ORDER BY create_date_ts, id))[count(*)] AS last_created,
         (array_agg(id ORDER BY create_date_ts, id))[count(*)] AS last_id`;

/**
 * A page must be read along the (product, created, id) index, not sorted from every remaining row,
 * and without statistics the planner takes the table for empty and sorts. PGlite never analyzes on
 * its own (PostgreSQL's autovacuum does), so a table never analyzed is, once, on the columns the
 * pages select by: a whole-table ANALYZE of 100,000 users takes about 300 ms, this one about 70.
 * Once analyzed, the planner's estimates follow the table's size.
 */
async function ensureAnalyzed(db: Queryable): Promise<void> {
  const [stats] = await db.query<{ analyzed: boolean }>(
    `SELECT reltuples >= 0 AS analyzed FROM pg_class WHERE oid = 'users'::regclass`,
  );
  if (!stats?.analyzed) await analyzeUsers(db);
}

function analyzeUsers(db: Queryable): Promise<unknown> {
  return db.query('ANALYZE users (product, create_date_ts, id)');
}

/**
 * A product's users table answer, `{"Items":[…]}`, as the text `JSON.stringify` writes for
 * `listUsers(…).map(toFlexUser | toSparkUser)`, in UTF-8 bytes, one piece per page, never joined: a
 * 100,000-user answer (30 MB) then leaves no joined text and second copy behind as garbage. It is
 * built from the pages the export reads (usersTablePages), each page's rows written out on this
 * thread: PGlite built the same JSON itself in about 1.6 times the time, escaping every string in
 * WebAssembly, and one text of the whole table would grow PGlite's memory, which never shrinks, by
 * several times its size. The caller reads the table's version first, so a write between pages
 * only means the next request builds it again.
 */
export async function usersTableItemsChunks(
  db: Db,
  product: Product,
  pageRows = TABLE_JSON_PAGE_ROWS,
): Promise<Buffer[]> {
  const chunks: Buffer[] = [Buffer.from('{"Items":[')];
  for await (const page of usersTablePages(db, product, pageRows)) {
    if (chunks.length > 1) chunks.push(Buffer.from(','));
    const json = Buffer.from(JSON.stringify(page));
    // The page's rows without its brackets: a view of the same bytes.
    chunks.push(json.subarray(1, json.length - 1));
  }
  chunks.push(Buffer.from(']}'));
  return chunks;
}

/**
 * A product's table rows in the table's order, `pageRows` at a time, for answers too large to hold:
 * each page is one keyset query on the (product, created, id) index, so nothing stays open between
 * pages (and no other query waits for more than one page), and the page comes back as one text
 * (users-page-text.ts), because PGlite decodes a row object about ten times slower than it writes
 * the row as text. The query answers the page's last key beside its text, so the next page is asked
 * for before this one is decoded: the database's thread builds it while this thread writes.
 */
export async function* usersTablePages(
  db: Db,
  product: Product,
  pageRows: number,
): AsyncGenerator<Array<FlexUser | SparkUser>> {
  const toRow: (record: TableRecord) => FlexUser | SparkUser =
    product === 'flex' ? toFlexUser : toSparkUser;
  await ensureAnalyzed(db);
  // The page after `after`: the key's two parameters follow the product's.
  const where = (after: [number, string] | null) =>
    `product = $1 ${after ? 'AND (create_date_ts, id) > ($2, $3)' : ''}`;
  const read = (after: [number, string] | null) => {
    const page = db.query<PageAnswer>(
      `SELECT ${USERS_PAGE_TEXT_SQL} AS page, ${PAGE_TOTALS}
       FROM (SELECT * FROM users WHERE ${where(after)}
         ORDER BY create_date_ts, id LIMIT $${after ? 4 : 2}) page`,
      [product, ...(after ?? []), pageRows],
      LONG_READ,
    );
    // Asked for ahead: a consumer that stops early never awaits it, and its failure is not theirs.
    page.catch(() => {});
    return page;
  };
  let after: [number, string] | null = null;
  let next: Promise<PageAnswer[]> | null = read(after);
  while (next) {
    const found: PageAnswer | undefined = (await next)[0];
    const key = after;
    after =
      found !== undefined && found.rows >= pageRows
        ? [Number(found.last_created), found.last_id!]
        : null;
    next = after ? read(after) : null;
    const records =
      decodeUsersPage(found?.page ?? null, found?.rows ?? 0) ??
      // A value holds a separator: this page is read as rows instead, slower but exact. Up to the
      // page's own last key, where the next page starts, not to a count: a row added meanwhile
      // then adds to this page rather than pushing its last row out of the read.
      (await db.query<TableRecord>(
        `SELECT ${PAGE_COLUMNS} FROM users WHERE ${where(key)}
           AND (create_date_ts, id) <= ($${key ? 4 : 2}::bigint, $${key ? 5 : 3}::text)
         ORDER BY create_date_ts, id`,
        [product, ...(key ?? []), found?.last_created, found?.last_id],
        LONG_READ,
      ));
    if (records.length > 0) yield records.map(toRow);
  }
}

/** The columns of a page's rows read as rows. */
const PAGE_COLUMNS = `name, phone_number, referral, good_standing, proxy_installed, setup_complete,
  create_date_ts, expiration_ts, stripe_express_id, status, human_region, delivery_area`;

interface PageAnswer {
  page: string | null;
  rows: number;
  last_created: number | string | null;
  last_id: string | null;
}

/** The Flex users holding any of these phone numbers, as table rows. */
export async function flexUsersByPhone(db: Queryable, phones: string[]): Promise<FlexUser[]> {
  if (phones.length === 0) return [];
  const records = await db.query<UserRecord>(
    `SELECT * FROM users WHERE product = 'flex' AND phone_number = ANY($1::text[])
     ORDER BY create_date_ts, id`,
    [phones],
  );
  return records.map(toFlexUser);
}

export async function countUsers(db: Queryable): Promise<number> {
  const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
  return rows[0]?.n ?? 0;
}

/** Resellers are paid out through a Stripe Express account, or hold the reseller role. */
export function isReseller(user: UserRecord): boolean {
  return user.stripe_express_id !== null || user.role === 'reseller';
}

export function toSignedInUser(record: UserRecord): SignedInUser {
  return {
    name: record.name,
    phoneNumber: record.phone_number,
    isAdmin: record.is_admin,
    proxyInstalled: record.proxy_installed,
    setupComplete: record.setup_complete,
    goodStanding: record.good_standing,
    role: record.role
      ? {
          role: record.role,
          properties: {
            billingDetails: record.can_see_billing,
            multiSegmentSms: record.can_send_multi_segment,
          },
        }
      : null,
    expirationDateTimestamp: record.expiration_ts,
    reseller: isReseller(record),
  };
}

function rowBase(record: TableRecord) {
  return {
    name: record.name,
    phoneNumber: record.phone_number,
    referral: record.referral,
    goodStanding: record.good_standing,
    proxyInstalled: record.proxy_installed,
    setupComplete: record.setup_complete,
    createDateTimestamp: record.create_date_ts,
    expirationDate:
      record.expiration_ts === null ? null : new Date(record.expiration_ts).toISOString(),
    expirationDateTimestamp: record.expiration_ts,
    stripeExpressId: record.stripe_express_id,
    status: record.status,
  };
}

// The product's own field is set on the row, not spread into a copy of it: the copy cost about
// 3 µs a row, more than a million-row export's every other step on this thread.
export function toFlexUser(record: TableRecord): FlexUser {
  return withField(rowBase(record), 'humanRegion', record.human_region);
}

export function toSparkUser(record: TableRecord): SparkUser {
  return withField(rowBase(record), 'driverOptions', { deliveryArea: record.delivery_area });
}

function withField<T extends object, K extends string, V>(row: T, key: K, value: V) {
  (row as Record<string, unknown>)[key] = value;
  return row as T & Record<K, V>;
}

/**
 * The referral codes known to the users table: codes users own and codes they signed up with,
 * once each, in order (the Send SMS screen's referral filter lists them).
 */
export async function listReferralCodes(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ code: string }>(
    `SELECT code FROM (
       SELECT referral_code AS code FROM users
       UNION SELECT referral FROM users
     ) codes WHERE code IS NOT NULL AND code <> '' ORDER BY code`,
  );
  return rows.map((r) => r.code);
}

/** Every Flex admin with what the approval page shows of them, owners first, then by name. */
export async function listAdmins(
  db: Queryable,
): Promise<
  { id: string; phoneNumber: string; name: string; owner: boolean; canApprove: boolean }[]
> {
  const rows = await db.query<{
    id: string;
    phone_number: string;
    name: string;
    role: string | null;
    can_approve_sends: boolean;
  }>(
    `SELECT id, phone_number, name, role, can_approve_sends FROM users
     WHERE product = 'flex' AND is_admin ORDER BY role = 'owner' DESC, name, id`,
  );
  return rows.map((r) => ({
    id: r.id,
    phoneNumber: r.phone_number,
    name: r.name,
    owner: r.role === 'owner',
    canApprove: r.role === 'owner' || r.can_approve_sends,
  }));
}

/** Sets an admin's approval permission; answers whether there was such an admin (not an owner). */
export async function setApprovalPermission(
  db: Queryable,
  phoneNumber: string,
  canApprove: boolean,
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `UPDATE users SET can_approve_sends = $2
     WHERE product = 'flex' AND phone_number = $1 AND is_admin AND role IS DISTINCT FROM 'owner'
     RETURNING id`,
    [phoneNumber, canApprove],
  );
  return rows.length > 0;
}

/**
 * Makes a Flex user an admin or takes admin away (never an owner's), answering whether they were
 * one before, or null when no such user (or an owner) has that phone. Taking admin away also takes
 * the approval permission, so that making them an admin again starts without it.
 */
export async function setAdmin(
  db: Queryable,
  phoneNumber: string,
  admin: boolean,
): Promise<{ wasAdmin: boolean; name: string } | null> {
  const rows = await db.query<{ was_admin: boolean; name: string }>(
    `WITH before AS (
       SELECT id, is_admin FROM users
       WHERE product = 'flex' AND phone_number = $1 AND role IS DISTINCT FROM 'owner'
       FOR UPDATE
     )
     UPDATE users u SET is_admin = $2, can_approve_sends = $2 AND u.can_approve_sends
     FROM before WHERE u.id = before.id
     RETURNING before.is_admin AS was_admin, u.name`,
    [phoneNumber, admin],
  );
  const [row] = rows;
  return row ? { wasAdmin: row.was_admin, name: row.name } : null;
}

/** Who may approve a held send, but `except` (the admin who asked): owners and approval admins. */
export async function findApprovers(
  db: Queryable,
  except: string,
): Promise<{ id: string; phoneNumber: string; language: string }[]> {
  const rows = await db.query<{ id: string; phone_number: string; preferred_language: string }>(
    `SELECT id, phone_number, preferred_language FROM users
     WHERE (role = 'owner' OR (is_admin AND can_approve_sends)) AND id <> $1 ORDER BY id`,
    [except],
  );
  return rows.map((r) => ({
    id: r.id,
    phoneNumber: r.phone_number,
    language: r.preferred_language,
  }));
}

/** The owners (role `owner`): who is told when the service itself needs attention. */
export async function findOwners(
  db: Queryable,
): Promise<{ id: string; phoneNumber: string; language: string }[]> {
  const rows = await db.query<{ id: string; phone_number: string; preferred_language: string }>(
    "SELECT id, phone_number, preferred_language FROM users WHERE role = 'owner' ORDER BY id",
  );
  return rows.map((r) => ({
    id: r.id,
    phoneNumber: r.phone_number,
    language: r.preferred_language,
  }));
}
