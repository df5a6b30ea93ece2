// The catcher against a platform that throttles and fails: it slows down to the pace the platform
// allows (honouring Retry-After), backs off on 5xx, and still wins blocks for the driver.
import { afterEach, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import {
  type DriverGateway,
  HOUR,
  matchingOffer,
  sameDayStart,
  searchingDriver,
  startDriverGateway,
  waitFor,
} from './driver-harness.js';

let running: DriverGateway | undefined;

afterEach(async () => {
  await running?.close();
  running = undefined;
});

it('slows polling to the pace the platform allows without losing the driver', async () => {
  running = await startDriverGateway({
    catcher: { pollIntervalMs: 20, minPollIntervalMs: 0 },
    sandboxPlatform: { maxPollsPerSecond: 4, retryAfterMs: 700 },
  });
  const driver = await searchingDriver(running, '+15125550301', { orThrottled: true });
  const stats = running.gateway.driver.platform.stats;
  // The dashboard can say "searching" before the first poll reaches the platform: count from it.
  const before = {
    ...(await eventually(() => {
      const first = [...stats.values()][0];
      expect(first).toBeDefined();
      return first!;
    })),
  };
  const started = performance.now();
  const { polls, throttled } = await eventually(() => {
    const after = [...stats.values()][0]!;
    const counted = {
      polls: after.polls - before.polls,
      throttled: after.throttled - before.throttled,
    };
    expect(counted.polls).toBeGreaterThanOrEqual(6);
    expect(counted.throttled).toBeGreaterThanOrEqual(1);
    return counted;
  });
  // Upper bounds from the time that really passed: a slow machine only loosens them.
  const seconds = (performance.now() - started) / 1000;
  // Unthrottled, a 20 ms interval is ~50 polls a second; the platform allows 4.
  expect(polls).toBeLessThanOrEqual(4 * (Math.ceil(seconds) + 1));
  // Each 429 is followed by a 700 ms wait.
  expect(throttled).toBeLessThanOrEqual(Math.ceil(seconds / 0.7) + 1);
  // Between two 429s the dashboard says the platform throttles the driver; never that it lost them.
  const { Item } = (await driver.get('/dashboard')).body;
  expect(Item.searching || Item.notSearchingBecause === 'throttled').toBe(true);

  const offer = await running.gateway.driver.platform.publishOffer(matchingOffer());
  const won = await waitFor(
    () => driver.get('/offers?kind=won'),
    (r) => r.body.Items.length === 1,
  );
  expect(won.body.Items[0].offerId).toBe(offer.offerId);
}, 90_000);

it('keeps catching blocks while the platform fails a third of its calls', async () => {
  running = await startDriverGateway({
    catcher: { pollIntervalMs: 30, backoffBaseMs: 30, backoffMaxMs: 200 },
    sandboxPlatform: { failureRate: 0.33 },
  });
  const driver = await searchingDriver(running, '+15125550302', { orThrottled: true });
  const stats = running.gateway.driver.platform.stats;
  await waitFor(
    async () => [...stats.values()][0]?.failures ?? 0,
    (failures) => failures >= 2,
  );
  const offers = [];
  for (let i = 0; i < 3; i++) {
    offers.push(
      await running.gateway.driver.platform.publishOffer(
        matchingOffer({
          startTime: sameDayStart((3 + 5 * i) * HOUR, 2 * HOUR),
          endTime: sameDayStart((3 + 5 * i) * HOUR, 2 * HOUR) + 2 * HOUR,
        }),
      ),
    );
  }
  const won = await waitFor(
    () => driver.get('/offers?kind=won'),
    (r) => r.body.Items.length === 3,
  );
  expect(won.body.Items.map((o: { offerId: string }) => o.offerId).sort()).toEqual(
    offers.map((o) => o.offerId).sort(),
  );
  expect((await driver.get('/dashboard')).body.Item.searching).toBe(true);
}, 90_000);
