// Sends through the outbox provider, on PGlite and on PostgreSQL:
// - job creation: a 100,000-recipient POST /sendsms (parse, validate, store job and recipients,
//   reply) against the goal of 1 s, beside a bare one-statement INSERT of the same rows measured
//   in the same run (the floor for storing them);
// - delivery with the rate limit off: recipients a second;
// - paced delivery: a job at the rate limit's setting for BENCH_PACE_SECONDS (default 60), the
//   rate the outbox achieved in each 10 s window (as a reader saw it) and the drift at the end.
// - paced delivery through Twilio (a fake on 127.0.0.1 answering each call after 100–300 ms):
//   BENCH_TWILIO_RATE (default 30) messages a second for BENCH_TWILIO_SECONDS (default 20), the
//   rate the fake received in each 10 s window and the drift of the last call against the goal of
//   no drift (within one slot plus the timer's lateness).
// - lanes: BENCH_ALERTS (default 100) alerts queued one every 100 ms during a 100,000-recipient
//   marketing send at BENCH_SEND_RATE, with two workers (two pools, as two processes) on
//   PostgreSQL and one on PGlite: queue-to-provider p50/p99 (to the slot the outbox stamps) against
//   the goal of p99 < 2 s, beside the same alerts on an idle sender measured in the same run.
// - consent and cap: the same 100,000-recipient job creation with marketing consent and the weekly
//   cap checked (every number consented, each with marketing already queued this week), beside it
//   with both off, in the same run and database.
// Run alone: npx tsx --conditions=source packages/gateway/bench/send.bench.ts (plain `npx tsx` works
// once the SDK is built, as `npm run bench` does). BENCH_SEND_DB=pglite|postgres runs one database,
// BENCH_SEND_ONLY=create|pace|twilio|lanes|consent one part.
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { parseConfig } from '../src/config.js';
import { createMessaging, type Messaging } from '../src/messaging/index.js';
import { type Db, openDatabase } from '../src/storage/db.js';
import { insertUsers } from '../src/storage/users.js';
import {
  type DbKind,
  openTestDb,
  POSTGRES_URL,
  phoneNumbers,
  startMessagingServer,
  waitForJob,
} from '../test/messaging-harness.js';

const RECIPIENTS = 100_000;
const CREATE_GOAL_MS = 1000;
const PACE_RATE = Number(process.env.BENCH_SEND_RATE ?? 100);
const PACE_SECONDS = Number(process.env.BENCH_PACE_SECONDS ?? 60);
const WINDOW_MS = 10_000;
const TWILIO_RATE = Number(process.env.BENCH_TWILIO_RATE ?? 30);
const TWILIO_SECONDS = Number(process.env.BENCH_TWILIO_SECONDS ?? 20);
const TWILIO_SID = 'ACbench';
const ALERTS = Number(process.env.BENCH_ALERTS ?? 100);
const ALERT_GOAL_MS = 2000;
/** Marketing's share of the pace at its default setting. */
const MARKETING_SHARE = 0.8;

async function withOwner(db: Db): Promise<void> {
  await insertUsers(db, [
    {
      id: 'bench-owner',
      product: 'flex',
      phone_number: '+15559990001',
      name: 'Owner',
      is_admin: true,
      role: 'owner',
    },
  ]);
}

async function postSms(url: string, numbers: string[], key: string) {
  const response = await fetch(`${url}/api/flex/v1/admin/sendsms`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-test-user': 'bench-owner',
      'idempotency-key': key,
    },
    body: JSON.stringify({
      numbers: numbers.map((number) => ({ number })),
      message: 'Blocks are open this afternoon.',
    }),
  });
  const answer = (await response.json()) as { jobId: string; queued: number };
  if (response.status !== 202 || answer.queued !== numbers.length) {
    throw new Error(`send was refused: ${response.status} ${JSON.stringify(answer).slice(0, 200)}`);
  }
  return answer;
}

