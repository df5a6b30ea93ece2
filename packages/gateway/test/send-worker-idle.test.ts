// An idle send worker reads whether anything is due instead of opening a claim's transaction each
// poll: on PGlite a transaction holds the one connection for all its round trips, and every
// request's query waited behind an empty claim five times a second.
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import { countingDb } from './helpers/counting-db.js';
import {
  type DbKind,
  phoneNumbers,
  sendAsOwner,
  startOutboxWorker,
  startRoutesOnly,
  waitForJob,
} from './messaging-harness.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each<DbKind>(['pglite', 'postgres'])('an idle send worker (%s)', (kind) => {
  it('opens no transaction until a recipient is due, then delivers it', async () => {
    // The routes only: the worker under test is the one below.
    const { testDb, server, close } = await startRoutesOnly(kind);
    cleanups.push(close);
    const { db, counts } = countingDb(testDb.db);
    const worker = startOutboxWorker(db, server, 5);
    cleanups.push(() => worker.stop());

    const polls = () => counts.reads + counts.transactions;
    // Nothing queued: twenty polls, each a read.
    await eventually(() => expect(polls()).toBeGreaterThanOrEqual(20));
    expect(counts.transactions).toBe(0);

    // Queued for three days from now: not due, so still no claim.
    const later = await sendAsOwner(server.url, phoneNumbers(1, 100), {
      sendAt: new Date(Date.now() + 3 * 24 * 3600_000).toISOString(),
    });
    expect(later.queued).toBe(1);
    const polled = polls();
    await eventually(() => expect(polls()).toBeGreaterThanOrEqual(polled + 20));
    expect(counts.transactions).toBe(0);

    // Due now: claimed and delivered, once each.
    const now = await sendAsOwner(server.url, phoneNumbers(3));
    await waitForJob(testDb.db, now.jobId, 20_000);
    expect(counts.transactions).toBeGreaterThan(0);
    const delivered = await testDb.db.query<{ to_number: string }>(
      'SELECT to_number FROM outbox_messages ORDER BY to_number',
    );
    expect(delivered.map((row) => row.to_number)).toEqual(phoneNumbers(3));
  });
});
