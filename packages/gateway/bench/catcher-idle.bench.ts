// What 100,000 polled drivers cost while the platform has nothing new: the catcher's polling
// (driver-polling.ts: a slot per driver in typed arrays, one timing wheel) with each driver's session and
// filters as the lease round loads them, polling every second a platform that answers an empty
// list at once. Printed: the live heap the drivers add (after a collection, with array buffers) and the share of one
// core the process spends, beside the floor (the same 100,000 platform calls a second from one
// loop, with no scheduling, records or decisions) and the goals (< 30 MB, < 5% of a core).
// The lease rounds' database reads are not part of it (the catcher bench covers a whole catcher).
// Run alone: npx tsx packages/gateway/bench/catcher-idle.bench.ts (BENCH_IDLE_DRIVERS, BENCH_IDLE_SECONDS).

import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { DriverFilters } from '@blockcatch/sdk';
import { createDriverPolling } from '../src/catcher/driver-polling.js';
import { SANDBOX_SERVICE_AREAS } from '../src/platform/service-areas.js';
import type { DeliveryPlatform, PlatformOffer, PlatformSession } from '../src/platform/types.js';
import { listingPlatform } from '../test/helpers/listing-platform.js';
import { coreShare } from './core-share.js';

const GOAL_HEAP_MB = 30;
const GOAL_CORE_SHARE = 0.05;
const POLL_INTERVAL_MS = 1000;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapMb(): number {
  gc();
  gc();
  // The typed arrays' contents live outside the JavaScript heap: counted too.
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return (heapUsed + arrayBuffers) / 1_048_576;
}

const NOTHING: PlatformOffer[] = [];
function quietPlatform(): { platform: DeliveryPlatform; polls: () => number } {
  let polls = 0;
  const platform = listingPlatform(async () => {
    polls++;
    return NOTHING;
  });
  return { platform, polls: () => polls };
}

/**
 * A driver's filters as the lease round hands them over, parsed from the row's JSON: two of the
 * sandbox's warehouses and one of nine pay floors (18 distinct sets here, as drivers of one
 * warehouse often choose alike), or with `distinct` a block-pay floor of their own each.
 */
function filtersOf(i: number, distinct: boolean): DriverFilters {
  const areas = SANDBOX_SERVICE_AREAS.map((a) => a.id);
  const day = [{ start: '06:00', end: '22:00' }];
  return JSON.parse(
    JSON.stringify({
      warehouses: [areas[i % areas.length]!, areas[(i * 7 + 3) % areas.length]!],
      minHourlyPay: 18 + (i % 9),
      minBlockPay: distinct ? 40 + i / 1000 : 40,
      timeBufferMinutes: 30,
      weeklySchedule: { mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: day },
      timeZone: 'America/Chicago',
    }),
  ) as DriverFilters;
}

/** A driver's id and opened session as the lease round has them: parsed from text, flat strings. */
function driverRow(i: number): { userId: string; session: PlatformSession } {
  return JSON.parse(
    JSON.stringify({
      userId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      session: { accountId: `acct-${i}`, accessToken: `${i}`.padStart(43, 'x') },
    }),
  ) as { userId: string; session: PlatformSession };
}

/** The memory floor: the ids and sessions alone, in an array and a map from id, as any catcher keeps them. */
function bareDrivers(drivers: number): number {
  const before = heapMb();
  const rows = new Map<string, PlatformSession>();
  for (let i = 0; i < drivers; i++) {
    const { userId, session } = driverRow(i);
    rows.set(userId, session);
  }
  const mb = heapMb() - before;
  rows.clear();
  return mb;
}

export async function benchCatcherIdle(): Promise<string[]> {
  const drivers = Number(process.env.BENCH_IDLE_DRIVERS ?? 100_000);
  const seconds = Number(process.env.BENCH_IDLE_SECONDS ?? 10);
  const count = drivers.toLocaleString('en-US');

  // The floor: the platform asked as often, from one loop, by nobody in particular.
  const floorPlatform = quietPlatform();
  const session = { accountId: 'acct-floor', accessToken: 'token' };
  const floorTimer = setInterval(() => {
    for (let i = 0; i < drivers / 10; i++) void floorPlatform.platform.listOffers(session);
  }, POLL_INTERVAL_MS / 10);
  await sleep(1000);
  const floorShare = await coreShare(seconds);
  clearInterval(floorTimer);
  const floorLoad = loadavg()[0]!.toFixed(2);

  const bare = bareDrivers(drivers);
  const alike = await polledDrivers(drivers, seconds, false);
  const distinct = await polledDrivers(drivers, 1, true);
  const heapMet = alike.heap < GOAL_HEAP_MB;
  const cpuMet = alike.share < GOAL_CORE_SHARE;
  const each = (mb: number) => ((mb * 1_048_576) / drivers).toFixed(0);
  return [
    `catcher idle: ${count} drivers polled every ${POLL_INTERVAL_MS} ms (${Math.round(alike.pollRate).toLocaleString('en-US')} polls/s), the platform answering nothing new`,
    `  heap of the drivers, ${alike.filterSets.toLocaleString('en-US')} distinct filter sets: ${alike.heap.toFixed(1)} MB (${each(alike.heap)} bytes each; goal < ${GOAL_HEAP_MB} MB: ${heapMet ? 'met' : 'MISSED'}); floor, the ids and sessions alone in a map: ${bare.toFixed(1)} MB; every driver's filters different: ${distinct.heap.toFixed(1)} MB (${each(distinct.heap)} bytes each)`,
    `  CPU: ${(100 * alike.share).toFixed(1)}% of a core (load ${alike.load}); floor, the same platform calls from one loop: ${(100 * floorShare).toFixed(1)}% (load ${floorLoad}); goal < ${100 * GOAL_CORE_SHARE}%: ${cpuMet ? 'met' : 'MISSED'}`,
  ];
}

async function polledDrivers(drivers: number, seconds: number, distinct: boolean) {
  const filterSets = new Set<string>();
  const before = heapMb();
  const { platform, polls } = quietPlatform();
  const polling = createDriverPolling({
    platform,
    options: {
      pollIntervalMs: POLL_INTERVAL_MS,
      minPollIntervalMs: 250,
      backoffBaseMs: 1000,
      backoffMaxMs: 60_000,
    },
    record: () => {},
    refreshSession: refuse,
    onUnauthorized: () => {},
    onCodeRequired: () => {},
    onVerificationRequired: () => {},
    onError: () => {},
  });
  for (let i = 0; i < drivers; i++) {
    const filters = filtersOf(i, distinct);
    filterSets.add(JSON.stringify(filters));
    const { userId, session } = driverRow(i);
    polling.add({
      userId,
      session,
      filters,
      filtersUpdatedAt: 1_700_000_000_000 + i,
      wonBlocks: [],
    });
  }
  const filterSetCount = filterSets.size;
  filterSets.clear();
  // The first round of polls, then the steady state.
  await sleep(2000);
  const pollsBefore = polls();
  const share = await coreShare(seconds);
  const pollRate = (polls() - pollsBefore) / seconds;
  const load = loadavg()[0]!.toFixed(2);
  const heap = heapMb() - before;
  for (const userId of polling.userIds()) await polling.remove(userId);

  return { heap, share, pollRate, load, filterSets: filterSetCount };
}
async function refuse(): Promise<never> {
  throw new Error('not used by the idle bench');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  benchCatcherIdle().then(
    (lines) => {
      for (const line of lines) console.log(line);
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