/**
 * The floor: the same rows in one INSERT … SELECT FROM unnest, no checks, no reply. As 'cancelled'
 * rows they skip the partial index the worker claims by; as 'queued' rows (what a send stores) they
 * pay it too, the floor for storing a deliverable job.
 */
async function bareInsert(db: Db, numbers: string[], status: string): Promise<number> {
  const started = performance.now();
  await db.query(
    `INSERT INTO send_recipients (job_id, seq, to_number, status, next_attempt_ts)
     SELECT 'bare', t.seq, t.to_number, $2, 0
     FROM unnest($1::text[]) WITH ORDINALITY AS t(to_number, seq)`,
    [numbers, status],
  );
  const ms = performance.now() - started;
  await db.query("DELETE FROM send_recipients WHERE job_id = 'bare'");
  return ms;
}

async function benchCreateAndDeliver(kind: DbKind): Promise<string[]> {
  const testDb = await openTestDb(kind);
  const { db } = testDb;
  await withOwner(db);
  const server = await startMessagingServer(db, { config: { sendRate: 0 }, startWorker: false });
  try {
    const numbers = phoneNumbers(RECIPIENTS);
    // A warm-up of the same path (JIT, the database's caches), then the measured runs.
    const warm = await postSms(server.url, phoneNumbers(1000, RECIPIENTS), 'warm');
    await db.query("UPDATE send_recipients SET status = 'cancelled' WHERE job_id = $1", [
      warm.jobId,
    ]);
    const floor = await bareInsert(db, numbers, 'cancelled');
    const queuedFloor = await bareInsert(db, numbers, 'queued');
    const created = performance.now();
    const answer = await postSms(server.url, numbers, 'bench');
    const createMs = performance.now() - created;

    const started = performance.now();
    server.messaging.start();
    await waitForJob(db, answer.jobId, 600_000);
    const deliverMs = performance.now() - started;
    const [outbox] = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM outbox_messages',
    );
    if (outbox?.n !== RECIPIENTS) {
      throw new Error(`outbox holds ${outbox?.n}, expected ${RECIPIENTS}`);
    }
    const verdict = createMs < CREATE_GOAL_MS ? 'met' : 'MISSED';
    return [
      `${kind}: job creation of ${RECIPIENTS.toLocaleString('en-US')} recipients (POST /sendsms: parse, validate, store job + recipients, reply)`,
      `  ours ${createMs.toFixed(0)} ms, goal < ${CREATE_GOAL_MS} ms: ${verdict}; floor: bare INSERT … unnest of the same rows ${floor.toFixed(0)} ms (${(createMs / floor).toFixed(1)}× the floor), ${queuedFloor.toFixed(0)} ms as queued rows (with the worker's index)`,
      `${kind}: delivery with the rate limit off: ${(deliverMs / 1000).toFixed(2)} s, ${Math.round(RECIPIENTS / (deliverMs / 1000)).toLocaleString('en-US')} recipients/s`,
    ];
  } finally {
    await server.close();
    await testDb.close();
  }
}

/** Job creation with consent and the weekly cap checked, beside it with both off. */
async function benchConsentCreate(kind: DbKind): Promise<string[]> {
  const testDb = await openTestDb(kind);
  const { db } = testDb;
  await withOwner(db);
  const plain = await startMessagingServer(db, { config: { sendRate: 0 }, startWorker: false });
  const ruled = await startMessagingServer(db, {
    config: { sendRate: 0, marketingConsent: true, marketingWeeklyCap: 3 },
    startWorker: false,
  });
  try {
    const numbers = phoneNumbers(RECIPIENTS);
    await db.query(
      `INSERT INTO marketing_consents (phone_number, consented, method, text_version, words,
         recorded_ts)
       SELECT p, true, 'sign-up', '2026-11', 'Text me BlockCatch offers and news', 0
       FROM unnest($1::text[]) AS t(p)`,
      [phoneNumbers(RECIPIENTS + 1000)],
    );
    // A week's history: one marketing message already queued for every number.
    await postSms(plain.url, numbers, 'history');
    await postSms(ruled.url, phoneNumbers(1000, RECIPIENTS), 'warm');
    const offStarted = performance.now();
    await postSms(plain.url, numbers, 'rules-off');
    const offMs = performance.now() - offStarted;
    const onStarted = performance.now();
    await postSms(ruled.url, numbers, 'rules-on');
    const onMs = performance.now() - onStarted;
    return [
      `${kind}: job creation of ${RECIPIENTS.toLocaleString('en-US')} recipients with consent and the weekly cap checked (each number consented, with marketing queued this week)`,
      `  ours ${onMs.toFixed(0)} ms; baseline: the same job with both off ${offMs.toFixed(0)} ms (${(onMs / offMs).toFixed(2)}×)`,
    ];
  } finally {
    await ruled.close();
    await plain.close();
    await testDb.close();
  }
}

