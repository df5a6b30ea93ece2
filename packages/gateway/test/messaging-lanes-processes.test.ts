// Lanes across operating-system processes: two gateway processes (each with its own worker) share a
// PostgreSQL schema and are working through a 1,000-recipient marketing send when a third process
// queues an alert; the alert still reaches the provider ahead of the marketing backlog.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import { parseConfig } from '../src/config.js';
import { createMessaging } from '../src/messaging/index.js';
import {
  OWNER,
  openTestDb,
  phoneNumbers,
  sendAsOwner,
  waitForJob,
  withOwner,
} from './messaging-harness.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const CHILD = fileURLToPath(new URL('./messaging-gateway-child.ts', import.meta.url));
const ALERT_TO = '+15559990002';

/** A gateway process on `schema` (messaging routes and worker, 50 messages/s); its URL. */
async function startGatewayProcess(schema: string): Promise<string> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', CHILD],
    {
      env: { ...process.env, MESSAGING_TEST_SCHEMA: schema, MESSAGING_TEST_RATE: '50' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
  let output = '';
  return new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /READY (\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) =>
      reject(new Error(`gateway process exited early (${code}): ${output}`)),
    );
  });
}

describe('message lanes with two gateway processes', () => {
  it('an alert queued during a marketing send reaches the provider before the backlog', async () => {
    const testDb = await openTestDb('postgres');
    cleanups.push(() => testDb.close());
    await withOwner(testDb);
    const [first] = await Promise.all([
      startGatewayProcess(testDb.schema!),
      startGatewayProcess(testDb.schema!),
    ]);

    const marketing = await sendAsOwner(first, phoneNumbers(1000));
    expect(marketing.queued).toBe(1000);
    await eventually(async () => {
      const [row] = await testDb.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM outbox_messages',
      );
      expect(row!.n).toBeGreaterThanOrEqual(20);
    });
    // Queued from this process, which runs no worker: only the two gateway processes deliver.
    const queuer = createMessaging({
      db: testDb.db,
      config: parseConfig({ sendRate: 50, logLevel: 'silent', quietHours: false, seed: false }),
      log: Fastify({ logger: false }).log,
    });
    const alert = await queuer.enqueue({
      createdBy: OWNER,
      key: 'alert:throttled:processes',
      to: ALERT_TO,
      body: 'You are throttled until 10:05',
      quietHours: false,
    });
    await waitForJob(testDb.db, alert.jobId!, 30_000);

    const [position] = await testDb.db.query<{ before: number }>(
      `SELECT count(*) FILTER (WHERE m.id < a.id)::int AS before
       FROM outbox_messages m, outbox_messages a
       WHERE a.to_number = $1 AND m.to_number <> $1`,
      [ALERT_TO],
    );
    // By queue time it would follow all 1,000; in its lane it follows at most the batches the two
    // processes had already claimed.
    expect(position!.before).toBeLessThan(100);
    const [left] = await testDb.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM send_recipients
       WHERE job_id = $1 AND status IN ('queued', 'sending')`,
      [marketing.jobId],
    );
    expect(left!.n).toBeGreaterThan(800);
  }, 90_000);
});
