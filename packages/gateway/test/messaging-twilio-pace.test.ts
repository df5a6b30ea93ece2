// The pace through Twilio when each call takes a while: against a fake Twilio on 127.0.0.1 that
// holds its answers until the test lets them go, the worker keeps claiming and calling at the
// sender's pace while earlier calls are unanswered, and never has more calls open than its bound.
// The pace's figures (per 10 s window, drift) are in bench/send.bench.ts: the receiver sees each
// call a timer's lateness after its slot, which a test must not assert on.
import { createServer, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import { parseConfig } from '../src/config.js';
import { createProvider } from '../src/messaging/providers/index.js';
import { createSendWorker } from '../src/messaging/worker.js';
import {
  openTestDb,
  phoneNumbers,
  sendAsOwner,
  startMessagingServer,
  waitForJob,
  withOwner,
} from './messaging-harness.js';

const SID = 'AC0123456789abcdef';
const TWILIO = {
  accountSid: SID,
  authToken: 'test-auth-token',
  from: '+15550000000',
  statusCallbackUrl: 'https://gateway.example/api/webhooks/twilio/status',
};

/** A fake Twilio that answers only when told: `held` calls wait, `hold = false` answers at once. */
async function startHoldingTwilio() {
  const state = {
    hold: true,
    received: [] as { to: string }[],
    held: [] as ServerResponse[],
    mostOpen: 0,
    open: 0,
  };
  let count = 0;
  const answer = (res: ServerResponse) => {
    count++;
    state.open--;
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ sid: `SM${String(count).padStart(32, '0')}`, status: 'queued' }));
  };
  const server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    state.received.push({ to: new URLSearchParams(raw).get('To') ?? '' });
    state.open++;
    state.mostOpen = Math.max(state.mostOpen, state.open);
    if (state.hold) state.held.push(res);
    else answer(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    state,
    url: `http://127.0.0.1:${address.port}`,
    /** Answers every held call and every later one at once. */
    release() {
      state.hold = false;
      for (const res of state.held.splice(0)) answer(res);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('the pace through Twilio with slow answers', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('keeps calling at the pace while earlier calls are unanswered, each recipient once', async () => {
    const fake = await startHoldingTwilio();
    cleanups.push(fake.close);
    const testDb = await openTestDb('pglite');
    cleanups.push(() => testDb.close());
    await withOwner(testDb);
    const RATE = 30;
    const server = await startMessagingServer(testDb.db, {
      config: {
        sendRate: RATE,
        messageProvider: 'twilio',
        twilio: { ...TWILIO, baseUrl: fake.url },
      },
    });
    cleanups.push(() => server.close());

    // 30/s claims 6 recipients a batch (200 ms of pace): with every answer held, calls beyond the
    // first batch arrive only if the next claim does not wait for the previous batch's answers.
    const { jobId } = await sendAsOwner(server.url, phoneNumbers(45));
    await eventually(() => expect(fake.state.received.length).toBeGreaterThanOrEqual(20));
    expect(fake.state.held.length).toBe(fake.state.received.length);
    fake.release();
    await waitForJob(testDb.db, jobId, 30_000);

    expect(new Set(fake.state.received.map((r) => r.to)).size).toBe(45);
    expect(fake.state.received).toHaveLength(45);
    const rows = await testDb.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM send_recipients WHERE job_id = $1 AND status = 'sent'",
      [jobId],
    );
    expect(rows[0]?.n).toBe(45);
  });

  it('never has more calls open than its bound, and claims no more while that many are unanswered', async () => {
    const fake = await startHoldingTwilio();
    cleanups.push(fake.close);
    const testDb = await openTestDb('pglite');
    cleanups.push(() => testDb.close());
    await withOwner(testDb);
    const server = await startMessagingServer(testDb.db, {
      config: { sendRate: 0, messageProvider: 'twilio', twilio: { ...TWILIO, baseUrl: fake.url } },
      startWorker: false,
    });
    cleanups.push(() => server.close());
    const config = parseConfig({
      logLevel: 'silent',
      seed: false,
      port: 0,
      messageProvider: 'twilio',
      twilio: { ...TWILIO, baseUrl: fake.url },
    });
    const worker = createSendWorker({
      db: testDb.db,
      provider: createProvider(config),
      log: server.app.log,
      rateFor: () => 0,
      productTimeZone: 'UTC',
      batchLimit: 4,
      maxInFlight: 8,
    });
    worker.start();
    cleanups.push(() => worker.stop());

    const { jobId } = await sendAsOwner(server.url, phoneNumbers(30));
    await eventually(() => expect(fake.state.held.length).toBe(8));
    // Claimed and not answered: at most the bound, the rest still queued for any worker.
    const [claimed] = await testDb.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM send_recipients WHERE job_id = $1 AND status = 'sending'",
      [jobId],
    );
    expect(claimed?.n).toBe(8);
    fake.release();
    await waitForJob(testDb.db, jobId, 30_000);
    expect(fake.state.received).toHaveLength(30);
    expect(fake.state.mostOpen).toBe(8);
  });
});
