// Credit for lost hours on the driver's Billing page, in Chromium: a week in which the platform
// failed and the gateway was down during the driver's schedule is credited by the billing sweep
// and listed with the time added and its reasons, in English and Spanish.
import { everyDay, startOfDay } from '@blockcatch/sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type BrowserSandbox,
  DRIVER,
  extendService,
  settled,
  startBrowserSandbox,
} from './harness.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let sandbox: BrowserSandbox;

beforeAll(async () => {
  sandbox = await startBrowserSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});

/** The Monday two weeks before this one, in Chicago: a week long over, inside the look-back. */
function mondayTwoWeeksAgo(): string {
  const day = new Date(Date.now() - 14 * DAY);
  const back = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - back * DAY).toISOString().slice(0, 10);
}

it('lists a week credited for lost hours with the time added and why, in both languages', async () => {
  const { db } = sandbox.gateway;
  const zone = 'America/Chicago';
  const week = mondayTwoWeeksAgo();
  await extendService(sandbox.gateway, DRIVER.phoneNumber);
  // Searching every hour of every day, so each minute lost is a scheduled one.
  await db.query(
    `UPDATE driver_settings SET filters = filters || $2::jsonb
     WHERE user_id = (SELECT id FROM users WHERE phone_number = $1)`,
    [
      DRIVER.phoneNumber,
      JSON.stringify({
        weeklySchedule: everyDay([{ start: '00:00', end: '24:00' }]),
        timeZone: zone,
      }),
    ],
  );
  // Wednesday 10:00–12:00 the platform failed; 14:00–14:45 no gateway ran.
  const wednesday = startOfDay(week, zone) + 2 * DAY;
  await db.query(
    `INSERT INTO lost_time (user_id, reason, start_ts, end_ts)
     SELECT id, r.reason, r.start_ts, r.end_ts FROM users,
       (VALUES ('platform-outage', $2::bigint, $3::bigint), ('gateway-down', $4::bigint, $5::bigint))
         AS r (reason, start_ts, end_ts)
     WHERE phone_number = $1`,
    [
      DRIVER.phoneNumber,
      wednesday + 10 * HOUR,
      wednesday + 12 * HOUR,
      wednesday + 14 * HOUR,
      wednesday + 14.75 * HOUR,
    ],
  );
  await sandbox.gateway.payments.sweepNow();

  const session = await sandbox.sessionOf(DRIVER);
  for (const [language, title, texts] of [
    [
      'en',
      'Credit for lost hours',
      ['2 h 45 min added', 'BlockCatch down 45 min', 'Platform outage 2 h'],
    ],
    [
      'es',
      'Crédito por horas perdidas',
      ['2 h 45 min añadidos', 'BlockCatch sin servicio 45 min', 'Falla de la plataforma 2 h'],
    ],
  ] as const) {
    const { page, errors } = await sandbox.newPage({ language, storageState: session });
    await page.goto('/flex/billing');
    await settled(page);
    await page.getByRole('heading', { name: title }).waitFor();
    const credits = page.getByTestId('lost-hours-credits');
    await credits.waitFor();
    const text = (await credits.textContent()) ?? '';
    for (const expected of texts) expect(text).toContain(expected);
    expect(await credits.locator('li').count()).toBe(1);
    expect(errors).toEqual([]);
    await page.context().close();
  }
}, 120_000);
