// The streaming users export over HTTP: the same rows the admin table's filters keep, as CSV or
// NDJSON, admins only, bad filters refused with the field named.
import {
  EXPORT_COLUMNS,
  exportRow,
  filterAudience,
  flexUsersResponseSchema,
  searchRecipients,
} from '@blockcatch/sdk';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { ADMIN, DRIVER, OWNER } from './helpers/people.js';

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
    expect(answer.headers['x-total-count']).toBe(String(expected.length));
    const first = exportRow(expected[0]!, TZ);
    expect(lines[1]).toContain(first.phone);
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
