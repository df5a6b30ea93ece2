// Search as you type over the review's rows: each keystroke of a few typed queries timed on
// createRecipientSearch's index (built once per table, not timed per keystroke), beside
// searchRecipients scanning every row per keystroke. Goals: p95 per keystroke < 16 ms (one frame)
// over 100,000 rows and < 100 ms over 1,000,000. Run alone with
// `npx tsx --expose-gc packages/sdk/bench/search.bench.ts` (the flag lets it report the index's
// settled heap); `--users N` for a shorter run.

import { pathToFileURL } from 'node:url';
import type { FlexUser } from '../src/core/schemas/users.js';
import { searchRecipients } from '../src/core/search.js';
import { createRecipientSearch } from '../src/core/search-index.js';
import { BENCH_USERS, usersAsParsed, usersFromArgs } from './audience.bench.js';

/** Row counts and the p95 goal per keystroke for each. */
const GOALS: readonly (readonly [rows: number, p95Ms: number])[] = [
  [100_000, 16],
  [1_000_000, 100],
];

export async function benchSearch(
  users: readonly FlexUser[] = usersAsParsed(BENCH_USERS),
): Promise<string[]> {
  const lines: string[] = [];
  for (const [size, goal] of GOALS) {
    if (size > users.length) continue;
    const rows = users.slice(0, size);
    lines.push(...benchOneSize(rows, goal));
  }
  return lines;
}

function benchOneSize(rows: readonly FlexUser[], goalMs: number): string[] {
  const queries = typedQueries(rows);
  const heapBefore = settledHeap();
  const buildStart = performance.now();
  const index = createRecipientSearch(rows);
  const buildMs = performance.now() - buildStart;
  const indexMb = (settledHeap() - heapBefore) / 1e6;

  // One untimed session warms the code; clearing the box then forgets its answers.
  typeAll(queries, (q) => index.search(q).length);
  index.search('');
  const ours = typeAll(queries, (q) => index.search(q).length);
  const scan = typeAll(queries.slice(0, 1), (q) => searchRecipients(rows, q).length);

  const p95 = percentile(ours.wall, 0.95);
  const size = rows.length.toLocaleString('en-US');
  return [
    `search as you type over ${size} rows (${ours.wall.length} keystrokes typing ` +
      `${queries.map((q) => `'${q}'`).join(', ')}):`,
    `  createRecipientSearch p95 ${p95.toFixed(1)} ms per keystroke (goal < ${goalMs} ms), ` +
      `median ${percentile(ours.wall, 0.5).toFixed(1)} ms, max ${percentile(ours.wall, 1).toFixed(1)} ms; ` +
      `CPU p95 ${percentile(ours.cpu, 0.95).toFixed(1)} ms; index built once in ${buildMs.toFixed(0)} ms, ` +
      `${indexMb.toFixed(0)} MB of heap${gc === undefined ? ' (before collection: run node with --expose-gc for the settled size)' : ''}; ` +
      `${p95 < goalMs ? 'met' : 'MISSED'}`,
    `  searchRecipients per keystroke (no index): p95 ${percentile(scan.wall, 0.95).toFixed(1)} ms, ` +
      `median ${percentile(scan.wall, 0.5).toFixed(1)} ms, CPU p95 ${percentile(scan.cpu, 0.95).toFixed(1)} ms`,
  ];
}

const gc = (globalThis as { gc?: () => void }).gc;

/** Heap in use, after a full collection when node exposes one, so garbage is not counted. */
function settledHeap(): number {
  gc?.();
  return process.memoryUsage().heapUsed;
}

/** What an admin types: two names from the table, a region and part of a phone number. */
function typedQueries(rows: readonly FlexUser[]): string[] {
  const middle = rows[Math.floor(rows.length / 2)]!;
  const last = rows[rows.length - 1]!;
  return [
    middle.name.toLowerCase(),
    last.name.split(' ').at(-1)!.toLowerCase(),
    (middle.humanRegion ?? 'houston').toLowerCase(),
    middle.phoneNumber.slice(2, 9),
  ];
}

interface Keystrokes {
  /** Wall-clock milliseconds per keystroke. */
  wall: number[];
  /** CPU milliseconds per keystroke: what the search costs when it has a core to itself. */
  cpu: number[];
}

/** Times each keystroke of each query, typed from an empty box. */
function typeAll(queries: readonly string[], search: (query: string) => number): Keystrokes {
  const times: Keystrokes = { wall: [], cpu: [] };
  for (const query of queries) {
    search('');
    for (let end = 1; end <= query.length; end++) {
      const start = performance.now();
      const cpu = process.cpuUsage();
      search(query.slice(0, end));
      const used = process.cpuUsage(cpu);
      times.wall.push(performance.now() - start);
      times.cpu.push((used.user + used.system) / 1000);
    }
  }
  return times;
}

function percentile(times: readonly number[], p: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await benchSearch(usersAsParsed(usersFromArgs(process.argv)))) {
    console.log(line);
  }
}
