// The soak: the mixed load of `npm run bench:load` held for BENCH_SOAK_SECONDS (default 600, ten
// minutes), lighter so it can run on a shared machine (10 admins reading the users table back to
// back, each read the whole answer, 100 drivers polling each second, 20,000 users, a 2,000-recipient send, no bursts), on each
// database in BENCH_SOAK_DATABASES (default pglite,postgres). Printed beside the mixed load's own
// lines: the gateway's RSS after the first minute's warm-up (caches built, the send under way) and
// its largest after, goal flat within 10%; the same figure for the first half of the run after the
// warm-up is the floor, what the process settles at.
// Run: npm run bench:soak (BENCH_SOAK_SECONDS=120 for a shorter run).
import { loadavg } from 'node:os';
import { DATABASE_NAMES, type Database, runMixedLoad } from './load.bench.js';

const GOAL_GROWTH = 0.1;
const WARM_UP_SECONDS = 60;
const SAMPLE_SECONDS = 5;

const seconds = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
if (!Number.isInteger(seconds) || seconds < 2 * WARM_UP_SECONDS || seconds > 3600) {
  throw new Error(
    `BENCH_SOAK_SECONDS: a whole number of seconds from ${2 * WARM_UP_SECONDS} to 3600`,
  );
}
const databases = (process.env.BENCH_SOAK_DATABASES ?? 'pglite,postgres').split(',') as Database[];

for (const database of databases) {
  console.log(`\n## Soak, ${seconds} s on ${DATABASE_NAMES[database]}`);
  const { lines, rssMb } = await runMixedLoad(
    {
      seconds,
      admins: 10,
      drivers: 100,
      users: 20_000,
      recipients: 2000,
      newClients: 0,
      burst: 0,
      // Every read the whole table: the heavier case for memory.
      fullReads: true,
      databases: [database],
    },
    database,
  );
  for (const line of lines) console.log(line);
  const settled = rssMb.slice(Math.ceil(WARM_UP_SECONDS / SAMPLE_SECONDS));
  const start = settled[0] ?? 0;
  const peak = Math.max(...settled);
  const growth = start > 0 ? (peak - start) / start : 0;
  const firstHalf = settled.slice(0, Math.ceil(settled.length / 2));
  const firstHalfGrowth = start > 0 ? (Math.max(...firstHalf) - start) / start : 0;
  console.log(
    `  soak RSS after the ${WARM_UP_SECONDS} s warm-up: ${start} MB, largest after: ${peak} MB, grew ${(100 * growth).toFixed(1)}% (floor, the first half's own growth: ${(100 * firstHalfGrowth).toFixed(1)}%) [goal: flat, < ${100 * GOAL_GROWTH}%: ${growth < GOAL_GROWTH ? 'met' : 'NOT met'}]; load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(', ')}`,
  );
}
