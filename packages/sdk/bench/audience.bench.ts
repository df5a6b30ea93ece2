// Times the Send SMS review over a million Flex users: filterAudience with every filter set, then
// searchRecipients, against a bare loop that reads the same fields (targets: < 150 ms, ≤ 3×).
// Run alone with `npx tsx packages/sdk/bench/audience.bench.ts`.

import { pathToFileURL } from 'node:url';
import { generateFlexUsers } from '../../../fixtures/generate-data.js';
import { type AudienceContext, filterAudience } from '../src/core/audience.js';
import type { AudienceFilters } from '../src/core/schemas/filters.js';
import type { FlexUser } from '../src/core/schemas/users.js';
import { searchRecipients } from '../src/core/search.js';
import { timeMedians } from './timing.js';

const USERS = 1_000_000;
const WARM_UP_RUNS = 3;
const TIMED_RUNS = 9;
const TARGET_MS = 150;
const TARGET_RATIO = 3;

const SEED = 2026;
/** Every filter set; the referral is filled in from the data, whose codes are generated. */
const FILTERS: AudienceFilters = {
  startDate: '2025-01-01',
  endDate: '2026-10-31',
  startExpirationDate: '2026-11-01',
  endExpirationDate: '2026-12-31',
  byGoodStanding: 'yes',
  byProxyInstalled: 'yes',
  bySetupComplete: 'yes',
  byRegion: 'Houston',
};
const CONTEXT: AudienceContext = {
  product: 'flex',
  billingDetails: true,
  timeZone: 'America/Chicago',
};
/** Only the day bounds: most paid users pass every check and reach the search, the slowest case. */
const WIDE_FILTERS: AudienceFilters = {
  startDate: '2024-01-01',
  endDate: '2026-12-31',
  startExpirationDate: '2024-01-01',
  endExpirationDate: '2027-12-31',
};

export async function benchAudience(): Promise<string[]> {
  const users = generateFlexUsers(USERS, SEED);
  const filters = {
    ...FILTERS,
    selectedReferral: commonestReferral(filterAudience(users, FILTERS, CONTEXT)),
  };
  // A first name from the audience, lower-cased, as an admin would type it.
  const query = (
    filterAudience(users, filters, CONTEXT)[0]?.name.split(' ')[0] ?? 'mar'
  ).toLowerCase();

  let kept = 0;
  let wideKept = 0;
  const { filtered, wide, bare } = timeMedians(
    {
      filtered: () => {
        const audience = filterAudience(users, filters, CONTEXT);
        kept = audience.length;
        return searchRecipients(audience, query).length;
      },
      wide: () => {
        const audience = filterAudience(users, WIDE_FILTERS, CONTEXT);
        wideKept = audience.length;
        return searchRecipients(audience, query).length;
      },
      bare: () => readSameFields(users),
    },
    { warmUp: WARM_UP_RUNS, timed: TIMED_RUNS },
  );
  const ratio = filtered.median / bare.median;
  const wideRatio = wide.median / bare.median;

  return [
    `filterAudience+searchRecipients over ${USERS.toLocaleString('en-US')} users: ` +
      `median ${filtered.median.toFixed(1)} ms (target < ${TARGET_MS} ms); ` +
      `bare loop: ${bare.median.toFixed(1)} ms; ` +
      `ratio ${ratio.toFixed(2)}× (target ≤ ${TARGET_RATIO}×)`,
    `  ${kept.toLocaleString('en-US')} users kept by the filters, ${filtered.result} matching '${query}'; ` +
      `median of ${TIMED_RUNS} runs after ${WARM_UP_RUNS} warm-up runs; ` +
      `${filtered.median < TARGET_MS && ratio <= TARGET_RATIO ? 'targets met' : 'TARGETS MISSED'}`,
    `  worst case (day filters only, ${wideKept.toLocaleString('en-US')} kept, ` +
      `${wide.result.toLocaleString('en-US')} matching): median ${wide.median.toFixed(1)} ms; ` +
      `ratio ${wideRatio.toFixed(2)}×`,
  ];
}

/** The referral most of `users` came through, so that the last filter still keeps someone. */
function commonestReferral(users: readonly FlexUser[]): string {
  const counts = new Map<string, number>();
  for (const u of users) {
    if (u.referral !== null) counts.set(u.referral, (counts.get(u.referral) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
}

/** What any scan of the table must pay: touching every field the filters and search read. */
function readSameFields(users: readonly FlexUser[]): number {
  let sum = 0;
  for (let i = 0; i < users.length; i++) {
    const u = users[i]!;
    sum += u.createDateTimestamp + (u.expirationDateTimestamp ?? 0);
    if (u.goodStanding) sum++;
    if (u.proxyInstalled) sum++;
    if (u.setupComplete) sum++;
    sum += (u.humanRegion?.length ?? 0) + (u.referral?.length ?? 0);
    sum += (u.expirationDate?.length ?? 0) + u.name.length + u.phoneNumber.length;
  }
  return sum;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await benchAudience()) console.log(line);
}
