// A driver's richer filters on a real gateway: per-station rules, block length and windows that
// cross midnight are stored and used by the catcher; a schedule far from now stops the polling
// with the reason shown; and the preview of what edited filters would have caught.
import {
  driverDashboardResponseSchema,
  filterPreviewResponseSchema,
  SEARCH_AHEAD_MS,
  startOfDay,
  WEEKDAYS,
} from '@blockcatch/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import { recordOffers } from '../src/storage/driver-offers.js';
import {
  addDriver,
  connect,
  type DriverGateway,
  HOUR,
  matchingOffer,
  openFilters,
  sameDayStart,
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

async function userId(phone: string): Promise<string> {
  const [row] = await running.gateway.db.query<{ id: string }>(
    'SELECT id FROM users WHERE phone_number = $1',
    [phone],
  );
  return row!.id;
}

describe('saving richer filters', () => {
  it('stores station rules, block length and a window crossing midnight, and answers them back', async () => {
    const driver = await addDriver(running, '+15125550301');
    const filters = openFilters({
      warehouses: ['DAU1', 'DFW6'],
      stationRules: { DFW6: { minHourlyPay: 28, timeBufferMinutes: 90 } },
      minBlockHours: 2,
      maxBlockHours: 4.5,
      weeklySchedule: Object.fromEntries(
        WEEKDAYS.map((d) => [d, [{ start: '22:00', end: '02:00' }]]),
      ),
    });
    const saved = await driver.put('/settings', filters);
    expect(saved.status).toBe(200);
    expect(saved.body.Item).toEqual(filters);
    expect((await driver.get('/settings')).body.Item).toEqual(filters);
  });

  it('names the field at fault', async () => {
    const driver = await addDriver(running, '+15125550302');
    const cases: [Record<string, unknown>, string][] = [
      [{ stationRules: { DFW6: { minHourlyPay: 20 } } }, 'stationRules.DFW6'],
      [{ stationRules: { DAU1: { minHourlyPay: -1 } } }, 'stationRules.DAU1.minHourlyPay'],
      [{ stationRules: { DAU1: { tip: 5 } } }, 'stationRules.DAU1.tip'],
      [{ minBlockHours: 3, maxBlockHours: 2 }, 'maxBlockHours'],
      [{ minBlockHours: 25 }, 'minBlockHours'],
    ];
    for (const [overrides, field] of cases) {
      const refused = await driver.put('/settings', openFilters(overrides));
      expect(refused.status, field).toBe(400);
      expect(refused.body).toMatchObject({ code: 'validation', field });
    }
  });

  it('reads a stored row from before the new fields, with a key it no longer knows', async () => {
    const phone = '+15125550303';
    const driver = await addDriver(running, phone);
    const { warehouses, minHourlyPay, minBlockPay, timeBufferMinutes, weeklySchedule, timeZone } =
      openFilters();
    const old = {
      warehouses,
      minHourlyPay,
      minBlockPay,
      timeBufferMinutes,
      weeklySchedule,
      timeZone,
    };
    await running.gateway.db.query(
      'INSERT INTO driver_settings (user_id, filters, updated_ts) VALUES ($1, $2, $3)',
      [await userId(phone), JSON.stringify({ ...old, autoAccept: true }), Date.now()],
    );
    const read = await driver.get('/settings');
    expect(read.status).toBe(200);
    expect(read.body.Item).toEqual({
      ...old,
      stationRules: {},
      minBlockHours: 0,
      maxBlockHours: null,
    });
  });
});

describe('the catcher with richer filters', () => {
  it("applies a station's own minimum and the block length", async () => {
    const phone = '+15125550304';
    const driver = await addDriver(running, phone);
    await connect(running, driver, phone);
    await driver.put(
      '/settings',
      openFilters({
        warehouses: ['DAU1', 'DHO2'],
        stationRules: { DHO2: { minHourlyPay: 30 } },
        maxBlockHours: 4,
      }),
    );
    await driver.put('/status', { status: 'start' });
    await waitFor(
      () => driver.get('/dashboard'),
      (r) => r.body.Item.searching === true,
    );
    const platform = running.gateway.driver.platform;
    // $100 for 4 hours is $25 an hour: enough for DAU1's general $15, not for DHO2's $30.
    const cheap = await platform.publishOffer(matchingOffer({ serviceAreaId: 'DHO2' }));
    // Five hours on one Austin day, so only its length is at fault whatever the hour of the run.
    const longStart = sameDayStart(3 * HOUR, 5 * HOUR);
    const long = await platform.publishOffer(
      matchingOffer({ pay: 500, startTime: longStart, endTime: longStart + 5 * HOUR }),
    );
    const disliked = await waitFor(
      () => driver.get('/offers?kind=disliked'),
      (r) => r.body.Items.length === 2,
    );
    expect(
      Object.fromEntries(
        disliked.body.Items.map((o: { offerId: string; reason: string }) => [o.offerId, o.reason]),
      ),
    ).toEqual({ [cheap.offerId]: 'hourly-pay', [long.offerId]: 'block-length' });
    const paid = await platform.publishOffer(matchingOffer({ serviceAreaId: 'DHO2', pay: 130 }));
    const won = await waitFor(
      () => driver.get('/offers?kind=won'),
      (r) => r.body.Items.length === 1,
    );
    expect(won.body.Items[0].offerId).toBe(paid.offerId);
    await driver.put('/status', { status: 'stop' });
  });

  it('does not poll for a driver whose schedule is more than a day away, and says when it starts', async () => {
    const phone = '+15125550305';
    const driver = await addDriver(running, phone);
    await connect(running, driver, phone);
    // Only 10:00–12:00 three days from now, on the Austin clock.
    const zone = 'America/Chicago';
    const inThreeDays = new Date(Date.now() + 3 * 86_400_000).toLocaleDateString('en-CA', {
      timeZone: zone,
    });
    const weekday = WEEKDAYS[(new Date(`${inThreeDays}T00:00:00Z`).getUTCDay() + 6) % 7]!;
    const schedule: Record<string, { start: string; end: string }[]> = Object.fromEntries(
      WEEKDAYS.map((d) => [d, []]),
    );
    schedule[weekday] = [{ start: '10:00', end: '12:00' }];
    await driver.put('/settings', openFilters({ weeklySchedule: schedule }));
    await driver.put('/status', { status: 'start' });
    const opens = startOfDay(inThreeDays, zone) + 10 * HOUR;
    const outside = await waitFor(
      () => driver.get('/dashboard'),
      (r) => r.body.Item.notSearchingBecause === 'outside-schedule',
    );
    expect(driverDashboardResponseSchema.parse(outside.body).Item).toMatchObject({
      searching: false,
      searchingFrom: opens - SEARCH_AHEAD_MS,
    });
    const id = await userId(phone);
    const { catcher } = running.gateway.driver;
    // The lease is held (the round ran), yet no poller runs for the driver.
    await eventually(async () => {
      const [lease] = await running.gateway.db.query<{ holder: string }>(
        'SELECT holder FROM driver_leases WHERE user_id = $1',
        [id],
      );
      expect(lease?.holder).toBe(catcher.holderId);
    });
    await catcher.settle();
    expect(catcher.heldDrivers()).not.toContain(id);
    // Every day open: searching at once.
    await driver.put('/settings', openFilters());
    await waitFor(
      () => driver.get('/dashboard'),
      (r) => r.body.Item.searching === true,
    );
    // Saving woke the catcher; its round starts the poller.
    await eventually(() => expect(catcher.heldDrivers()).toContain(id));
    await driver.put('/status', { status: 'stop' });
  });
});

describe('what would I have caught?', () => {
  it('compares edited filters with the saved ones over the offers seen in the last 7 days', async () => {
    const phone = '+15125550306';
    const driver = await addDriver(running, phone);
    await driver.put('/settings', openFilters({ minHourlyPay: 22 }));
    const id = await userId(phone);
    const now = Date.now();
    // Seven 3-hour blocks at $60 ($20 an hour), one a day, and one 8 days ago, out of reach.
    const record = (i: number, daysAgo: number) => {
      const seenAt = now - daysAgo * 86_400_000;
      // Starting and ending on one Austin day: a block past midnight fits no day's window.
      const startTime = sameDayStart(seenAt - Date.now() + HOUR, 3 * HOUR);
      return {
        userId: id,
        offerId: `seen-${i}`,
        kind: 'disliked' as const,
        reason: 'hourly-pay',
        serviceAreaId: 'DAU1',
        startTime,
        endTime: startTime + 3 * HOUR,
        pay: 60,
        seenAt,
      };
    };
    await recordOffers(running.gateway.db, [
      ...Array.from({ length: 7 }, (_, i) => record(i, i + 0.5)),
      record(7, 8),
    ]);

    const preview = await driver.post('/settings/preview', openFilters({ minHourlyPay: 20 }));
    expect(preview.status).toBe(200);
    expect(filterPreviewResponseSchema.parse(preview.body).Item).toMatchObject({
      current: { blocks: 0, pay: 0 },
      proposed: { blocks: 7, pay: 420 },
      deltaBlocks: 7,
      deltaPay: 420,
      offersConsidered: 7,
      estimate: true,
    });
    // Nothing was saved by previewing.
    expect((await driver.get('/settings')).body.Item.minHourlyPay).toBe(22);

    const bad = await driver.post('/settings/preview', openFilters({ minHourlyPay: -5 }));
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('minHourlyPay');
  });
});
