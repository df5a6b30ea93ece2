// A scheduled send "at 10:00 in each recipient's time zone": each recipient is due at 10:00 where
// their region is (the product's zone when it is unknown), across three zones and the day the clocks
// go forward; a time already past somewhere, or given with an offset, is refused. The gateway's
// clock is injected, so the dates are the same whatever day the test runs. On PGlite and PostgreSQL.
import { afterEach, describe, expect, it } from 'vitest';
import { insertUsers } from '../src/storage/users.js';
import {
  type DbKind,
  OWNER,
  openTestDb,
  startMessagingServer,
  withOwner,
} from './messaging-harness.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const EAST = '+15558000001';
const CENTRAL = '+15558000002';
const WEST = '+15558000003';
const UNKNOWN = '+15558000004';

async function send(url: string, sendAt: string, localTime = true) {
  return fetch(`${url}/api/flex/v1/admin/sendsms`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-test-user': OWNER,
      'idempotency-key': `local-${sendAt}-${Math.random()}`,
    },
    body: JSON.stringify({
      numbers: [EAST, CENTRAL, WEST, UNKNOWN].map((number) => ({ number })),
      message: 'Good morning: blocks are open',
      sendAt,
      localTime,
    }),
  });
}

/** Each recipient's due time, as ISO, by number. */
async function duesOf(url: string, jobId: string): Promise<Record<string, string>> {
  const response = await fetch(`${url}/api/flex/v1/admin/send-jobs/${jobId}`, {
    headers: { 'x-test-user': OWNER },
  });
  const report = (await response.json()) as { recipients: { to: string; dueAt: number }[] };
  return Object.fromEntries(report.recipients.map((r) => [r.to, new Date(r.dueAt).toISOString()]));
}

describe.each<DbKind>(['pglite', 'postgres'])('sending at a local time (%s)', (kind) => {
  it("sends at 10:00 in each recipient's zone, before and after the clocks go forward", async () => {
    const testDb = await openTestDb(kind);
    cleanups.push(() => testDb.close());
    await withOwner(testDb);
    await insertUsers(testDb.db, [
      { product: 'flex', phone_number: EAST, name: 'Eve East', human_region: 'Miami' },
      { product: 'flex', phone_number: CENTRAL, name: 'Cal Central', human_region: 'Dallas' },
      { product: 'flex', phone_number: WEST, name: 'Wes West', human_region: 'Los Angeles' },
    ]);
    // The week US clocks go forward (Sunday 14 March 2027, 2:00 local).
    let clock = Date.parse('2027-03-12T12:00:00Z');
    const server = await startMessagingServer(testDb.db, {
      config: { sendRate: 0 },
      startWorker: false,
      now: () => clock,
    });
    cleanups.push(() => server.close());

    const saturday = await send(server.url, '2027-03-13T10:00');
    expect(saturday.status).toBe(202);
    const before = (await saturday.json()) as { jobId: string; sendAt: number; queued: number };
    expect(before.queued).toBe(4);
    expect(new Date(before.sendAt).toISOString()).toBe('2027-03-13T15:00:00.000Z');
    expect(await duesOf(server.url, before.jobId)).toEqual({
      [EAST]: '2027-03-13T15:00:00.000Z', // EST, UTC-5
      [CENTRAL]: '2027-03-13T16:00:00.000Z', // CST, UTC-6
      [WEST]: '2027-03-13T18:00:00.000Z', // PST, UTC-8
      [UNKNOWN]: '2027-03-13T15:00:00.000Z', // the product's zone, New York
    });

    const sunday = await send(server.url, '2027-03-14T10:00');
    expect(sunday.status).toBe(202);
    const after = (await sunday.json()) as { jobId: string };
    expect(await duesOf(server.url, after.jobId)).toEqual({
      [EAST]: '2027-03-14T14:00:00.000Z', // EDT, UTC-4
      [CENTRAL]: '2027-03-14T15:00:00.000Z', // CDT, UTC-5
      [WEST]: '2027-03-14T17:00:00.000Z', // PDT, UTC-7
      [UNKNOWN]: '2027-03-14T14:00:00.000Z',
    });

    // At 9:30 in Dallas it is already 10:30 in Miami: 10:00 there has passed, and is refused.
    clock = Date.parse('2027-03-14T14:30:00Z');
    const late = await send(server.url, '2027-03-14T10:00');
    expect(late.status).toBe(400);
    const refusal = (await late.json()) as { code: string; field: string; message: string };
    expect(refusal).toMatchObject({ code: 'validation', field: 'sendAt' });
    expect(refusal.message).toContain('America/New_York');

    // A local time carries no offset: the recipient's zone gives it.
    const offset = await send(server.url, '2027-03-20T10:00:00-05:00');
    expect(offset.status).toBe(400);
    expect(((await offset.json()) as { field: string }).field).toBe('sendAt');
  });
});
