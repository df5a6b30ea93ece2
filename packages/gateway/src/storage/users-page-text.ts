// A page of the users table as one plain text, for the export: each row's columns joined by the
// unit separator (U+001F), rows by the record separator (U+001E). PGlite writes it in about half
// the time it takes to write the same page as JSON (which escapes every string, character by
// character, in WebAssembly), and on a million users the database's thread, not this one, is the
// export's bottleneck. `concat_ws` leaves NULLs out, so each row starts with a bit mask naming its
// NULL columns.
//
// No value is escaped, so a value may hold a separator. The decoder proves none does: the page must
// split into exactly as many rows as the database counted (a record separator inside a value adds
// one), and each row into exactly its columns (a unit separator adds one). A page that fails is
// read again as rows by the caller. Names cannot hold control characters since they are checked
// on the way in, but older rows and other columns are not relied on.

import type { TableRecord } from './user-record.js';

const UNIT = '\u001f';
const RECORD = '\u001e';

/** The nullable columns, each with its bit in the row's mask. */
const NULLABLE = {
  referral: 1,
  expiration_ts: 2,
  stripe_express_id: 4,
  human_region: 8,
  delivery_area: 16,
} as const;

const MASK_SQL = Object.entries(NULLABLE)
  .map(([column, bit]) => `(${column} IS NULL)::int * ${bit}`)
  .join(' + ');

/** The aggregate writing a page's rows, in the (created, id) order the pages are read in. */
export const USERS_PAGE_TEXT_SQL = `string_agg(concat_ws(E'\\x1f', ${MASK_SQL}, name, phone_number,
  referral, good_standing, proxy_installed, setup_complete, create_date_ts, expiration_ts,
  stripe_express_id, status, human_region, delivery_area), E'\\x1e' ORDER BY create_date_ts, id)`;

/**
 * The page's rows, or null when its text cannot be read unambiguously (a value holds a separator,
 * or a column is not what it should be): the caller then reads the page as rows. `rows` is the
 * database's own count of the page's rows.
 */
export function decodeUsersPage(text: string | null, rows: number): TableRecord[] | null {
  if (text === null) return rows === 0 ? [] : null;
  const lines = text.split(RECORD);
  if (lines.length !== rows) return null;
  const records = new Array<TableRecord>(lines.length);
  for (let r = 0; r < lines.length; r++) {
    const fields = lines[r]!.split(UNIT);
    const mask = Number(fields[0]);
    // Each column present moves `at` on; one left out (NULL) does not.
    let at = 1;
    const name = fields[at++]!;
    const phone = fields[at++]!;
    const referral = mask & NULLABLE.referral ? null : fields[at++]!;
    const good = flag(fields[at++]);
    const proxy = flag(fields[at++]);
    const setup = flag(fields[at++]);
    const created = Number(fields[at++]);
    const expires = mask & NULLABLE.expiration_ts ? null : Number(fields[at++]);
    const stripe = mask & NULLABLE.stripe_express_id ? null : fields[at++]!;
    const status = fields[at++];
    const region = mask & NULLABLE.human_region ? null : fields[at++]!;
    const area = mask & NULLABLE.delivery_area ? null : fields[at++]!;
    if (
      at !== fields.length ||
      !Number.isInteger(mask) ||
      good === null ||
      proxy === null ||
      setup === null ||
      !Number.isFinite(created) ||
      (expires !== null && !Number.isFinite(expires)) ||
      (status !== 'start' && status !== 'stop')
    ) {
      return null;
    }
    records[r] = {
      name,
      phone_number: phone,
      referral,
      good_standing: good,
      proxy_installed: proxy,
      setup_complete: setup,
      create_date_ts: created,
      expiration_ts: expires,
      stripe_express_id: stripe,
      status,
      human_region: region,
      delivery_area: area,
    };
  }
  return records;
}

/** A boolean as PostgreSQL writes it as text. */
function flag(text: string | undefined): boolean | null {
  return text === 't' ? true : text === 'f' ? false : null;
}
