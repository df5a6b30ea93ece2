// The soak: the mixed load of `npm run bench:load` held for BENCH_SOAK_SECONDS (default 600, ten
// minutes), lighter so it can run on a shared machine (10 admins reading the whole users table
// back to back, 100 drivers polling each second, 20,000 users, a 2,000-recipient send, no bursts),
// on each database in BENCH_SOAK_DATABASES (default pglite,postgres).
// Printed beside the mixed load's own lines: the gateway's RSS after the first minute's warm-up
// (caches built, the send under way), as the first and the last third of the rest compare
// (`rss-growth.ts`). Goal: flat, each within 10%.
// Run: npm run bench:soak (BENCH_SOAK_SECONDS=120 for a shorter run).
import { loadavg } from 'node:os';
import { DATABASE_NAMES, type Database, runMixedLoad } from './load.bench.js';
import { describeRssGrowth, RSS_WARM_UP_SECONDS, rssGrowth } from './rss-growth.js';

const seconds = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
if (!Number.isInteger(seconds) || seconds < 2 * RSS_WARM_UP_SECONDS || seconds > 3600) {
  throw new Error(
    `BENCH_SOAK_SECONDS: a whole number of seconds from ${2 * RSS_WARM_UP_SECONDS} to 3600`,
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
  console.log(
    `  soak RSS after the warm-up, ${describeRssGrowth(rssGrowth(rssMb))}; load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(', ')}`,
  );
}
