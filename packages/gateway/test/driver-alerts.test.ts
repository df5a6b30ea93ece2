import { formatIsoDay, startOfDay, WEEK_MS } from '@blockcatch/sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildGateway, type Gateway } from '../src/server.js';
import { readOutbox } from '../src/storage/outbox.js';
import {
  addDriver,
  type DriverGateway,
  FAST,
  matchingOffer,
  openFilters,
  searchingDriver,
  startDriverGateway,
  waitFor,
} from './driver-harness.js';
import { CARDS, checkoutAndPay, postForm } from './helpers/checkout.js';
import { client } from './helpers/drivers.js';

vi.setConfig({ testTimeout: 90_000 });

const CONFIG = {
  // The hour the suite runs at must not matter; which alerts wait for quiet hours is checked on the job.
  quietHours: false,
  alerts: { sweepMs: 0 },
} as const;

let running: DriverGateway;
/** A second gateway on the same database, as a second process would be. */
let other: Gateway;

beforeAll(async () => {
  running = await startDriverGateway(CONFIG);
  other = await buildGateway(
    {
      port: 0,
      logLevel: 'silent',
      seed: false,
      ...CONFIG,
      catcher: { enabled: false },
      // Its sandbox must not publish offers of its own into the shared database: a searching
      // driver of the first gateway would win them, and a test would count a second won block.
      sandboxPlatform: FAST.sandboxPlatform,
    },
    { db: running.gateway.db },
  );
});

afterAll(async () => {
  await other?.close();
  await running?.close();
});

async function textsTo(phone: string, containing: string) {
  const messages = await readOutbox(running.gateway.db, { to: phone, limit: 50 });
  return messages.filter((m) => m.body.includes(containing)).map((m) => m.body);
}

/** Waits until `phone` got exactly one text containing `containing`, and answers it. */
async function oneTextTo(phone: string, containing: string): Promise<string> {
  const [text] = await waitFor(
    () => textsTo(phone, containing),
    (texts) => texts.length >= 1,
  );
  // Every alert queued so far has been written; the worker delivered what it will.
  await running.gateway.alerts.settle();
  const jobs = await alertJobs(phone);
  await waitFor(
    () => textsTo(phone, containing),
    (texts) => texts.length === jobs.filter((j) => j.body.includes(containing)).length,
  );
  expect(await textsTo(phone, containing)).toHaveLength(1);
  return text!;
}

async function alertJobs(phone: string) {
  return running.gateway.db.query<{ idempotency_key: string; body: string; quiet_hours: boolean }>(
    `SELECT j.idempotency_key, j.body, j.quiet_hours FROM send_jobs j
     JOIN users u ON u.id = j.created_by
     WHERE u.phone_number = $1 AND j.idempotency_key LIKE 'alert:%'`,
    [phone],
  );
}

async function userId(phone: string): Promise<string> {
  const [row] = await running.gateway.db.query<{ id: string }>(
    'SELECT id FROM users WHERE phone_number = $1',
    [phone],
  );
  return row!.id;
}

describe('settings', () => {
  it('has every alert on by SMS until the driver turns one off, and refuses an unknown switch', async () => {
    const driver = await addDriver(running, '+15125550401');
    const initial = await driver.get('/alerts');
    expect(initial.status).toBe(200);
    expect(initial.body.Item.channel).toBe('sms');
    expect(Object.values(initial.body.Item.enabled).every((on) => on === true)).toBe(true);

    const off = { ...initial.body.Item, enabled: { ...initial.body.Item.enabled, digest: false } };
    const refused = await driver.put('/alerts', off);
    expect(refused.status).toBe(400);

    const chosen = {
      channel: 'whatsapp',
      enabled: { ...initial.body.Item.enabled, weeklyDigest: false },
    };
    expect((await driver.put('/alerts', chosen)).status).toBe(200);
    expect((await driver.get('/alerts')).body.Item).toEqual(chosen);
  });
});

