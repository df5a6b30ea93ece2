// The soak: the mixed load of `npm run bench:load` held for BENCH_SOAK_SECONDS (default 600, ten
// minutes), lighter so it can run on a shared machine (10 admins reading the whole users table
// back to back, 100 drivers polling each second, 20,000 users, a 2,000-recipient send, no bursts),
// on each database in BENCH_SOAK_DATABASES (default pglite,postgres).
// Printed beside the mixed load's own lines: the gateway's RSS after the first minute's warm-up
// (caches built, the send under way), as the first and the last third of the rest compare. The
// JavaScript heap fills with garbage between collections, so RSS rises and falls by up to a
// hundred MB every minute or two; one sample against the largest after it measures where the
// first sample fell in that swing. Growth is both the largest and the smallest RSS of the last
// third against those of the first: a leak raises both. Goal: flat, each within 10%.
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
  const third = Math.max(1, Math.floor(settled.length / 3));
  const first = settled.slice(0, third);
  const last = settled.slice(-third);
  const grew = (before: number, after: number) => (before > 0 ? (after - before) / before : 0);
  const peakGrowth = grew(Math.max(...first), Math.max(...last));
  const troughGrowth = grew(Math.min(...first), Math.min(...last));
  const swing = Math.max(...settled) - Math.min(...settled);
  const met = peakGrowth < GOAL_GROWTH && troughGrowth < GOAL_GROWTH;
  const pct = (n: number) => `${n >= 0 ? '+' : ''}${(100 * n).toFixed(1)}%`;
  console.log(
    `  soak RSS after the ${WARM_UP_SECONDS} s warm-up, ${third * SAMPLE_SECONDS} s thirds: first ${Math.min(...first)}–${Math.max(...first)} MB, last ${Math.min(...last)}–${Math.max(...last)} MB; largest ${pct(peakGrowth)}, smallest ${pct(troughGrowth)} [goal: flat, each < ${100 * GOAL_GROWTH}%: ${met ? 'met' : 'NOT met'}]; the swing between collections: ${swing} MB; load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(', ')}`,
  );
}
