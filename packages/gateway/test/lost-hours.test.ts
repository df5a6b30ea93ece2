// Credit for lost hours on a real gateway: the catcher records the platform failing a driver's
// polls, a restart after a silent heartbeat records the gateway down, and the weekly credit adds
// the scheduled time lost to the driver's service once per week, listed on the billing page.
import { afterEach, expect, it } from 'vitest';
import { type Db, openDatabase } from '../src/storage/db.js';
import {
  addDriver,
  api,
  cognitoUser,
  connect,
  type DriverGateway,
  HOUR,
  openFilters,
  startDriverGateway,
  userPool,
  waitFor,
} from './driver-harness.js';
import { signedIn } from './identity-harness.js';

const DAY = 24 * HOUR;
const MINUTE = 60_000;

let running: DriverGateway | undefined;
let shared: Db | undefined;

afterEach(async () => {
  await running?.close();
  running = undefined;
  await shared?.close();
  shared = undefined;
});

/** A paid driver searching every hour of every day (Chicago), the system on. */
async function paidSearchingDriver(gateway: DriverGateway, phone: string, paidUntil: number) {
  const driver = await addDriver(gateway, phone, { expiration_ts: paidUntil });
  await connect(gateway, driver, phone);
  await driver.put('/settings', openFilters());
  await driver.put('/status', { status: 'start' });
  await waitFor(
    () => driver.get('/dashboard'),
    (r) => r.body.Item.searching === true,
  );
  return driver;
}

/** The billing page's client for a driver added before, signed in again on this gateway. */
async function signInAgain(gateway: DriverGateway, phone: string) {
  const session = await signedIn(cognitoUser(userPool(gateway), phone), 'Driver-pass-123');
  return api(gateway.url, session.getIdToken().getJwtToken());
}

async function lostTimeOf(db: Db, phone: string) {
  return db.query<{ reason: string; start_ts: number; end_ts: number }>(
    `SELECT l.reason, l.start_ts, l.end_ts FROM lost_time l JOIN users u ON u.id = l.user_id
     WHERE u.phone_number = $1 ORDER BY l.start_ts`,
    [phone],
  );
}

async function expirationOf(db: Db, phone: string): Promise<number> {
  const [row] = await db.query<{ expiration_ts: number }>(
    'SELECT expiration_ts FROM users WHERE phone_number = $1',
    [phone],
  );
  return Number(row!.expiration_ts);
}

it('records the platform failing three polls in a row as an outage, from the first failure to the next answer', async () => {
  running = await startDriverGateway({
    catcher: { pollIntervalMs: 30, backoffBaseMs: 20, backoffMaxMs: 60 },
    lostHours: { failuresToCount: 3 },
  });
  const phone = '+15125550701';
  await paidSearchingDriver(running, phone, Date.now() + 30 * DAY);
  const { platform } = running.gateway.driver;
  const stats = platform.stats;
  const before = [...stats.values()][0]?.failures ?? 0;
  const switchedOn = Date.now();
  platform.setOutage(true);
  await waitFor(
    async () => [...stats.values()][0]?.failures ?? 0,
    (failures) => failures >= before + 4,
  );
  platform.setOutage(false);
  const switchedOff = Date.now();
  const [outage] = await waitFor(
    () => lostTimeOf(running!.gateway.db, phone),
    (rows) => rows.length === 1,
  );
  expect(outage!.reason).toBe('platform-outage');
  expect(outage!.start_ts).toBeGreaterThanOrEqual(switchedOn);
  expect(outage!.start_ts).toBeLessThanOrEqual(switchedOff);
  expect(outage!.end_ts).toBeGreaterThan(switchedOff);
}, 60_000);

it('keeps throttling shorter than the setting out of lost time', async () => {
  running = await startDriverGateway({
    catcher: { pollIntervalMs: 20, minPollIntervalMs: 0 },
    sandboxPlatform: { maxPollsPerSecond: 4, retryAfterMs: 300 },
    lostHours: { failuresToCount: 3, throttleMinMs: 600_000 },
  });
  const phone = '+15125550702';
  const driver = await addDriver(running, phone, { expiration_ts: Date.now() + 30 * DAY });
  await connect(running, driver, phone);
  await driver.put('/settings', openFilters());
  await driver.put('/status', { status: 'start' });
  const stats = running.gateway.driver.platform.stats;
  // Throttled and answered again, several times over.
  await waitFor(
    async () => [...stats.values()][0]?.throttled ?? 0,
    (throttled) => throttled >= 3,
  );
  await running.gateway.driver.stop();
  expect(await lostTimeOf(running.gateway.db, phone)).toEqual([]);
}, 60_000);

