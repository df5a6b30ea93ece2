// A driver's polls keep their pace when the clock is read once for a whole round of polls: the next
// poll is due an interval after the answer, however late the answer comes, and an offer that left
// the list and came back is decided again.
import type { DriverFilters } from '@blockcatch/sdk';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { listingPlatform } from '../../test/helpers/listing-platform.js';
import type { DeliveryPlatform, PlatformOffer, PlatformSession } from '../platform/types.js';
import type { OfferRecord } from '../storage/driver-offers.js';
import { createDriverPolling } from './driver-polling.js';

const INTERVAL = 1000;
const SESSION: PlatformSession = { accountId: 'acct-1', accessToken: 'token' };

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A platform answering its polls with `lists` in turn (then empty lists), `latency` ms late. */
function platformOf(lists: PlatformOffer[][], latency: number) {
  const starts: number[] = [];
  const list = (): Promise<PlatformOffer[]> => {
    starts.push(Date.now());
    const offers = lists[starts.length - 1] ?? [];
    if (latency === 0) return Promise.resolve(offers);
    return new Promise((resolve) => setTimeout(() => resolve(offers), latency));
  };
  const platform = listingPlatform(list);
  return { platform, starts };
}

function polled(platform: DeliveryPlatform, drivers: number, records: OfferRecord[] = []) {
  const polling = createDriverPolling({
    platform,
    options: {
      pollIntervalMs: INTERVAL,
      minPollIntervalMs: 250,
      backoffBaseMs: 1000,
      backoffMaxMs: 60_000,
    },
    record: (record) => records.push(record),
    refreshSession: async () => SESSION,
    onUnauthorized: () => {},
    onCodeRequired: () => {},
    onVerificationRequired: () => {},
    onError: (error) => {
      throw error;
    },
  });
  for (let i = 1; i <= drivers; i++) {
    const userId = `driver-${i}`;
    polling.add({
      userId,
      session: SESSION,
      filters: FILTERS,
      filtersUpdatedAt: 0,
      wonBlocks: [],
    });
  }
  return polling;
}

const DAY = [{ start: '06:00', end: '22:00' }];
/** Filters no offer here meets (another warehouse): each offer is decided as disliked and recorded. */
const FILTERS: DriverFilters = {
  warehouses: ['elsewhere'],
  minHourlyPay: 18,
  minBlockPay: 40,
  timeBufferMinutes: 30,
  weeklySchedule: { mon: DAY, tue: DAY, wed: DAY, thu: DAY, fri: DAY, sat: DAY, sun: DAY },
  timeZone: 'America/Chicago',
};

const OFFER: PlatformOffer = {
  offerId: 'offer-1',
  serviceAreaId: 'somewhere',
  startTime: Date.UTC(2030, 0, 1, 10),
  endTime: Date.UTC(2030, 0, 1, 14),
  pay: 80,
};

describe('driver polling', () => {
  it.each([0, 300, 1500])(
    'polls each driver again an interval after the answer, with answers %i ms late',
    async (latency) => {
      const { platform, starts } = platformOf([], latency);
      // Two drivers, so a round of polls holds more than one.
      const polling = polled(platform, 2);
      await vi.advanceTimersByTimeAsync(3 * (INTERVAL + latency) + 10);
      // The last round's polls are still waiting for their answers.
      const removed = polling.userIds().map((userId) => polling.remove(userId));
      await vi.advanceTimersByTimeAsync(latency);
      await Promise.all(removed);
      // Two drivers: their polls start together, each round an answer's latency plus an interval on.
      expect(starts).toEqual(roundStarts(latency));
    },
  );

  it('decides an offer again when it left the list and came back', async () => {
    const { platform } = platformOf([[OFFER], [], [OFFER], []], 0);
    const records: OfferRecord[] = [];
    const polling = polled(platform, 1, records);
    await vi.advanceTimersByTimeAsync(4 * INTERVAL);
    for (const userId of polling.userIds()) await polling.remove(userId);
    expect(records.map((r) => [r.offerId, r.kind, r.seenAt])).toEqual([
      ['offer-1', 'disliked', 0],
      ['offer-1', 'disliked', 2 * INTERVAL],
    ]);
  });
});

/** When the polls of two drivers start: together, every interval plus the answer's latency. */
function roundStarts(latency: number): number[] {
  const rounds = Math.floor((3 * (INTERVAL + latency) + 10) / (INTERVAL + latency)) + 1;
  return Array.from({ length: rounds }, (_, round) => round * (INTERVAL + latency)).flatMap(
    (at) => [at, at],
  );
}
