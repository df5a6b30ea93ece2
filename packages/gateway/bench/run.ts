// `npm run bench` for the gateway: each benchmark measures ours beside a baseline in the same run.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { benchCatcher } from './catcher.bench.js';
import { benchLongInput } from './long-input.bench.js';
import { benchPgliteMemory } from './pglite-memory.bench.js';
import { benchSend } from './send.bench.js';
import { benchSendResults } from './send-results.bench.js';
import { benchSrp } from './srp.bench.js';
import { benchStationInsight } from './station-insight.bench.js';
import { benchUsersTable } from './users-table.bench.js';

for (const [title, bench] of [
  [
    'GET /api/flex/v1/all-users-table with 100,000 users (gateway vs bare node:http)',
    benchUsersTable,
  ],
  [
    'An authenticated read on PostgreSQL with every limit on (gateway vs bare Fastify + jose)',
    // In a process of its own, as a gateway runs: measured after the users-table bench in this one,
    // on a heap grown by its 30 MB answers, its p99 read 30 ms against under 20 when run alone.
    () => inOwnProcess('./authenticated-read.bench.ts'),
  ],
  ["The embedded database's memory: RSS on PGlite beside PostgreSQL", benchPgliteMemory],
  [
    'Sends through the outbox: a 100,000-recipient job, unpaced delivery, and delivery at the pace',
    benchSend,
  ],
  [
    "The Sends page's results: 100 sends of 100,000 recipients on PostgreSQL (kept vs counted live)",
    benchSendResults,
  ],
  ['The block catcher with 1,000 drivers on the sandbox platform', benchCatcher],
  [
    'The block catcher waiting: 100,000 drivers while the platform has nothing new',
    // In a process of its own: it measures the CPU of its whole process, and the benches before it
    // leave worker threads, pools and a large heap behind that would be counted with it.
    () => inOwnProcess('./catcher-idle.bench.ts'),
  ],
  [
    'The send worker waiting: nothing due, on PGlite and PostgreSQL',
    // In a process of its own, like the idle catcher: it measures its whole process's CPU.
    () => inOwnProcess('./send-worker-idle.bench.ts'),
  ],
  ['Sign-in: the server side of SRP beside OpenSSL', benchSrp],
  [
    'Station insight over 1,000 drivers and 30 days of offers on PostgreSQL (goal < 200 ms)',
    benchStationInsight,
  ],
  ["An oversized field: a 50,000-character email beside one at the field's bound", benchLongInput],
] as const) {
  console.log(`\n## ${title}`);
  for (const line of await bench()) console.log(line);
}

/** A bench run as its own script in a fresh process (with this one's TypeScript loader): its lines. */
async function inOwnProcess(file: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...process.execArgv, fileURLToPath(new URL(file, import.meta.url))],
    { maxBuffer: 1_048_576 },
  );
  return stdout.trimEnd().split('\n');
}
