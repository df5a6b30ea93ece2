// A claim is one round trip: the lanes in one statement, alerts first, locking only the rows it
// returns. On PGlite a transaction holds the one connection for each of its round trips (a turn of
// the busy HTTP thread each), and every request's query waits meanwhile, so a delivery batch asks
// what it can together.
import { afterEach, describe, expect, it } from 'vitest';
import { claimDueRecipients } from '../src/storage/send-jobs.js';
import { countingDb } from './helpers/counting-db.js';
import {
  type DbKind,
  OWNER,
  phoneNumbers,
  sendAsOwner,
  startOutboxWorker,
  startRoutesOnly,
  type TestDb,
  waitForJob,
} from './messaging-harness.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const ALERT_TO = '+15559990002';
const INVITED = '+15559990003';

/** Marketing to `marketing` numbers, then an invitation, then an alert: queued oldest first. */
async function queueThreeLanes(kind: DbKind, marketing: number) {
  const { testDb, server, close } = await startRoutesOnly(kind);
  cleanups.push(close);
  const job = await sendAsOwner(server.url, phoneNumbers(marketing));
  await server.messaging.enqueue({
    createdBy: OWNER,
    key: `invitation:${INVITED}`,
    to: INVITED,
    body: 'Join me on BlockCatch',
  });
  await server.messaging.enqueue({
    createdBy: OWNER,
    key: 'alert:block-won:1',
    to: ALERT_TO,
    body: 'You won a block',
    quietHours: false,
  });
  return { testDb, server, jobId: job.jobId };
}

const claimed = (testDb: TestDb, limit: number) =>
  testDb.db.transaction(async (tx) =>
    (await claimDueRecipients(tx, limit, Date.now())).map((r) => r.to),
  );

describe.each<DbKind>(['pglite', 'postgres'])('a claim (%s)', (kind) => {
  it('takes the alert, then the invitation, then marketing, in one round trip', async () => {
    const { testDb } = await queueThreeLanes(kind, 5);
    const { db, counts } = countingDb(testDb.db);
    const first = await db.transaction((tx) => claimDueRecipients(tx, 3, Date.now()));
    expect(first.map((r) => r.to)).toEqual([ALERT_TO, INVITED, phoneNumbers(1)[0]]);
    expect(counts.roundTrips).toEqual([1]);
    // The claim's rows are still due (their transaction ended without marking them): the same
    // order again, and the rest of the marketing after them.
    expect(await claimed(testDb, 10)).toEqual([ALERT_TO, INVITED, ...phoneNumbers(5)]);
  });

  it('delivers a batch in four round trips: claim, skip checks, outbox, recipients', async () => {
    const { testDb, server, jobId } = await queueThreeLanes(kind, 40);
    const { db, counts } = countingDb(testDb.db);
    const worker = startOutboxWorker(db, server);
    cleanups.push(() => worker.stop());
    await waitForJob(testDb.db, jobId);
    const delivered = await testDb.db.query<{ n: number }>(
      'SELECT count(DISTINCT to_number)::int AS n FROM outbox_messages',
    );
    expect(delivered[0]?.n).toBe(42);
    // Every transaction that delivered: the last one may be an empty claim (one round trip).
    const batches = counts.roundTrips.filter((trips) => trips > 1);
    expect(batches.length).toBeGreaterThan(0);
    expect(Math.max(...batches)).toBe(4);
  });
});

describe('claims side by side on PostgreSQL', () => {
  it('a claim filled by the alert and the invitation leaves every marketing row to the next', async () => {
    const { testDb } = await queueThreeLanes('postgres', 30);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let taken!: (rows: string[]) => void;
    const first = new Promise<string[]>((resolve) => {
      taken = resolve;
    });
    const holding = testDb.db.transaction(async (tx) => {
      taken((await claimDueRecipients(tx, 2, Date.now())).map((r) => r.to));
      await held;
    });
    cleanups.push(async () => {
      release();
      await holding;
    });
    expect(await first).toEqual([ALERT_TO, INVITED]);
    // While the first claim's transaction is open, its rows are locked and skipped; a lane it did
    // not need was not read, so none of marketing's rows are locked.
    expect(await claimed(testDb, 100)).toEqual(phoneNumbers(30));
    release();
    await holding;
  });
});