/**
 * A job of exactly PACE_SECONDS at PACE_RATE messages a second: counts what a reader of the outbox
 * sees every 10 s (against the setting) and how far the last message lands from where the pace
 * puts it.
 */
async function benchPace(kind: DbKind): Promise<string[]> {
  const testDb = await openTestDb(kind);
  const { db } = testDb;
  await withOwner(db);
  const server = await startMessagingServer(db, {
    // The pace itself: marketing's share (its own setting) would only scale it.
    config: { sendRate: PACE_RATE, marketingPacePercent: 100 },
    startWorker: false,
  });
  try {
    const total = PACE_RATE * PACE_SECONDS;
    const answer = await postSms(server.url, phoneNumbers(total), 'pace');
    const started = Date.now();
    server.messaging.start();
    // Messages a reader of the outbox saw in each 10 s window, and the last window's own length.
    const windows: { n: number; ms: number }[] = [];
    let seenAt = started;
    let seen = 0;
    let windowStart = started;
    let countAtWindowStart = 0;
    while (seen < total) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const [row] = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM outbox_messages WHERE job_id = $1',
        [answer.jobId],
      );
      const now = Date.now();
      if (row!.n > seen) seenAt = now;
      seen = row!.n;
      while (now >= windowStart + WINDOW_MS) {
        windows.push({ n: seen - countAtWindowStart, ms: WINDOW_MS });
        countAtWindowStart = seen;
        windowStart += WINDOW_MS;
      }
      if (now - started > (PACE_SECONDS + 60) * 1000) throw new Error('paced delivery stalled');
    }
    if (seenAt > windowStart)
      windows.push({ n: seen - countAtWindowStart, ms: seenAt - windowStart });
    await waitForJob(db, answer.jobId);
    const [stamps] = await db.query<{ first: string; last: string }>(
      'SELECT min(created_ts) AS first, max(created_ts) AS last FROM outbox_messages WHERE job_id = $1',
      [answer.jobId],
    );
    // The pace puts message n (from 0) at n / rate seconds after the first.
    const ideal = ((total - 1) / PACE_RATE) * 1000;
    const stampDrift = Number(stamps!.last) - Number(stamps!.first) - ideal;
    const seenDrift = seenAt - started - ideal;
    const perWindow = windows
      .map(({ n, ms }) =>
        ms === WINDOW_MS
          ? (n / (WINDOW_MS / 1000)).toFixed(1)
          : `${((n * 1000) / ms).toFixed(1)} over the last ${(ms / 1000).toFixed(1)} s`,
      )
      .join(', ');
    return [
      `${kind}: paced delivery, ${total.toLocaleString('en-US')} messages at the setting of ${PACE_RATE}/s (${PACE_SECONDS} s)`,
      `  achieved per 10 s window, messages/s as a reader saw them: ${perWindow} (setting ${PACE_RATE})`,
      `  drift of the last message: ${(stampDrift / 1000).toFixed(3)} s by its stamped slot, ${(seenDrift / 1000).toFixed(2)} s as seen (polled every 50 ms, first slot at the start)`,
    ];
  } finally {
    await server.close();
    await testDb.close();
  }
}

