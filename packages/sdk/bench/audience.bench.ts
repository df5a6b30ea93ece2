// Times the Send SMS review's filters over a million Flex users as the SDK hands them over: the
// fixtures' rows written out as the gateway's JSON answer, then parsed and validated the way the
// client does. Each filter set runs beside a floor that reads the same fields from the same objects
// (targets: < 150 ms and ≤ 2× the floor, for every set). Run alone with
// `npx tsx packages/sdk/bench/audience.bench.ts`; `--users N` for a shorter run.

import { pathToFileURL } from 'node:url';
import { generateFlexUsers } from '../../../fixtures/generate-data.js';
import { type AudienceContext, filterAudience } from '../src/core/audience.js';
import type { AudienceFilters } from '../src/core/schemas/filters.js';
import { type FlexUser, flexUsersResponseSchema } from '../src/core/schemas/users.js';
import { timeMedians } from './timing.js';

export const BENCH_USERS = 1_000_000;
const WARM_UP_RUNS = 3;
const TIMED_RUNS = 9;
const TARGET_MS = 150;
const TARGET_RATIO = 2;
const SEED = 2026;
/** The gateway's answer is parsed in slices: one million rows would pass V8's longest string. */
const JSON_SLICE = 50_000;

const CONTEXT: AudienceContext = {
  product: 'flex',
  billingDetails: true,
  timeZone: 'America/Chicago',
};

/** The filter sets timed; the referral is filled in from the data, whose codes are generated. */
function filterSets(users: readonly FlexUser[]): Record<string, AudienceFilters> {
  const every: AudienceFilters = {
    startDate: '2025-01-01',
    endDate: '2026-10-31',
    startExpirationDate: '2026-11-01',
    endExpirationDate: '2026-12-31',
    byGoodStanding: 'yes',
    byProxyInstalled: 'yes',
    bySetupComplete: 'yes',
    byRegion: 'Houston',
  };
  return {
    'every filter': { ...every, selectedReferral: commonestReferral(users) },
    'day filters only (widest)': {
      startDate: '2024-01-01',
      endDate: '2026-12-31',
      startExpirationDate: '2024-01-01',
      endExpirationDate: '2027-12-31',
    },
    'sign-up days': { startDate: '2025-01-01', endDate: '2026-10-31' },
    'expiration days': { startExpirationDate: '2026-11-01', endExpirationDate: '2026-12-31' },
    'yes/no flags': { byGoodStanding: 'yes', byProxyInstalled: 'no', bySetupComplete: 'yes' },
    region: { byRegion: 'Houston' },
    'no filter': {},
  };
}

/** Users as the web app and the CLI hold them: parsed from JSON and validated by the schema. */
export function usersAsParsed(count: number, seed = SEED): FlexUser[] {
  const generated = generateFlexUsers(count, seed);
  const users: FlexUser[] = [];
  for (let at = 0; at < generated.length; at += JSON_SLICE) {
    const json = JSON.stringify({ Items: generated.slice(at, at + JSON_SLICE) });
    for (const user of flexUsersResponseSchema.parse(JSON.parse(json)).Items) users.push(user);
  }
  return users;
}

export async function benchAudience(
  users: readonly FlexUser[] = usersAsParsed(BENCH_USERS),
): Promise<string[]> {
  const count = users.length;
  const sets = filterSets(users);
  const names = Object.keys(sets);
  const tasks: Record<string, () => number> = {};
  for (const name of names) {
    const fields = fieldsRead(sets[name]!);
    tasks[name] = () => filterAudience(users, sets[name]!, CONTEXT).length;
    tasks[`${name} floor`] = () => readFields(users, fields);
  }
  const timings = timeMedians(tasks, { warmUp: WARM_UP_RUNS, timed: TIMED_RUNS });

  const lines = [
    `filterAudience over ${count.toLocaleString('en-US')} JSON-parsed users, median of ` +
      `${TIMED_RUNS} runs after ${WARM_UP_RUNS} warm-up runs, beside a floor that reads the ` +
      'fields the set compares from every row',
  ];
  let met = true;
  for (const name of names) {
    const { median, result } = timings[name]!;
    const floor = timings[`${name} floor`]!.median;
    const ratio = median / floor;
    const ok = median < TARGET_MS && ratio <= TARGET_RATIO;
    met &&= ok;
    lines.push(
      `  ${name.padEnd(26)} ${median.toFixed(1).padStart(7)} ms (goal < ${TARGET_MS} ms)  ` +
        `floor ${floor.toFixed(1).padStart(6)} ms  ratio ${ratio.toFixed(2)}× (goal ≤ ${TARGET_RATIO}×)  ` +
        `${result.toLocaleString('en-US')} kept  ${ok ? 'met' : 'MISSED'}`,
    );
  }
  lines.push(`  ${met ? 'every goal met' : 'GOALS MISSED'}`);
  return lines;
}

/** The referral most users came through, so that the last filter still keeps someone. */
function commonestReferral(users: readonly FlexUser[]): string {
  const counts = new Map<string, number>();
  for (const u of users) {
    if (u.referral !== null) counts.set(u.referral, (counts.get(u.referral) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
}

interface FieldsRead {
  expiration: boolean;
  flags: boolean;
  region: boolean;
  referral: boolean;
}

/** The fields `filterAudience` compares for `filters`; the sign-up day is read on every row. */
function fieldsRead(filters: AudienceFilters): FieldsRead {
  return {
    expiration:
      filters.startExpirationDate !== undefined || filters.endExpirationDate !== undefined,
    flags: filters.byGoodStanding !== undefined,
    region: filters.byRegion !== undefined,
    referral: filters.selectedReferral !== undefined,
  };
}

/** What any scan of the table must pay: touching the compared fields on every row. */
function readFields(users: readonly FlexUser[], read: FieldsRead): number {
  let sum = 0;
  for (let i = 0; i < users.length; i++) {
    const u = users[i]!;
    sum += u.createDateTimestamp;
    if (read.expiration) {
      sum += (u.expirationDateTimestamp ?? 0) + (u.expirationDate?.length ?? 0);
    }
    if (read.flags) {
      if (u.goodStanding) sum++;
      if (u.proxyInstalled) sum++;
      if (u.setupComplete) sum++;
    }
    if (read.region) sum += u.humanRegion?.length ?? 0;
    if (read.referral) sum += u.referral?.length ?? 0;
  }
  return sum;
}

/** `--users N` from the command line, or the full million. */
export function usersFromArgs(argv: readonly string[]): number {
  const at = argv.indexOf('--users');
  const n = at >= 0 ? Number(argv[at + 1]) : BENCH_USERS;
  if (!Number.isInteger(n) || n < 1) throw new RangeError('--users takes a positive whole number');
  return n;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await benchAudience(usersAsParsed(usersFromArgs(process.argv)))) {
    console.log(line);
  }
}
