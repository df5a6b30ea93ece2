// Caps and choices on a real gateway: offers that arrive in one poll are taken best-paying first,
// a cap on hours per day refuses the block that would pass it, and a block paying the "any block"
// amount is taken whatever its hourly rate.
import { startOfDay } from '@blockcatch/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDriver,
  connect,
  type DriverGateway,
  HOUR,
  openFilters,
  startDriverGateway,
  waitFor,
} from './driver-harness.js';

let running: DriverGateway;

beforeAll(async () => {
  running = await startDriverGateway();
});

afterAll(async () => {
  await running?.close();
});

/** 00:00 of the Austin day after tomorrow: every block that day is well past the time buffer. */
function dayAfterTomorrow(): number {
  const date = new Date(Date.now() + 2 * 24 * HOUR).toLocaleDateString('en-CA', {
    timeZone: 'America/Chicago',
  });
  return startOfDay(date, 'America/Chicago');
}

describe('the catcher with caps and choices', () => {
  it('takes the best-paying of the offers in one poll, and refuses the block past the hours of a day', async () => {
    const phone = '+15125550801';
    const driver = await addDriver(running, phone);
    await connect(running, driver, phone);
    const saved = await driver.put('/settings', openFilters({ maxHoursPerDay: 6 }));
    expect(saved.status).toBe(200);
    expect(saved.body.Item.maxHoursPerDay).toBe(6);
    // Published while the system is off, so the first poll sees all three at once.
    const day = dayAfterTomorrow();
    const platform = running.gateway.driver.platform;
    const early = await platform.publishOffer({
      serviceAreaId: 'DAU1',
      startTime: day + 6 * HOUR,
      endTime: day + 10 * HOUR,
      pay: 100,
      takenAfterMs: 60_000,
    });
    const better = await platform.publishOffer({
      serviceAreaId: 'DAU1',
      startTime: day + 7 * HOUR,
      endTime: day + 11 * HOUR,
      pay: 150,
      takenAfterMs: 60_000,
    });
    const afternoon = await platform.publishOffer({
      serviceAreaId: 'DAU1',
      startTime: day + 12 * HOUR,
      endTime: day + 16 * HOUR,
      pay: 120,
      takenAfterMs: 60_000,
    });
    await driver.put('/status', { status: 'start' });
    const disliked = await waitFor(
      () => driver.get('/offers?kind=disliked'),
      (r) => r.body.Items.length === 2,
    );
    expect(
      Object.fromEntries(
        disliked.body.Items.map((o: { offerId: string; reason: string }) => [o.offerId, o.reason]),
      ),
    ).toEqual({ [early.offerId]: 'overlap', [afternoon.offerId]: 'hours-per-day' });
    const won = await driver.get('/offers?kind=won');
    expect(won.body.Items.map((o: { offerId: string }) => o.offerId)).toEqual([better.offerId]);
  });

  it('takes a block paying the amount for any block although its hourly rate is under the minimum', async () => {
    const phone = '+15125550802';
    const driver = await addDriver(running, phone);
    await connect(running, driver, phone);
    // $140 for 10 hours is $14 an hour, under the $20 minimum; $90 for 6 hours is $15.
    // DHO2, away from the offers of the test before.
    await driver.put(
      '/settings',
      openFilters({ warehouses: ['DHO2'], minHourlyPay: 20, anyBlockPay: 140 }),
    );
    const day = dayAfterTomorrow();
    const platform = running.gateway.driver.platform;
    const long = await platform.publishOffer({
      serviceAreaId: 'DHO2',
      startTime: day + 8 * HOUR,
      endTime: day + 18 * HOUR,
      pay: 140,
      takenAfterMs: 60_000,
    });
    const cheap = await platform.publishOffer({
      serviceAreaId: 'DHO2',
      startTime: day + 18 * HOUR,
      endTime: day + 24 * HOUR,
      pay: 90,
      takenAfterMs: 60_000,
    });
    await driver.put('/status', { status: 'start' });
    const won = await waitFor(
      () => driver.get('/offers?kind=won'),
      (r) => r.body.Items.length === 1,
    );
    expect(won.body.Items[0].offerId).toBe(long.offerId);
    const disliked = await waitFor(
      () => driver.get('/offers?kind=disliked'),
      (r) => r.body.Items.some((o: { offerId: string }) => o.offerId === cheap.offerId),
    );
    expect(
      disliked.body.Items.find((o: { offerId: string }) => o.offerId === cheap.offerId),
    ).toMatchObject({ reason: 'hourly-pay' });
  });
});
