// Decisions per second of the block matcher over a million generated offers: a matcher compiled
// once per driver, as the catcher keeps it, beside `matchOffer` compiling the filters every call.
// Run alone with `npx tsx packages/sdk/bench/offers.bench.ts`.

import { pathToFileURL } from 'node:url';
import {
  createOfferMatcher,
  type MatchContext,
  type MatchResult,
  matchOffer,
  REFUSAL_REASONS,
} from '../src/core/offers.js';
import type { DriverFilters, Offer, ScheduleWindow } from '../src/core/schemas/driver.js';
import { timeMedians } from './timing.js';

const OFFERS = 1_000_000;
const WARM_UP_RUNS = 1;
const TIMED_RUNS = 5;
const SEED = 2026;

const MINUTE = 60_000;
const QUARTER = 15 * MINUTE;
const HOUR = 60 * MINUTE;
// Three weeks from a Monday, over Chicago's fall-back Sunday, so the clock-change path runs too.
const FIRST_DAY = Date.parse('2026-10-26T00:00:00-05:00');
const SPAN_QUARTERS = 21 * 24 * 4;

const SERVICE_AREAS = Array.from({ length: 12 }, (_, i) => `DCH${i + 1}`);
const WEEKDAY_WINDOWS: ScheduleWindow[] = [
  { start: '06:00', end: '14:00' },
  { start: '15:00', end: '22:00' },
];
const FILTERS: DriverFilters = {
  warehouses: SERVICE_AREAS.slice(0, 6),
  minHourlyPay: 22,
  minBlockPay: 60,
  timeBufferMinutes: 30,
  weeklySchedule: {
    mon: WEEKDAY_WINDOWS,
    tue: WEEKDAY_WINDOWS,
    wed: WEEKDAY_WINDOWS,
    thu: WEEKDAY_WINDOWS,
    fri: WEEKDAY_WINDOWS,
    sat: [{ start: '08:00', end: '20:00' }],
    sun: [{ start: '00:00', end: '24:00' }],
  },
  timeZone: 'America/Chicago',
};
// A day in, so the first day's offers meet the buffer rule.
const CONTEXT: MatchContext = {
  now: FIRST_DAY + 24 * HOUR,
  wonBlocks: [2, 9, 16].map((day) => {
    const startTime = FIRST_DAY + day * 24 * HOUR + 10 * HOUR;
    return { startTime, endTime: startTime + 4 * HOUR, offerId: `won-${day}` };
  }),
};

export async function benchOffers(): Promise<string[]> {
  const offers = generateOffers(OFFERS, SEED);
  const matcher = createOfferMatcher(FILTERS);
  const tallies = new Map<string, number>();
  const { compiled, naive } = timeMedians(
    {
      compiled: () => decideAll(offers, (o) => matcher(o, CONTEXT)),
      naive: () => decideAll(offers, (o) => matchOffer(o, FILTERS, CONTEXT)),
    },
    { warmUp: WARM_UP_RUNS, timed: TIMED_RUNS },
  );
  // Tally once, outside the timings, and check both paths agree offer by offer.
  let disagreements = 0;
  for (const o of offers) {
    const { reason } = matcher(o, CONTEXT);
    if (reason !== matchOffer(o, FILTERS, CONTEXT).reason) disagreements++;
    const key = reason ?? 'accepted';
    tallies.set(key, (tallies.get(key) ?? 0) + 1);
  }
  const perSecond = (ms: number) => Math.round((OFFERS / ms) * 1000).toLocaleString('en-US');
  const count = OFFERS.toLocaleString('en-US');
  return [
    `compiled matcher (createOfferMatcher once): ${perSecond(compiled.median)} decisions/s ` +
      `(median ${compiled.median.toFixed(1)} ms for ${count} offers)`,
    `matchOffer (compiling the filters per call): ${perSecond(naive.median)} decisions/s ` +
      `(median ${naive.median.toFixed(1)} ms)`,
    `  compiled is ${(naive.median / compiled.median).toFixed(1)}× faster; ` +
      `median of ${TIMED_RUNS} runs after ${WARM_UP_RUNS} warm-up run; ` +
      `${disagreements === 0 ? 'both paths agree on every offer' : `${disagreements} DISAGREEMENTS`}`,
    `  decisions: ${['accepted', ...REFUSAL_REASONS]
      .map((key) => `${key} ${(tallies.get(key) ?? 0).toLocaleString('en-US')}`)
      .join(', ')}`,
  ];
}

/** Decides every offer; returns the accepts so the work is used. */
function decideAll(offers: readonly Offer[], decide: (o: Offer) => MatchResult): number {
  let accepted = 0;
  for (let i = 0; i < offers.length; i++) if (decide(offers[i]!).accept) accepted++;
  return accepted;
}

/** Offers like the platform's: quarter-hour starts, 1½–6 h blocks, $15–35 an hour. */
function generateOffers(n: number, seed: number): Offer[] {
  const random = mulberry32(seed);
  const offers: Offer[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const startTime = FIRST_DAY + Math.floor(random() * SPAN_QUARTERS) * QUARTER;
    const quarters = 6 + Math.floor(random() * 19);
    const hourly = 15 + random() * 20;
    offers[i] = {
      offerId: `offer-${i}`,
      serviceAreaId: SERVICE_AREAS[Math.floor(random() * SERVICE_AREAS.length)]!,
      startTime,
      endTime: startTime + quarters * QUARTER,
      pay: Math.round(hourly * quarters * 25) / 100,
    };
  }
  return offers;
}

/** A small seeded generator, so every run decides the same offers. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await benchOffers()) console.log(line);
}
