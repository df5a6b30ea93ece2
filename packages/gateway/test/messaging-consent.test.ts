// Marketing goes only to numbers with a recorded consent, at most BLOCKCATCH_MARKETING_WEEKLY_CAP
// times in any 7 days, and never to a number that opted out of marketing's sender. The review's
// preview counts each of those before anything is queued, the send skips exactly the same ones,
// and codes and alerts are exempt. On PGlite and PostgreSQL.
import { afterEach, describe, expect, it } from 'vitest';
import { recordConsent } from '../src/storage/marketing-consent.js';
import { optOutOfSender } from '../src/storage/opt-outs.js';
import {
  type DbKind,
  OWNER,
  openTestDb,
  sendAsOwner,
  startMessagingServer,
  waitForJob,
  withOwner,
} from './messaging-harness.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const DAY = 86_400_000;
const CONSENTED = '+15557000001';
const WITHDREW = '+15557000002';
const NEVER_ASKED = '+15557000003';
const STOPPED_MARKETING = '+15557000004';
const AT_CAP = '+15557000005';

interface Preview {
  queued: number;
  skipped: { number: string; reason: string }[];
}

async function preview(url: string, numbers: string[], sendAt?: string): Promise<Preview> {
  const response = await fetch(`${url}/api/flex/v1/admin/send-preview`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-test-user': OWNER },
    body: JSON.stringify({
      channel: 'sms',
      numbers: numbers.map((number) => ({ number })),
      message: 'Blocks are open',
      ...(sendAt ? { sendAt } : {}),
    }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Preview;
}

const consent = (phoneNumber: string, consented: boolean, now: number) => ({
  phoneNumber,
  consented,
  method: 'settings' as const,
  textVersion: '2026-11',
  words: 'Text me BlockCatch offers and news',
  now,
});

describe.each<DbKind>(['pglite', 'postgres'])('marketing consent and weekly cap (%s)', (kind) => {
  it('previews, skips and reports no consent, the weekly cap and a marketing-only STOP', async () => {
    const testDb = await openTestDb(kind);
    cleanups.push(() => testDb.close());
    const { db } = testDb;
    await withOwner(testDb);
    const server = await startMessagingServer(db, {
      config: { sendRate: 0, marketingConsent: true, marketingWeeklyCap: 3 },
      startWorker: false,
    });
    cleanups.push(() => server.close());
    const now = Date.now();
    for (const n of [CONSENTED, WITHDREW, STOPPED_MARKETING, AT_CAP]) {
      await recordConsent(db, consent(n, true, now - 10 * DAY));
    }
    await recordConsent(db, consent(WITHDREW, false, now - DAY));
    // A STOP to the sender marketing goes out from (the outbox here) stops marketing only.
    await optOutOfSender(db, STOPPED_MARKETING, 'outbox', now);
    // Three marketing texts this week already: the cap.
    for (let i = 0; i < 3; i++) {
      expect((await sendAsOwner(server.url, [AT_CAP], { message: `Promo ${i}` })).queued).toBe(1);
    }

    const everyone = [CONSENTED, WITHDREW, NEVER_ASKED, STOPPED_MARKETING, AT_CAP];
    const expected = [
      { number: WITHDREW, reason: 'no-consent' },
      { number: NEVER_ASKED, reason: 'no-consent' },
      { number: STOPPED_MARKETING, reason: 'opted-out' },
      { number: AT_CAP, reason: 'weekly-cap' },
    ];
    const review = await preview(server.url, everyone);
    expect(review.queued).toBe(1);
    expect(review.skipped).toEqual(expected);

    const sent = await sendAsOwner(server.url, everyone);
    expect(sent.queued).toBe(1);
    expect((sent as unknown as Preview).skipped).toEqual(expected);
    const states = await db.query<{ to_number: string; status: string }>(
      'SELECT to_number, status FROM send_recipients WHERE job_id = $1 ORDER BY seq',
      [sent.jobId],
    );
    expect(states.map((r) => r.status)).toEqual([
      'queued',
      'skipped-no-consent',
      'skipped-no-consent',
      'skipped-opted-out',
      'skipped-weekly-cap',
    ]);

    // Alerts are exempt from consent and the cap.
    const alert = await server.messaging.enqueue({
      createdBy: OWNER,
      key: 'alert:throttled:1',
      to: [NEVER_ASKED, AT_CAP],
      body: 'You are throttled until 10:05',
      quietHours: false,
    });
    expect(alert.queued).toBe(2);
  });

  it('counts the cap over any 7 days around the new message, scheduled ones included', async () => {
    const testDb = await openTestDb(kind);
    cleanups.push(() => testDb.close());
    const { db } = testDb;
    await withOwner(testDb);
    const server = await startMessagingServer(db, {
      config: { sendRate: 0, marketingConsent: true, marketingWeeklyCap: 2 },
      startWorker: false,
    });
    cleanups.push(() => server.close());
    await recordConsent(db, consent(CONSENTED, true, Date.now()));
    const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();
    expect((await sendAsOwner(server.url, [CONSENTED], { message: 'A' })).queued).toBe(1);
    expect(
      (await sendAsOwner(server.url, [CONSENTED], { message: 'B', sendAt: inDays(10) })).queued,
    ).toBe(1);
    // Day 5 sits within 7 days of both: a third there would break the cap in some week.
    expect((await preview(server.url, [CONSENTED], inDays(5))).skipped).toEqual([
      { number: CONSENTED, reason: 'weekly-cap' },
    ]);
    // Day 20 is more than 7 days from both.
    const later = await sendAsOwner(server.url, [CONSENTED], { message: 'C', sendAt: inDays(20) });
    expect(later.queued).toBe(1);
  });

  it('skips a recipient whose consent was withdrawn after the send was queued', async () => {
    const testDb = await openTestDb(kind);
    cleanups.push(() => testDb.close());
    const { db } = testDb;
    await withOwner(testDb);
    const server = await startMessagingServer(db, {
      config: { sendRate: 0, marketingConsent: true, marketingWeeklyCap: 3 },
      startWorker: false,
    });
    cleanups.push(() => server.close());
    await recordConsent(db, consent(CONSENTED, true, Date.now() - DAY));
    await recordConsent(db, consent(WITHDREW, true, Date.now() - DAY));
    const job = await sendAsOwner(server.url, [CONSENTED, WITHDREW]);
    expect(job.queued).toBe(2);
    await recordConsent(db, consent(WITHDREW, false, Date.now()));

    server.messaging.start();
    await waitForJob(db, job.jobId);
    const outbox = await db.query<{ to_number: string }>('SELECT to_number FROM outbox_messages');
    expect(outbox.map((r) => r.to_number)).toEqual([CONSENTED]);
    const [withdrawn] = await db.query<{ status: string }>(
      'SELECT status FROM send_recipients WHERE job_id = $1 AND to_number = $2',
      [job.jobId, WITHDREW],
    );
    expect(withdrawn?.status).toBe('skipped-no-consent');
  });
});
