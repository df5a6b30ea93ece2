// The calendar's week in a real browser whose zone (New York) is not the driver's (Chicago): days
// as columns on a desk and stacked on a phone, today marked, blocks as cards with time, pay and
// station, previous and next week, and the week's blocks, hours and pay.
import { formatIsoDay, startOfDay } from '@blockcatch/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserSandbox,
  DRIVER,
  extendService,
  overflowsHorizontally,
  type StorageState,
  settled,
  startBrowserSandbox,
} from './harness.js';

const ZONE = 'America/Chicago';
const HOUR = 3_600_000;

let sandbox: BrowserSandbox;
let session: StorageState;
let userId: string;
beforeAll(async () => {
  // The catcher off: a block it wins from the sandbox's own offers would join the test's.
  sandbox = await startBrowserSandbox({ catcher: { enabled: false } });
  await extendService(sandbox.gateway, DRIVER.phoneNumber);
  const users = await sandbox.gateway.db.query<{ id: string }>(
    "SELECT id FROM users WHERE phone_number = $1 AND product = 'flex'",
    [DRIVER.phoneNumber],
  );
  userId = users[0]!.id;
  session = await sandbox.sessionOf(DRIVER);
  await sandbox.gateway.db.query("DELETE FROM driver_offers WHERE user_id = $1 AND kind = 'won'", [
    userId,
  ]);
  const today = formatIsoDay(Date.now(), ZONE);
  const midnight = startOfDay(today, ZONE);
  // Monday of the next week, on the driver's clock.
  const weekday = new Date(`${today}T12:00:00Z`).getUTCDay();
  const nextMonday = new Date(Date.parse(`${today}T12:00:00Z`) + (8 - (weekday || 7)) * 24 * HOUR)
    .toISOString()
    .slice(0, 10);
  await wonBlock('late-today', midnight + 20 * HOUR, 4, 90, 'DAU1');
  await wonBlock('early-today', midnight + 9 * HOUR, 2, 40, 'DHO2');
  await wonBlock('next-week', startOfDay(nextMonday, ZONE) + 10 * HOUR, 3.5, 50.55, 'DFW6');
}, 120_000);
afterAll(async () => {
  await sandbox?.close();
});

async function wonBlock(id: string, start: number, hours: number, pay: number, area: string) {
  await sandbox.gateway.db.query(
    `INSERT INTO driver_offers (user_id, offer_id, kind, reason, service_area_id, start_ts,
       end_ts, pay, seen_ts)
     VALUES ($1, $2, 'won', NULL, $3, $4, $5, $6, $7)`,
    [userId, id, area, start, start + hours * HOUR, pay, Date.now()],
  );
}

describe('the calendar week', () => {
  it('shows days as columns, today marked with its blocks in order, and the week totals', async () => {
    const { page, errors } = await sandbox.newPage({ width: 1366, storageState: session });
    await page.goto('/flex/calendar');
    await settled(page);
    const days = page.locator('.week-day');
    await page.getByTestId('week-totals').waitFor();
    expect(await days.count()).toBe(7);
    const boxes = await Promise.all((await days.all()).map((d) => d.boundingBox()));
    for (let i = 1; i < 7; i++) {
      expect(boxes[i]!.x).toBeGreaterThan(boxes[i - 1]!.x);
      expect(Math.abs(boxes[i]!.y - boxes[0]!.y)).toBeLessThan(2);
    }
    const today = page.locator('.week-day[aria-current="date"]');
    await today.getByText('Today').waitFor();
    const cards = today.locator('.block-card');
    expect(
      await cards.evaluateAll((all) => all.map((c) => c.getAttribute('data-offer-id'))),
    ).toEqual(['early-today', 'late-today']);
    // On the driver's clock: 9:00 in Chicago is 10:00 in New York.
    expect(await cards.first().locator('.offer-time').textContent()).toMatch(
      /^9:00\s*–\s*11:00\s*AM C[SD]T$/,
    );
    await cards.first().getByText('$40.00').waitFor();
    await cards.first().getByText('Houston (DHO2)').waitFor();
    expect(await page.getByTestId('week-totals').textContent()).toBe(
      'Week total: 2 blocks, 6 hours, $130.00',
    );
    await page.getByText(/Times in Central Time/).waitFor();

    await page.getByRole('button', { name: 'Next week' }).click();
    await page.locator('[data-offer-id="next-week"]').waitFor();
    expect(await page.locator('.week-day[aria-current="date"]').count()).toBe(0);
    expect(await page.getByTestId('week-totals').textContent()).toBe(
      'Week total: 1 block, 3.5 hours, $50.55',
    );
    await page.getByRole('button', { name: 'Previous week' }).click();
    await page.locator('[data-offer-id="early-today"]').waitFor();
    await page.getByRole('button', { name: 'Previous week' }).click();
    await page.getByText('Week total: 0 blocks, 0 hours, $0.00').waitFor();
    await page.getByRole('button', { name: 'This week' }).click();
    await page.locator('.week-day[aria-current="date"]').waitFor();
    expect(errors).toEqual([]);
  });

  it('stacks the days on a phone without scrolling sideways, in Spanish too', async () => {
    const { page, errors } = await sandbox.newPage({
      width: 375,
      language: 'es',
      storageState: session,
    });
    await page.goto('/flex/calendar');
    await settled(page);
    await page.getByText('Total de la semana: 2 bloques, 6 horas, $130.00').waitFor();
    await page.locator('.week-day[aria-current="date"]').getByText('Hoy').waitFor();
    const boxes = await Promise.all(
      (await page.locator('.week-day').all()).map((d) => d.boundingBox()),
    );
    for (let i = 1; i < 7; i++) expect(boxes[i]!.y).toBeGreaterThan(boxes[i - 1]!.y);
    expect(await overflowsHorizontally(page)).toBe(false);
    expect(errors).toEqual([]);
  });
});
