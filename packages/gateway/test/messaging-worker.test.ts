// The send worker: its rate limit, several workers on one database, and a process killed mid-send.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import { parseConfig } from '../src/config.js';
import { createMessaging } from '../src/messaging/index.js';
import { createOutboxProvider } from '../src/messaging/providers/outbox.js';
import { createSendWorker } from '../src/messaging/worker.js';
import { openDatabase } from '../src/storage/db.js';
import {
  type DbKind,
  OWNER,
  openTestDb,
  POSTGRES_URL,
  phoneNumbers,
  startMessagingServer,
  type TestDb,
  waitForJob,
  withOwner,
} from './messaging-harness.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function send(url: string, numbers: string[], key = `k-${Math.random()}`) {
  const response = await fetch(`${url}/api/flex/v1/admin/sendsms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-test-user': OWNER, 'idempotency-key': key },
    body: JSON.stringify({
      numbers: numbers.map((number) => ({ number })),
      message: 'Blocks are open',
    }),
  });
  expect(response.status).toBe(202);
  return (await response.json()) as { jobId: string; queued: number };
}

async function outboxCounts(testDb: TestDb) {
  const [row] = await testDb.db.query<{ total: number; distinct: number }>(
    'SELECT count(*)::int AS total, count(DISTINCT to_number)::int AS distinct FROM outbox_messages',
  );
  return row!;
}

describe.each<DbKind>(['pglite', 'postgres'])('the send worker (%s)', (kind) => {
  it('keeps to 10 messages a second by default: 30 recipients are spread over at least 2.5 s', async () => {
    const testDb = await openTestDb(kind);
    cleanups.push(() => testDb.close());
    await withOwner(testDb, { can_send_multi_segment: true });
    const server = await startMessagingServer(testDb.db);
    cleanups.push(() => server.close());

    const { jobId } = await send(server.url, phoneNumbers(30));
    await waitForJob(testDb.db, jobId, 20_000);

    const rows = await testDb.db.query<{ id: number; created_ts: number }>(
      'SELECT id, created_ts FROM outbox_messages ORDER BY id',
    );
    expect(rows).toHaveLength(30);
    const times = rows.map((r) => r.created_ts);
    for (let i = 1; i < times.length; i++) expect(times[i]!).toBeGreaterThanOrEqual(times[i - 1]!);
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(2500);
    // Each message goes at its own slot: no one-second window holds more than the rate.
    expect(busiestSecond(times)).toBeLessThanOrEqual(10);
  });
});

describe('several workers on one PostgreSQL database', () => {
  it('two gateways deliver 500 recipients exactly once between them', async () => {
    const testDb = await openTestDb('postgres');
    cleanups.push(() => testDb.close());
    await withOwner(testDb, { can_send_multi_segment: true });
    const other = await openDatabase({
      kind: 'postgres',
      url: POSTGRES_URL,
      schema: testDb.schema!,
    });
    cleanups.push(() => other.close());

    const server = await startMessagingServer(testDb.db, { config: { sendRate: 0 } });
    cleanups.push(() => server.close());
    const second = createMessaging({
      db: other,
      // Consent and the cap off, as on the first gateway: the numbers are made up.
      config: parseConfig({
        sendRate: 0,
        logLevel: 'silent',
        quietHours: false,
        marketingConsent: false,
        marketingWeeklyCap: 0,
      }),
      log: server.app.log,
    });
    second.start();
    cleanups.push(() => second.stop());

    const jobs = await Promise.all([
      send(server.url, phoneNumbers(250, 0)),
      send(server.url, phoneNumbers(250, 250)),
    ]);
    for (const job of jobs) await waitForJob(testDb.db, job.jobId);
    expect(await outboxCounts(testDb)).toEqual({ total: 500, distinct: 500 });
    const [sent] = await testDb.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM send_recipients WHERE status = 'delivered' AND attempts = 1",
    );
    expect(sent?.n).toBe(500);
  });

  it('two gateways sharing one sender’s pace never exceed it together in any one-second window', async () => {
    const testDb = await openTestDb('postgres');
    cleanups.push(() => testDb.close());
    await withOwner(testDb, { can_send_multi_segment: true });
    const other = await openDatabase({
      kind: 'postgres',
      url: POSTGRES_URL,
      schema: testDb.schema!,
    });
    cleanups.push(() => other.close());

    const RATE = 20;
    const server = await startMessagingServer(testDb.db, { config: { sendRate: RATE } });
    cleanups.push(() => server.close());
    // The second process's worker, counting what it delivers so the test knows both took part.
    const outbox = createOutboxProvider();
    let bySecond = 0;
    const second = createSendWorker({
      db: other,
      provider: {
        ...outbox,
        deliverBatch: (tx, messages) => {
          bySecond += messages.length;
          return outbox.deliverBatch(tx, messages);
        },
      },
      log: server.app.log,
      rateFor: () => RATE,
      productTimeZone: 'UTC',
      batchLimit: RATE / 5,
    });
    second.start();
    cleanups.push(() => second.stop());

    const jobs = await Promise.all([
      send(server.url, phoneNumbers(30, 0)),
      send(server.url, phoneNumbers(30, 30)),
    ]);
    for (const job of jobs) await waitForJob(testDb.db, job.jobId, 30_000);

    const rows = await testDb.db.query<{ created_ts: string }>(
      'SELECT created_ts FROM outbox_messages ORDER BY created_ts',
    );
    const times = rows.map((r) => Number(r.created_ts));
    expect(times).toHaveLength(60);
    expect(bySecond).toBeGreaterThan(0);
    expect(bySecond).toBeLessThan(60);
    expect(busiestSecond(times)).toBeLessThanOrEqual(RATE);
    // Together at the pace, not each at it: 60 messages at 20 a second take about 3 s.
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual((60 - 1) * (1000 / RATE));
  });

  it('a gateway killed mid-send and started again delivers every recipient exactly once', async () => {
    const testDb = await openTestDb('postgres');
    cleanups.push(() => testDb.close());
    await withOwner(testDb, { can_send_multi_segment: true });

    const first = await startChild(testDb.schema!);
    const { jobId, queued } = await send(first.url, phoneNumbers(300));
    expect(queued).toBe(300);
    // At 50/s, 300 take about 6 s: kill once a fair share is out, but well before the end.
    await eventually(async () =>
      expect((await outboxCounts(testDb)).total).toBeGreaterThanOrEqual(60),
    );
    first.child.kill('SIGKILL');
    await once(first.child, 'exit');
    const atKill = (await outboxCounts(testDb)).total;
    expect(atKill).toBeLessThan(300);

    const second = await startChild(testDb.schema!);
    await waitForJob(testDb.db, jobId, 30_000);
    second.child.kill('SIGTERM');
    await once(second.child, 'exit');

    expect(await outboxCounts(testDb)).toEqual({ total: 300, distinct: 300 });
    const [sent] = await testDb.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM send_recipients WHERE job_id = $1 AND status = 'delivered'",
      [jobId],
    );
    expect(sent?.n).toBe(300);
  }, 60_000);
});

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

const CHILD = fileURLToPath(new URL('./messaging-gateway-child.ts', import.meta.url));

async function startChild(schema: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', CHILD], {
    env: { ...process.env, MESSAGING_TEST_SCHEMA: schema, MESSAGING_TEST_RATE: '50' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /READY (\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) =>
      reject(new Error(`gateway child exited early (${code}): ${output}`)),
    );
  });
  return { child, url };
}
