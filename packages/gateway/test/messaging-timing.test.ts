// When messages go: a scheduled send survives a gateway restart and goes once due, exactly once;
// quiet hours hold a recipient where it is night until 8 am there while one where it is day gets
// the message at once.
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import { openDatabase } from '../src/storage/db.js';
import { insertUsers } from '../src/storage/users.js';
import {
  OWNER,
  openTestDb,
  POSTGRES_URL,
  sendAsOwner,
  startMessagingServer,
  type TestDb,
  waitForJob,
  withOwner,
} from './messaging-harness.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const recipients = (testDb: TestDb, jobId: string) =>
  testDb.db.query<{ to_number: string; status: string; next_attempt_ts: string; attempts: number }>(
    'SELECT to_number, status, next_attempt_ts, attempts FROM send_recipients WHERE job_id = $1 ORDER BY seq',
    [jobId],
  );

const outbox = (testDb: TestDb) =>
  testDb.db.query<{ to_number: string; created_ts: string }>(
    'SELECT to_number, created_ts FROM outbox_messages ORDER BY to_number',
  );

describe('a scheduled send', () => {
  it('survives a gateway restart and is sent by the next gateway once due, exactly once', async () => {
    const testDb = await openTestDb('postgres');
    cleanups.push(() => testDb.close());
    await withOwner(testDb);
    const connect = () =>
      openDatabase({ kind: 'postgres', url: POSTGRES_URL, schema: testDb.schema! });

    // The first gateway accepts the send for 3 s from now, then stops before it is due.
    const firstDb = await connect();
    const first = await startMessagingServer(firstDb);
    const at = Date.now() + 3000;
    const numbers = ['+15550000101', '+15550000102', '+15550000103'];
    const job = await sendAsOwner(first.url, numbers, { sendAt: new Date(at).toISOString() });
    await first.close();
    await firstDb.close();
    expect(job.sendAt).toBe(at);
    const stored = await recipients(testDb, job.jobId);
    expect(stored.map((r) => [r.status, Number(r.next_attempt_ts)])).toEqual(
      numbers.map(() => ['queued', at]),
    );
    expect(await outbox(testDb)).toEqual([]);

    // A new gateway on the same data sends it when the time comes, not before, and only once.
    const secondDb = await connect();
    cleanups.push(() => secondDb.close());
    const second = await startMessagingServer(secondDb);
    cleanups.push(() => second.close());
    await waitForJob(testDb.db, job.jobId, 30_000);
    const delivered = await outbox(testDb);
    expect(delivered.map((m) => m.to_number)).toEqual(numbers);
    for (const m of delivered) expect(Number(m.created_ts)).toBeGreaterThanOrEqual(at);
    const done = await recipients(testDb, job.jobId);
    expect(done.map((r) => [r.status, r.attempts])).toEqual(numbers.map(() => ['delivered', 1]));
  });
});

describe('quiet hours in two time zones', () => {
  it('sends at once where it is day and holds where it is night until 8 am there', async () => {
    const testDb = await openTestDb('postgres');
    cleanups.push(() => testDb.close());
    await withOwner(testDb);
    const day = '+15550000201';
    const night = '+15550000202';
    await insertUsers(testDb.db, [
      { product: 'flex', phone_number: day, name: 'East', human_region: 'New York' },
      { product: 'flex', phone_number: night, name: 'West', human_region: 'Los Angeles' },
    ]);
    // 12:30 UTC in July: 8:30 am in New York, 5:30 am in Los Angeles (8 am there is 15:00 UTC).
    let clock = Date.UTC(2026, 6, 15, 12, 30);
    const losAngeles8am = Date.UTC(2026, 6, 15, 15, 0);
    const server = await startMessagingServer(testDb.db, {
      config: { quietHours: true },
      now: () => clock,
    });
    cleanups.push(() => server.close());

    const before = Date.now();
    const job = await sendAsOwner(server.url, [day, night]);
    // The answer says how many wait, and until when.
    expect(job).toMatchObject({
      queued: 2,
      waitingForQuietHours: 1,
      quietHoursUntil: losAngeles8am,
    });
    await eventually(async () => {
      const rows = await recipients(testDb, job.jobId);
      expect(rows.find((r) => r.to_number === day)?.status).toBe('delivered');
      const held = rows.find((r) => r.to_number === night)!;
      expect(held.status).toBe('queued');
      // Put back until 8 am in Los Angeles: 2.5 hours after the worker looked.
      const wait = losAngeles8am - clock;
      expect(Number(held.next_attempt_ts)).toBeGreaterThanOrEqual(before + wait);
      expect(Number(held.next_attempt_ts)).toBeLessThanOrEqual(Date.now() + wait);
    });
    expect((await outbox(testDb)).map((m) => m.to_number)).toEqual([day]);
    // The job's report says why it is not done: quiet hours, in the held recipient's zone.
    const report = await fetch(`${server.url}/api/flex/v1/admin/send-jobs/${job.jobId}?limit=0`, {
      headers: { 'x-test-user': OWNER },
    });
    expect(await report.json()).toMatchObject({
      done: false,
      waiting: { reason: 'quiet-hours', timeZone: 'America/Los_Angeles' },
    });

    // Morning comes in Los Angeles: the clock reaches 8 am and the held row falls due.
    clock = losAngeles8am;
    await testDb.db.query('UPDATE send_recipients SET next_attempt_ts = $2 WHERE job_id = $1', [
      job.jobId,
      Date.now(),
    ]);
    await waitForJob(testDb.db, job.jobId);
    expect((await outbox(testDb)).map((m) => m.to_number)).toEqual([day, night]);
  });
});