describe('alerts', () => {
  it('texts a won block once, at any hour, with its time, station, pay and the calendar link', async () => {
    const phone = '+15125550402';
    const driver = await searchingDriver(running, phone);
    await running.gateway.driver.platform.publishOffer(matchingOffer({ pay: 123 }));
    await waitFor(
      () => driver.get('/offers?kind=won'),
      (r) => r.body.Items.length === 1,
    );
    const text = await oneTextTo(phone, 'won a block');
    expect(text).toContain('Austin (DAU1)');
    expect(text).toContain('$123');
    expect(text).toMatch(/\d{1,2}:\d{2}/);
    expect(text).toContain('/flex/calendar');
    const [job] = (await alertJobs(phone)).filter((j) => j.body.includes('won a block'));
    expect(job!.quiet_hours).toBe(false);
  });

  it('does not text a won block when the driver turned that alert off', async () => {
    const phone = '+15125550403';
    const driver = await searchingDriver(running, phone);
    const { Item } = (await driver.get('/alerts')).body;
    await driver.put('/alerts', { ...Item, enabled: { ...Item.enabled, blockWon: false } });
    await running.gateway.driver.platform.publishOffer(matchingOffer());
    await waitFor(
      () => driver.get('/offers?kind=won'),
      (r) => r.body.Items.length === 1,
    );
    await running.gateway.driver.catcher.settle();
    await running.gateway.alerts.settle();
    expect(await alertJobs(phone)).toEqual([]);
  });

  it('texts a driver whose platform asks for a new code, once, with the link to sign in again', async () => {
    const phone = '+15125550404';
    const driver = await searchingDriver(running, phone);
    await running.gateway.driver.platform.askForNewCode(phone);
    await waitFor(
      () => driver.get('/dashboard'),
      (r) => r.body.Item.notSearchingBecause === 'needs-code',
    );
    const text = await oneTextTo(phone, 'new code');
    expect(text).toContain('/flex/login');
  });

  it('texts a failed renewal once, in Spanish for a Spanish-speaking driver, with the billing link', async () => {
    const phone = '+15125550405';
    const driver = await addDriver(running, phone);
    await running.gateway.db.query(
      "UPDATE users SET preferred_language = 'es' WHERE phone_number = $1",
      [phone],
    );
    const call = client(running.url, driver.token);
    const { page } = await checkoutAndPay(running.url, call, { mode: 'subscription' });
    expect(page.status).toBe(303);
    // The card saved in the portal now fails whenever it is charged.
    const portal = await call('POST', '/api/flex/v1/billing/portal', {});
    const saved = await postForm(
      running.url,
      `${new URL(portal.body.url, running.url).pathname}/card`,
      {
        number: CARDS.failsLater,
        expiry: '12/40',
        cvc: '123',
      },
    );
    expect(saved.status).toBe(200);
    // Both processes run the billing sweep a week later: the renewal is tried, and failed, once.
    const weekLater = Date.now() + WEEK_MS + 60_000;
    await Promise.all([
      running.gateway.payments.sandbox?.advance(weekLater),
      other.payments.sandbox?.advance(weekLater),
    ]);
    const text = await oneTextTo(phone, 'falló');
    expect(text).toContain('$25');
    expect(text).toContain('/flex/billing');
  });

  it('texts a service ending within 24 hours once, though two gateways sweep for it at once', async () => {
    const phone = '+15125550406';
    const expires = Date.now() + 5 * 3_600_000;
    await addDriver(running, phone, { expiration_ts: expires });
    const [a, b] = await Promise.all([running.gateway.alerts.sweepNow(), other.alerts.sweepNow()]);
    expect(a + b).toBeGreaterThanOrEqual(1);
    await Promise.all([running.gateway.alerts.sweepNow(), other.alerts.sweepNow()]);
    const text = await oneTextTo(phone, 'service ends');
    expect(text).toContain('/payment');
    expect(await alertJobs(phone)).toHaveLength(1);
  });

  it('sends one message when two gateways report the same event together', async () => {
    const phone = '+15125550407';
    await addDriver(running, phone);
    const id = await userId(phone);
    const event = { kind: 'disconnected', at: Date.now() } as const;
    const outcomes = await Promise.all([
      running.gateway.alerts.notify(id, event),
      other.alerts.notify(id, event),
      running.gateway.alerts.notify(id, event),
    ]);
    expect(outcomes.filter((o) => o === 'queued')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'already-queued')).toHaveLength(2);
    const text = await oneTextTo(phone, 'disconnected');
    expect(text).toContain('/flex/login');
  });
});

