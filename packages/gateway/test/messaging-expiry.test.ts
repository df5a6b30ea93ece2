// An alert may carry an expiry: once the worker's clock passes it, the recipient is marked expired
// and nothing reaches the provider; an alert still valid, or one without an expiry, is sent.
import { afterEach, describe, expect, it } from 'vitest';
import {
  type DbKind,
  OWNER,
  openTestDb,
  startMessagingServer,
  waitForJob,
  withOwner,
} from './messaging-harness.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const MINUTE = 60_000;

describe.each<DbKind>(['pglite', 'postgres'])('alert expiry (%s)', (kind) => {
  it('marks an alert past its expiry expired and sends the ones still valid', async () => {
    const testDb = await openTestDb(kind);
    cleanups.push(() => testDb.close());
    await withOwner(testDb);
    let clock = Date.parse('2026-03-02T15:00:00Z');
    const server = await startMessagingServer(testDb.db, {
      config: { sendRate: 0 },
      startWorker: false,
      now: () => clock,
    });
    cleanups.push(() => server.close());
    const alert = (key: string, to: string, expiresAt?: number) =>
      server.messaging.enqueue({
        createdBy: OWNER,
        key,
        to,
        body: `Alert ${key}`,
        quietHours: false,
        ...(expiresAt === undefined ? {} : { expiresAt }),
      });
    const throttled = await alert('alert:throttled:1', '+15559990011', clock + 5 * MINUTE);
    const blockWon = await alert('alert:block-won:1', '+15559990012', clock + 60 * MINUTE);
    const noExpiry = await alert('alert:needs-code:1', '+15559990013');

    // The worker first runs 10 minutes later: the throttle is over, the block not yet started.
    clock += 10 * MINUTE;
    server.messaging.start();
    for (const job of [throttled, blockWon, noExpiry]) await waitForJob(testDb.db, job.jobId!);

    const outbox = await testDb.db.query<{ to_number: string }>(
      'SELECT to_number FROM outbox_messages ORDER BY to_number',
    );
    expect(outbox.map((r) => r.to_number)).toEqual(['+15559990012', '+15559990013']);
    const report = await fetch(`${server.url}/api/flex/v1/admin/send-jobs/${throttled.jobId}`, {
      headers: { 'x-test-user': OWNER },
    });
    expect(report.status).toBe(200);
    const body = (await report.json()) as {
      counts: Record<string, number>;
      done: boolean;
      recipients: { status: string }[];
    };
    expect(body.counts.expired).toBe(1);
    expect(body.done).toBe(true);
    expect(body.recipients.map((r) => r.status)).toEqual(['expired']);
  });

  it('a repeated alert keeps its first expiry and leaves no stray one behind', async () => {
    const testDb = await openTestDb(kind);
    cleanups.push(() => testDb.close());
    await withOwner(testDb);
    const clock = Date.parse('2026-03-02T15:00:00Z');
    const server = await startMessagingServer(testDb.db, {
      config: { sendRate: 0 },
      startWorker: false,
      now: () => clock,
    });
    cleanups.push(() => server.close());
    const message = {
      createdBy: OWNER,
      key: 'alert:throttled:2',
      to: '+15559990021',
      body: 'Throttled',
      quietHours: false,
    };
    const first = await server.messaging.enqueue({ ...message, expiresAt: clock + MINUTE });
    const again = await server.messaging.enqueue({ ...message, expiresAt: clock + 9 * MINUTE });
    expect(again.created).toBe(false);
    const rows = await testDb.db.query<{ job_id: string; expires_ts: string }>(
      'SELECT job_id, expires_ts FROM send_job_expiry',
    );
    expect(rows.map((r) => [r.job_id, Number(r.expires_ts)])).toEqual([
      [first.jobId, clock + MINUTE],
    ]);
  });
});
