// Lanes: codes and alerts are claimed before invitations and marketing whatever their queue time,
// and marketing takes only its share of a sender's pace, so an alert queued during a big marketing
// send goes out next instead of behind the backlog.
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import { parseConfig } from '../src/config.js';
import { createMessaging } from '../src/messaging/index.js';
import { openDatabase } from '../src/storage/db.js';
import {
  OWNER,
  openTestDb,
  POSTGRES_URL,
  phoneNumbers,
  sendAsOwner,
  startMessagingServer,
  waitForJob,
  withOwner,
} from './messaging-harness.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const ALERT_TO = '+15559990002';

describe('message lanes on PostgreSQL with two gateways', () => {
  it('an alert queued during a 1,000-recipient marketing send reaches the provider before the marketing backlog', async () => {
    const testDb = await openTestDb('postgres');
    cleanups.push(() => testDb.close());
    await withOwner(testDb, { can_send_multi_segment: true });
    const other = await openDatabase({
      kind: 'postgres',
      url: POSTGRES_URL,
      schema: testDb.schema!,
    });
    cleanups.push(() => other.close());
    const RATE = 50;
    const server = await startMessagingServer(testDb.db, { config: { sendRate: RATE } });
    cleanups.push(() => server.close());
    const second = createMessaging({
      db: other,
      // Consent and the cap off, as on the first gateway: the numbers are made up.
      config: parseConfig({
        sendRate: RATE,
        logLevel: 'silent',
        quietHours: false,
        marketingConsent: false,
        marketingWeeklyCap: 0,
      }),
      log: server.app.log,
    });
    second.start();
    cleanups.push(() => second.stop());

    const marketing = await sendAsOwner(server.url, phoneNumbers(1000));
    expect(marketing.queued).toBe(1000);
    // The marketing send is under way (both workers hold batches) before the alert is queued.
    await eventually(async () => expect(await outboxCount(testDb.db)).toBeGreaterThanOrEqual(20));
    const alert = await second.enqueue({
      createdBy: OWNER,
      key: 'alert:throttle:1',
      to: ALERT_TO,
      body: 'You are throttled until 10:05',
      quietHours: false,
    });
    expect(alert.created).toBe(true);
    await waitForJob(testDb.db, alert.jobId!, 30_000);

    const [position] = await testDb.db.query<{ before: number; after: number }>(
      `SELECT count(*) FILTER (WHERE m.id < a.id)::int AS before,
              count(*) FILTER (WHERE m.id > a.id)::int AS after
       FROM outbox_messages m, outbox_messages a
       WHERE a.to_number = $1 AND m.to_number <> $1`,
      [ALERT_TO],
    );
    // Queued by its time it would come after all 1,000; in its lane it follows at most the few
    // batches (10 recipients each at this pace) the two workers had already claimed.
    expect(position!.before).toBeLessThan(100);
    const [left] = await testDb.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM send_recipients
       WHERE job_id = $1 AND status IN ('queued', 'sending')`,
      [marketing.jobId],
    );
    expect(left!.n).toBeGreaterThan(800);

    const classes = await testDb.db.query<{ id: string; message_class: string; lane: number }>(
      `SELECT j.id, j.message_class, min(r.lane)::int AS lane FROM send_jobs j
       JOIN send_recipients r ON r.job_id = j.id GROUP BY j.id, j.message_class`,
    );
    expect(Object.fromEntries(classes.map((c) => [c.id, [c.message_class, c.lane]]))).toEqual({
      [marketing.jobId]: ['marketing', 2],
      [alert.jobId!]: ['alert', 0],
    });
  }, 60_000);

  it('claims codes and alerts first, then invitations, then marketing, whatever their queue time', async () => {
    const testDb = await openTestDb('postgres');
    cleanups.push(() => testDb.close());
    await withOwner(testDb, { can_send_multi_segment: true });
    // Queued while no worker runs, oldest first: marketing, then an invitation, then an alert.
    const server = await startMessagingServer(testDb.db, {
      config: { sendRate: 0 },
      startWorker: false,
    });
    cleanups.push(() => server.close());
    await sendAsOwner(server.url, phoneNumbers(30));
    const invitation = await server.messaging.enqueue({
      createdBy: OWNER,
      key: 'invitation:+15559990003',
      to: '+15559990003',
      body: 'Join me on BlockCatch',
    });
    const alert = await server.messaging.enqueue({
      createdBy: OWNER,
      key: 'alert:block-won:1',
      to: ALERT_TO,
      body: 'You won a block',
      quietHours: false,
    });
    server.messaging.start();
    await waitForJob(testDb.db, alert.jobId!);
    await waitForJob(testDb.db, invitation.jobId!);
    const order = await testDb.db.query<{ to_number: string }>(
      'SELECT to_number FROM outbox_messages ORDER BY id LIMIT 2',
    );
    expect(order.map((r) => r.to_number)).toEqual([ALERT_TO, '+15559990003']);
  });
});

describe('marketing pace', () => {
  it('takes at most 80% of a sender’s pace by default: no second holds more than 16 of 20', async () => {
    const testDb = await openTestDb('pglite');
    cleanups.push(() => testDb.close());
    await withOwner(testDb, { can_send_multi_segment: true });
    const server = await startMessagingServer(testDb.db, { config: { sendRate: 20 } });
    cleanups.push(() => server.close());
    const { jobId } = await sendAsOwner(server.url, phoneNumbers(40));
    await waitForJob(testDb.db, jobId, 30_000);
    const rows = await testDb.db.query<{ created_ts: string }>(
      'SELECT created_ts FROM outbox_messages ORDER BY created_ts',
    );
    const times = rows.map((r) => Number(r.created_ts));
    expect(times).toHaveLength(40);
    expect(busiestSecond(times)).toBeLessThanOrEqual(16);
    expect(busiestSecond(times)).toBeGreaterThanOrEqual(14);
  });
});

async function outboxCount(db: { query<T>(sql: string): Promise<T[]> }): Promise<number> {
  const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox_messages');
  return row!.n;
}

/** The most messages in any one-second window [t, t + 1000 ms) of these delivery times. */
function busiestSecond(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  let first = 0;
  for (let last = 0; last < sorted.length; last++) {
    while (sorted[last]! - sorted[first]! >= 1000) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}