describe('weekly summary', () => {
  it('on Monday texts once what a lower minimum would have caught last week, and nothing to a driver it would not help', async () => {
    const HOUR = 3_600_000;
    const zone = 'America/Chicago';
    // The next Monday noon on the driver's clock.
    let day = Date.now();
    while (new Date(`${formatIsoDay(day, zone)}T12:00:00Z`).getUTCDay() !== 1) day += 24 * HOUR;
    const monday = startOfDay(formatIsoDay(day, zone), zone) + 12 * HOUR;
    const helped = '+15125550409';
    const unhelped = '+15125550410';
    for (const phone of [helped, unhelped]) {
      const driver = await addDriver(running, phone);
      expect((await driver.put('/settings', openFilters({ minHourlyPay: 25 }))).status).toBe(200);
    }
    // Last week the catcher refused three 4-hour blocks at $22-23 an hour for the first driver.
    const rates = [22, 22, 23];
    await running.gateway.db.query(
      `INSERT INTO driver_offers (user_id, offer_id, kind, reason, service_area_id, start_ts,
         end_ts, pay, seen_ts)
       SELECT $1, 'digest-' || i, 'disliked', 'min-hourly-pay', 'DAU1', s + 3 * $3, s + 7 * $3,
              4 * r, s
       FROM unnest($2::float8[]) WITH ORDINALITY AS t(r, i), LATERAL (SELECT $4 - i * 24 * $3 AS s) x`,
      [await userId(helped), rates, HOUR, monday],
    );
    const queued = await Promise.all([
      running.gateway.alerts.digestNow(monday),
      other.alerts.digestNow(monday),
    ]);
    expect(queued[0] + queued[1]).toBe(1);
    expect(await running.gateway.alerts.digestNow(monday)).toBe(0);
    const text = await oneTextTo(helped, 'weekly');
    expect(text).toContain(
      'lowering your minimum to $22/h would have caught 3 more blocks worth $268',
    );
    expect(text).toContain('/flex/settings');
    expect(await alertJobs(unhelped)).toEqual([]);
    // Not Monday on the driver's clock: nothing is due.
    expect(await running.gateway.alerts.digestNow(monday + 24 * HOUR)).toBe(0);
  });
});

describe('throttling', () => {
  let throttled: DriverGateway;
  afterAll(async () => {
    await throttled?.close();
  });

  it('texts once when the platform pauses searching for long, saying until when', async () => {
    throttled = await startDriverGateway({
      ...CONFIG,
      alerts: { sweepMs: 0, throttleAlertMinMs: 30_000 },
      catcher: { pollIntervalMs: 20, minPollIntervalMs: 0 },
      sandboxPlatform: { maxPollsPerSecond: 1, retryAfterMs: 60_000 },
    });
    const phone = '+15125550408';
    const driver = await searchingDriver(throttled, phone, { orThrottled: true });
    await waitFor(
      () => driver.get('/dashboard'),
      (r) => r.body.Item.notSearchingBecause === 'throttled',
    );
    const texts = await waitFor(
      async () =>
        (await readOutbox(throttled.gateway.db, { to: phone, limit: 20 })).filter((m) =>
          m.body.includes('slow down'),
        ),
      (found) => found.length >= 1,
    );
    await throttled.gateway.alerts.settle();
    expect(texts).toHaveLength(1);
    expect(texts[0]!.body).toMatch(/resumes at \d{1,2}:\d{2}/);
  });
});
