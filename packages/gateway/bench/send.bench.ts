// A 100,000-recipient SMS send through the outbox provider with the rate limit off, on PGlite:
// how long the request takes to store the job, and how many recipients a second the worker delivers.
// Run alone: npx tsx --conditions=source packages/gateway/bench/send.bench.ts (plain `npx tsx` works
// once the SDK is built, as `npm run bench` does).
import { pathToFileURL } from 'node:url';
import { insertUsers } from '../src/storage/users.js';
import {
  openTestDb,
  phoneNumbers,
  startMessagingServer,
  waitForJob,
} from '../test/messaging-harness.js';

const RECIPIENTS = 100_000;

export async function benchSend(): Promise<string[]> {
  const testDb = await openTestDb('pglite');
  const { db } = testDb;
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
  const server = await startMessagingServer(db, { config: { sendRate: 0 }, startWorker: false });
  try {
    const body = JSON.stringify({
      numbers: phoneNumbers(RECIPIENTS).map((number) => ({ number })),
      message: 'Blocks are open this afternoon.',
    });
    const created = performance.now();
    const response = await fetch(`${server.url}/api/flex/v1/admin/sendsms`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-test-user': 'bench-owner',
        'idempotency-key': 'bench',
      },
      body,
    });
    const answer = (await response.json()) as { jobId: string; queued: number };
    const createMs = performance.now() - created;
    if (response.status !== 202 || answer.queued !== RECIPIENTS) {
      throw new Error(
        `send was refused: ${response.status} ${JSON.stringify(answer).slice(0, 200)}`,
      );
    }

    const started = performance.now();
    server.messaging.start();
    await waitForJob(db, answer.jobId, 600_000);
    const deliverMs = performance.now() - started;
    const [outbox] = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM outbox_messages',
    );
    if (outbox?.n !== RECIPIENTS)
      throw new Error(`outbox holds ${outbox?.n}, expected ${RECIPIENTS}`);

    return [
      `send job of ${RECIPIENTS.toLocaleString('en-US')} recipients (PGlite, outbox provider, rate limit off)`,
      `  job creation (POST /sendsms, validate, store job + recipients, reply): ${createMs.toFixed(0)} ms`,
      `  delivery: ${(deliverMs / 1000).toFixed(2)} s, ${Math.round(RECIPIENTS / (deliverMs / 1000)).toLocaleString('en-US')} recipients/s`,
    ];
  } finally {
    await server.close();
    await testDb.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const line of await benchSend()) console.log(line);
}
