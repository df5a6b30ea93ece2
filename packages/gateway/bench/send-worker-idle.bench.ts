// What the send worker costs while nothing is due, on PGlite (in its thread) and on PostgreSQL:
// the share of one core this process spends over SECONDS with the worker polling at its default
// pace, beside the floor (the same database open, no worker), and how it asked (reads,
// transactions). An idle worker reads whether anything is due instead of opening a claim's
// transaction each poll (messaging/worker.ts). PostgreSQL's own server process is not counted.
// Run alone: npx tsx --conditions=source packages/gateway/bench/send-worker-idle.bench.ts

import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import { createOutboxProvider } from '../src/messaging/providers/outbox.js';
import { createSendWorker } from '../src/messaging/worker.js';
import { openDatabase, quoteIdent } from '../src/storage/db.js';
import { migrate } from '../src/storage/migrate.js';
import { countingDb } from '../test/helpers/counting-db.js';
import { POSTGRES_URL } from '../test/helpers/database.js';
import { coreShare } from './core-share.js';

const SECONDS = Number(process.env.BENCH_SEND_IDLE_SECONDS ?? 15);
/** Long enough for a start's compilation and the first polls to settle. */
const SETTLE_MS = 5000;

const percent = (share: number) => `${(share * 100).toFixed(2)}%`;

async function measure(kind: 'pglite' | 'postgres'): Promise<string> {
  const schema = `bench_send_idle_${process.pid}`;
  const opened = await openDatabase(
    kind === 'postgres' ? { kind, url: POSTGRES_URL, schema } : { kind },
  );
  try {
    await migrate(opened);
    await sleep(SETTLE_MS);
    const floor = await coreShare(SECONDS);
    const { db, counts } = countingDb(opened);
    const worker = createSendWorker({
      db,
      provider: createOutboxProvider(),
      log: Fastify({ logger: false }).log,
      rateFor: () => 0,
      productTimeZone: 'UTC',
    });
    worker.start();
    await sleep(SETTLE_MS);
    const reads = counts.reads;
    const transactions = counts.transactions;
    const ours = await coreShare(SECONDS);
    await worker.stop();
    return `${kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}: idle worker ${percent(ours)} of a core, floor (no worker) ${percent(floor)}, so the worker ${percent(Math.max(0, ours - floor))}; in ${SECONDS} s it made ${counts.reads - reads} reads and ${counts.transactions - transactions} transactions [goal: no transaction while nothing is due: ${counts.transactions === transactions ? 'met' : 'NOT met'}]`;
  } finally {
    if (kind === 'postgres') await opened.query(`DROP SCHEMA ${quoteIdent(schema)} CASCADE`);
    await opened.close();
  }
}

async function benchSendWorkerIdle(): Promise<string[]> {
  const lines = [await measure('pglite'), await measure('postgres')];
  lines.push(
    `machine load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(', ')}`,
  );
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const line of await benchSendWorkerIdle()) console.log(line);
}
