// A driver's outcomes on a real gateway, from the offers the catcher recorded: the day and the
// week, refusals by rule with the filter to loosen, reaction time; an admin reads the same per
// driver and across drivers, a driver may not.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type OfferRecord, recordOffers } from '../src/storage/driver-offers.js';
import { addDriver, type DriverGateway, HOUR, startDriverGateway } from './driver-harness.js';

let running: DriverGateway;

beforeAll(async () => {
  running = await startDriverGateway({ catcher: { enabled: false } });
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

function record(
  user: string,
  id: string,
  seenAgo: number,
  rest: Partial<OfferRecord>,
): OfferRecord {
  const seenAt = Date.now() - seenAgo;
  return {
    userId: user,
    offerId: id,
    kind: 'disliked',
    reason: null,
    serviceAreaId: 'DAU1',
    startTime: seenAt + 5 * HOUR,
    endTime: seenAt + 9 * HOUR,
    pay: 100,
    seenAt,
    ...rest,
  };
}

it('counts the day and the week, names the rules that refused most with their filter, and says how fast', async () => {
  const phone = '+15125550601';
  const driver = await addDriver(running, phone);
  const other = '+15125550602';
  await addDriver(running, other);
  const me = await userId(phone);
  const records: OfferRecord[] = [];
  // Today: 2 won (reacting in 40 and 60 ms), 1 lost to a faster driver, 4 refused for pay per hour, 2 for schedule, 1 overlap, 1 block pay.
  const accepted = (id: string, kind: 'won' | 'gone', ms: number, ago: number) => {
    const r = record(me, id, ago, { kind });
    return { ...r, acceptSentAt: r.seenAt + ms, answeredAt: r.seenAt + ms + 100 };
  };
  records.push(accepted('d-won-1', 'won', 40, HOUR), accepted('d-won-2', 'won', 60, 2 * HOUR));
  records.push(accepted('d-gone', 'gone', 50, 3 * HOUR));
  for (let i = 0; i < 4; i++)
    records.push(record(me, `d-hourly-${i}`, HOUR, { reason: 'hourly-pay' }));
  for (let i = 0; i < 2; i++)
    records.push(record(me, `d-sched-${i}`, HOUR, { reason: 'schedule' }));
  records.push(record(me, 'd-overlap', HOUR, { reason: 'overlap' }));
  records.push(record(me, 'd-block', HOUR, { reason: 'block-pay' }));
  // Three days ago: 1 won (slow, 4 s) and 5 refused for the hours cap; counted in the week only.
  records.push(accepted('w-won', 'won', 4000, 3 * 24 * HOUR));
  for (let i = 0; i < 5; i++) {
    records.push(record(me, `w-cap-${i}`, 3 * 24 * HOUR, { reason: 'hours-per-week' }));
  }
  // Ten days ago: outside both.
  records.push(record(me, 'old', 10 * 24 * HOUR, { reason: 'hourly-pay' }));
  // Another driver's offer: only in the all-driver figures.
  records.push(record(await userId(other), 'o-won', HOUR, { kind: 'won' }));
  await recordOffers(running.gateway.db, records);

  const mine = await driver.get('/outcomes');
  expect(mine.status).toBe(200);
  const { day, week } = mine.body.Item;
  expect(day).toMatchObject({ seen: 11, matching: 3, won: 2, lostToFaster: 1, refused: 8 });
  expect(day.topRefusals).toEqual([
    { reason: 'hourly-pay', count: 4, filter: 'minHourlyPay' },
    { reason: 'schedule', count: 2, filter: 'weeklySchedule' },
    { reason: 'block-pay', count: 1, filter: 'minBlockPay' },
  ]);
  expect(day.medianReactionMs).toBe(50);
  expect(day.reaction).toBe('blink');
  expect(week).toMatchObject({ seen: 17, matching: 4, won: 3, lostToFaster: 1, refused: 13 });
  expect(week.topRefusals[0]).toEqual({
    reason: 'hours-per-week',
    count: 5,
    filter: 'maxHoursPerWeek',
  });
  expect(week.medianReactionMs).toBe(55);

  // A driver may not read another's, nor everyone's.
  expect((await driver.get(`/admin/users/${encodeURIComponent(other)}/outcomes`)).status).toBe(403);
  expect((await driver.get('/admin/outcomes')).status).toBe(403);
  const admin = await addDriver(running, '+15125550609', { is_admin: true });
  const perDriver = await admin.get(`/admin/users/${encodeURIComponent(phone)}/outcomes`);
  expect(perDriver.body.Item.week.seen).toBe(17);
  const all = await admin.get('/admin/outcomes');
  expect(all.body.Item.day).toMatchObject({ seen: 12, won: 3 });
});