/** A fake Twilio answering each call after 100–300 ms; records when each call arrived. */
async function slowTwilio() {
  const arrivals: number[] = [];
  let count = 0;
  const server = createServer(async (req, res) => {
    for await (const _ of req);
    arrivals.push(performance.now());
    setTimeout(
      () => {
        count++;
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ sid: `SM${String(count).padStart(32, '0')}`, status: 'queued' }));
      },
      100 + Math.random() * 200,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    arrivals,
    url: `http://127.0.0.1:${address.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A job of TWILIO_SECONDS at TWILIO_RATE through Twilio whose every answer takes 100–300 ms. */
async function benchTwilioPace(kind: DbKind): Promise<string[]> {
  const testDb = await openTestDb(kind);
  const { db } = testDb;
  await withOwner(db);
  const fake = await slowTwilio();
  const server = await startMessagingServer(db, {
    config: {
      sendRate: TWILIO_RATE,
      marketingPacePercent: 100,
      messageProvider: 'twilio',
      twilio: {
        accountSid: TWILIO_SID,
        authToken: 'bench',
        from: '+15550000000',
        baseUrl: fake.url,
        statusCallbackUrl: 'https://bench.example/api/webhooks/twilio/status',
      },
    },
    startWorker: false,
  });
  try {
    const total = TWILIO_RATE * TWILIO_SECONDS;
    const answer = await postSms(server.url, phoneNumbers(total), 'twilio-pace');
    server.messaging.start();
    await waitForJob(db, answer.jobId, (TWILIO_SECONDS + 120) * 1000);
    const times = fake.arrivals;
    if (times.length !== total) throw new Error(`the fake got ${times.length} calls, not ${total}`);
    const first = times[0]!;
    const perWindow: string[] = [];
    for (let start = first; start < times.at(-1)!; start += WINDOW_MS) {
      const n = times.filter((t) => t >= start && t < start + WINDOW_MS).length;
      const ms = Math.min(WINDOW_MS, times.at(-1)! - start + 1000 / TWILIO_RATE);
      perWindow.push((n / (ms / 1000)).toFixed(1));
    }
    const interval = 1000 / TWILIO_RATE;
    const drift = times.at(-1)! - first - (total - 1) * interval;
    // One slot, plus a timer's usual lateness on a loaded machine.
    const tolerance = interval + 50;
    const verdict = Math.abs(drift) <= tolerance ? 'met' : 'MISSED';
    return [
      `${kind}: paced delivery through Twilio answering in 100–300 ms, ${total.toLocaleString('en-US')} messages at the setting of ${TWILIO_RATE}/s (${TWILIO_SECONDS} s)`,
      `  calls the provider received per 10 s window, per second: ${perWindow.join(', ')} (setting ${TWILIO_RATE})`,
      `  ours: drift of the last call ${(drift / 1000).toFixed(3)} s; floor: 0 s (the pace itself); goal: no drift (within ${(tolerance / 1000).toFixed(3)} s): ${verdict}`,
    ];
  } finally {
    await server.close();
    await fake.close();
    await testDb.close();
  }
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/**
 * Queues `count` alerts one every 100 ms, spread over the workers' gateways; returns each one's
 * queue-to-provider time: from the enqueue call to the slot the outbox stamped it with.
 */
async function alertLatencies(
  db: Db,
  gateways: Messaging[],
  count: number,
  first: number,
): Promise<number[]> {
  const queued = new Map<string, number>();
  const jobs: string[] = [];
  for (let i = 0; i < count; i++) {
    const to = `+1556${String(first + i).padStart(7, '0')}`;
    const at = Date.now();
    const job = await gateways[i % gateways.length]!.enqueue({
      createdBy: 'bench-owner',
      key: `alert:bench:${first + i}`,
      to,
      body: 'You are throttled until 10:05',
      quietHours: false,
    });
    queued.set(to, at);
    jobs.push(job.jobId!);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  for (const job of jobs) await waitForJob(db, job, 120_000);
  const rows = await db.query<{ to_number: string; created_ts: string }>(
    'SELECT to_number, created_ts FROM outbox_messages WHERE to_number = ANY($1::text[])',
    [[...queued.keys()]],
  );
  if (rows.length !== count)
    throw new Error(`${rows.length} of ${count} alerts reached the outbox`);
  return rows.map((r) => Number(r.created_ts) - queued.get(r.to_number)!).sort((a, b) => a - b);
}

async function benchLanes(kind: DbKind): Promise<string[]> {
  const testDb = await openTestDb(kind);
  const { db } = testDb;
  await withOwner(db);
  const server = await startMessagingServer(db, { config: { sendRate: PACE_RATE } });
  const gateways: Messaging[] = [server.messaging];
  let other: Db | null = null;
  if (kind === 'postgres') {
    other = await openDatabase({ kind: 'postgres', url: POSTGRES_URL, schema: testDb.schema! });
    const second = createMessaging({
      db: other,
      config: parseConfig({
        sendRate: PACE_RATE,
        logLevel: 'silent',
        quietHours: false,
        seed: false,
        // As on the first gateway: the marketing numbers are made up.
        marketingConsent: false,
        marketingWeeklyCap: 0,
      }),
      log: server.app.log,
    });
    second.start();
    gateways.push(second);
  }
  try {
    const idle = await alertLatencies(db, gateways, Math.min(ALERTS, 20), 0);
    const answer = await postSms(server.url, phoneNumbers(RECIPIENTS), 'lanes');
    const busy = await alertLatencies(db, gateways, ALERTS, 1000);
    const [left] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM send_recipients
       WHERE job_id = $1 AND status IN ('queued', 'sending')`,
      [answer.jobId],
    );
    const p50 = percentile(busy, 50);
    const p99 = percentile(busy, 99);
    const verdict = p99 < ALERT_GOAL_MS ? 'met' : 'MISSED';
    const byQueueTime = left!.n / (PACE_RATE * MARKETING_SHARE);
    return [
      `${kind}: ${ALERTS} alerts queued during a ${RECIPIENTS.toLocaleString('en-US')}-recipient marketing send at ${PACE_RATE}/s, ${gateways.length} worker(s)`,
      `  ours queue-to-provider p50 ${p50} ms, p99 ${p99} ms, goal p99 < ${ALERT_GOAL_MS} ms: ${verdict}; floor: the same alerts on an idle sender p50 ${percentile(idle, 50)} ms, p99 ${percentile(idle, 99)} ms; claimed by queue time they would wait behind the ${left!.n.toLocaleString('en-US')} marketing recipients still queued (about ${Math.round(byQueueTime)} s at marketing's pace)`,
    ];
  } finally {
    for (const gateway of gateways.slice(1)) await gateway.stop();
    await server.close();
    await other?.close();
    await testDb.close();
  }
}

export async function benchSend(): Promise<string[]> {
  const kinds = (
    process.env.BENCH_SEND_DB ? [process.env.BENCH_SEND_DB] : ['pglite', 'postgres']
  ) as DbKind[];
  const only = process.env.BENCH_SEND_ONLY;
  const lines: string[] = [];
  if (only === undefined || only === 'create')
    for (const kind of kinds) lines.push(...(await benchCreateAndDeliver(kind)));
  if (only === undefined || only === 'pace')
    for (const kind of kinds) lines.push(...(await benchPace(kind)));
  if (only === undefined || only === 'twilio')
    for (const kind of kinds) lines.push(...(await benchTwilioPace(kind)));
  if (only === undefined || only === 'lanes')
    for (const kind of kinds) lines.push(...(await benchLanes(kind)));
  if (only === undefined || only === 'consent')
    for (const kind of kinds) lines.push(...(await benchConsentCreate(kind)));
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const line of await benchSend()) console.log(line);
}
