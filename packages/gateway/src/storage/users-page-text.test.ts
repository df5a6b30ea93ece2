// The export's page text read back: every page either decodes to exactly the rows written, or is
// refused (and read again as rows), whatever the values hold. The writer here is concat_ws's own
// rule (NULLs left out) over the same columns as the query; users-export.test.ts checks the query
// itself against rows read one by one on a real database.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TableRecord } from './user-record.js';
import { decodeUsersPage } from './users-page-text.js';

/** What `USERS_PAGE_TEXT_SQL` writes for these rows: the mask, then every column that is not NULL. */
function pageText(records: readonly TableRecord[]): string | null {
  if (records.length === 0) return null;
  return records
    .map((r) => {
      const mask =
        (r.referral === null ? 1 : 0) +
        (r.expiration_ts === null ? 2 : 0) +
        (r.stripe_express_id === null ? 4 : 0) +
        (r.human_region === null ? 8 : 0) +
        (r.delivery_area === null ? 16 : 0);
      const bool = (b: boolean) => (b ? 't' : 'f');
      return [
        String(mask),
        r.name,
        r.phone_number,
        r.referral,
        bool(r.good_standing),
        bool(r.proxy_installed),
        bool(r.setup_complete),
        String(r.create_date_ts),
        r.expiration_ts === null ? null : String(r.expiration_ts),
        r.stripe_express_id,
        r.status,
        r.human_region,
        r.delivery_area,
      ]
        .filter((field) => field !== null)
        .join('\u001f');
    })
    .join('\u001e');
}

// Text that often holds the separators, the NULL mask's digits and PostgreSQL's boolean letters.
const text = fc.string({
  unit: fc.oneof(
    fc.constantFrom('\u001e', '\u001f', '\u001d', 't', 'f', '1', ',', '"'),
    fc.string({ minLength: 1, maxLength: 1 }),
  ),
  maxLength: 6,
});
const record: fc.Arbitrary<TableRecord> = fc.record({
  name: text,
  phone_number: text,
  referral: fc.option(text),
  good_standing: fc.boolean(),
  proxy_installed: fc.boolean(),
  setup_complete: fc.boolean(),
  create_date_ts: fc.integer({ min: 0, max: 4_102_444_800_000 }),
  expiration_ts: fc.option(fc.integer({ min: 0, max: 4_102_444_800_000 })),
  stripe_express_id: fc.option(text),
  status: fc.constantFrom('start' as const, 'stop' as const),
  human_region: fc.option(text),
  delivery_area: fc.option(text),
});
const holdsSeparator = (r: TableRecord) =>
  Object.values(r).some(
    (v) => typeof v === 'string' && (v.includes('\u001e') || v.includes('\u001f')),
  );

describe('decodeUsersPage', () => {
  it('gives back exactly the rows written, or refuses the page', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 8 }), (records) => {
        const decoded = decodeUsersPage(pageText(records), records.length);
        if (decoded !== null) expect(decoded).toEqual(records);
        // Only a separator inside a value makes a page unreadable.
        if (!records.some(holdsSeparator)) expect(decoded).toEqual(records);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses a value forged to look like more rows or more columns', () => {
    const plain: TableRecord = {
      name: 'Ana',
      phone_number: '+13055550105',
      referral: null,
      good_standing: true,
      proxy_installed: false,
      setup_complete: true,
      create_date_ts: 1,
      expiration_ts: null,
      stripe_express_id: null,
      status: 'start',
      human_region: 'Miami',
      delivery_area: null,
    };
    // A name carrying a whole second row: the page splits into one row more than it holds.
    const forgedRow = { ...plain, name: `Ana\u001e${pageText([plain])}` };
    expect(decodeUsersPage(pageText([forgedRow]), 1)).toBeNull();
    // A region carrying a column: its row splits into one column more than it has.
    const forgedColumn = { ...plain, human_region: 'Miami\u001ft' };
    expect(decodeUsersPage(pageText([forgedColumn]), 1)).toBeNull();
    expect(decodeUsersPage(null, 0)).toEqual([]);
    expect(decodeUsersPage(null, 1)).toBeNull();
  });
});