it('credits the time the gateway was down once, the week after, however many sweeps run, and lists it on the billing page', async () => {
  shared = await openDatabase({ kind: 'pglite' });
  let clock = Date.now();
  const config = { goodStandingSweepMs: 0, lostHours: { minimumMinutes: 1 } };
  running = await startDriverGateway(config, { db: shared });
  const phone = '+15125550703';
  const paidUntil = Date.now() + 30 * DAY;
  await paidSearchingDriver(running, phone, paidUntil);
  await running.close();
  running = undefined;
  // Three hours with no gateway running: the last mark it left is that old at the next start.
  const downSince = Date.now() - 3 * HOUR;
  await shared.query('UPDATE gateway_heartbeat SET beat_ts = $1', [downSince]);

  running = await startDriverGateway(config, { db: shared, paymentsClock: () => clock });
  const [down] = await waitFor(
    () => lostTimeOf(shared!, phone),
    (rows) => rows.length === 1,
  );
  expect(down).toMatchObject({ reason: 'gateway-down', start_ts: downSince });
  // A second process starting now finds a fresh mark: nothing more is recorded.
  const driver = await signInAgain(running, phone);
  let billing = (await driver.get('/billing')).body;
  expect(billing.lostHoursCredits).toEqual([]);

  // Not before the week is over: the day after it ends, every week the gap touched is credited.
  await running.gateway.payments.sweepNow();
  expect(await expirationOf(shared, phone)).toBe(paidUntil);
  clock = Date.now() + 9 * DAY;
  // Two sweeps at once (two processes): the driver-week key lets one of them credit it.
  await Promise.all([running.gateway.payments.sweepNow(), running.gateway.payments.sweepNow()]);
  billing = (await driver.get('/billing')).body;
  const credits: { week: string; minutes: number; reasons: { reason: string }[] }[] =
    billing.lostHoursCredits;
  const minutes = credits.reduce((n, c) => n + c.minutes, 0);
  // Three hours and the moments the restart took, in whole minutes per week.
  expect(minutes).toBeGreaterThanOrEqual(179);
  expect(minutes).toBeLessThanOrEqual(181);
  expect(credits.every((c) => c.reasons.every((r) => r.reason === 'gateway-down'))).toBe(true);
  expect(credits.every((c) => /^\d{4}-\d{2}-\d{2}$/.test(c.week))).toBe(true);
  expect(await expirationOf(shared, phone)).toBe(paidUntil + minutes * MINUTE);
  expect(billing.expirationDateTimestamp).toBe(paidUntil + minutes * MINUTE);

  // The next hour's sweep finds the weeks credited: the service time grows once.
  clock += HOUR;
  await running.gateway.payments.sweepNow();
  expect(await expirationOf(shared, phone)).toBe(paidUntil + minutes * MINUTE);
  expect((await driver.get('/billing')).body.lostHoursCredits).toEqual(credits);
}, 90_000);

it('credits nothing to a driver who never paid, nor anyone when crediting is off', async () => {
  shared = await openDatabase({ kind: 'pglite' });
  const clock = Date.now() + 9 * DAY;
  running = await startDriverGateway(
    { goodStandingSweepMs: 0, lostHours: { enabled: false } },
    { db: shared, paymentsClock: () => clock },
  );
  const paid = await addDriver(running, '+15125550704', { expiration_ts: Date.now() + DAY });
  await paid.put('/settings', openFilters());
  const unpaid = await addDriver(running, '+15125550705');
  await unpaid.put('/settings', openFilters());
  const outage = { start: Date.now() - 5 * HOUR, end: Date.now() - HOUR };
  await shared.query(
    `INSERT INTO lost_time (user_id, reason, start_ts, end_ts)
     SELECT id, 'platform-outage', $1, $2 FROM users WHERE phone_number = ANY($3::text[])`,
    [outage.start, outage.end, ['+15125550704', '+15125550705']],
  );
  await running.gateway.payments.sweepNow();
  expect((await paid.get('/billing')).body.lostHoursCredits).toEqual([]);
  await running.close();

  running = await startDriverGateway(
    { goodStandingSweepMs: 0, lostHours: { minimumMinutes: 1 } },
    { db: shared, paymentsClock: () => clock },
  );
  await running.gateway.payments.sweepNow();
  const unpaidAgain = await signInAgain(running, '+15125550705');
  expect((await unpaidAgain.get('/billing')).body.lostHoursCredits).toEqual([]);
  const paidAgain = await signInAgain(running, '+15125550704');
  const credits: { minutes: number; reasons: { reason: string }[] }[] = (
    await paidAgain.get('/billing')
  ).body.lostHoursCredits;
  // Four hours, in whole minutes per week when the outage crossed into a new week.
  expect(credits.reduce((n, c) => n + c.minutes, 0)).toBeGreaterThanOrEqual(4 * 60 - 1);
  expect(credits.every((c) => c.reasons[0]!.reason === 'platform-outage')).toBe(true);
}, 90_000);
