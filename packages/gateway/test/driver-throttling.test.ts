// The catcher against a platform that throttles and fails: it slows down to the pace the platform
// allows (honouring Retry-After), backs off on 5xx, and still wins blocks for the driver.
import { afterEach, expect, it } from 'vitest';
import {
  addDriver,
  connect,
  type DriverGateway,
  matchingOffer,
  openFilters,
  startDriverGateway,
  waitFor,
} from './driver-harness.js';

let running: DriverGateway | undefined;

afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function driverOn(gateway: DriverGateway, phone: string) {
  const driver = await addDriver(gateway, phone);
  await connect(gateway, driver, phone);
  await driver.put('/settings', openFilters());
  await driver.put('/status', { status: 'start' });
  await waitFor(
    () => driver.get('/dashboard'),
    (r) => r.body.Item.searching === true,
  );
  return driver;
}

it('slows polling to the pace the platform allows without losing the driver', async () => {
  running = await startDriverGateway({
    catcher: { pollIntervalMs: 20, minPollIntervalMs: 0 },
    sandboxPlatform: { maxPollsPerSecond: 4, retryAfterMs: 700 },
  });
  const driver = await driverOn(running, '+15125550301');
  const stats = running.gateway.driver.platform.stats;
  const before = { ...[...stats.values()][0]! };
  await new Promise((r) => setTimeout(r, 2000));
  const after = [...stats.values()][0]!;
  const polls = after.polls - before.polls;
  const throttled = after.throttled - before.throttled;
  // Unthrottled, a 20 ms interval is ~100 polls in 2 s; the platform allows 4 a second.
  expect(polls).toBeGreaterThan(2);
  expect(polls).toBeLessThanOrEqual(12);
  expect(throttled).toBeGreaterThanOrEqual(1);
  // Each 429 is followed by a 700 ms wait, so few of them fit in 2 s.
  expect(throttled).toBeLessThanOrEqual(4);
  expect((await driver.get('/dashboard')).body.Item.searching).toBe(true);

  const offer = await running.gateway.driver.platform.publishOffer(matchingOffer());
  const won = await waitFor(
    () => driver.get('/offers?kind=won'),
    (r) => r.body.Items.length === 1,
  );
  expect(won.body.Items[0].offerId).toBe(offer.offerId);
});

it('keeps catching blocks while the platform fails a third of its calls', async () => {
  running = await startDriverGateway({
    catcher: { pollIntervalMs: 30, backoffBaseMs: 30, backoffMaxMs: 200 },
    sandboxPlatform: { failureRate: 0.33 },
  });
  const driver = await driverOn(running, '+15125550302');
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
          startTime: Date.now() + (3 + 5 * i) * 3_600_000,
          endTime: Date.now() + (5 + 5 * i) * 3_600_000,
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
});
