// A driver's times in a real browser whose zone (New York) is not the driver's saved one
// (Chicago): the same won block reads the same everywhere, on the driver's zone, marked with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserSandbox,
  DRIVER,
  extendService,
  type StorageState,
  settled,
  startBrowserSandbox,
} from './harness.js';

const DRIVER_ZONE = 'America/Chicago';
const HOUR = 3_600_000;

let sandbox: BrowserSandbox;
let session: StorageState;
let userId: string;
beforeAll(async () => {
  sandbox = await startBrowserSandbox();
  await extendService(sandbox.gateway, DRIVER.phoneNumber);
  const users = await sandbox.gateway.db.query<{ id: string }>(
    "SELECT id FROM users WHERE phone_number = $1 AND product = 'flex'",
    [DRIVER.phoneNumber],
  );
  userId = users[0]!.id;
  session = await sandbox.sessionOf(DRIVER);
});
afterAll(async () => {
  await sandbox?.close();
});

/** Records a block the driver won, starting at `start`, seen now. */
async function wonBlock(offerId: string, start: number, hours: number): Promise<void> {
  await sandbox.gateway.db.query(
    `INSERT INTO driver_offers (user_id, offer_id, kind, reason, service_area_id, start_ts,
       end_ts, pay, seen_ts)
     VALUES ($1, $2, 'won', NULL, 'DAU1', $3, $4, 90, $5)`,
    [userId, offerId, start, start + hours * HOUR, Date.now()],
  );
}

describe("a driver's times", () => {
  it('show one won block at the same time on the dashboard and the calendar, on the saved zone', async () => {
    // Tomorrow at 12:15 UTC: a quarter past the hour in both zones, an hour apart.
    const start = (Math.floor(Date.now() / (24 * HOUR)) + 1) * 24 * HOUR + 12 * HOUR + 15 * 60_000;
    // Only this block among the coming ones, so "Coming up" (the first five) holds it.
    await sandbox.gateway.db.query(
      "DELETE FROM driver_offers WHERE user_id = $1 AND kind = 'won'",
      [userId],
    );
    await wonBlock('zone-check-1', start, 4.5);
    const chicago = new Intl.DateTimeFormat('en-US', {
      hour: 'numeric',
      minute: '2-digit',
      timeZone: DRIVER_ZONE,
    }).format(start);
    const newYork = new Intl.DateTimeFormat('en-US', {
      hour: 'numeric',
      minute: '2-digit',
      timeZone: 'America/New_York',
    }).format(start);
    const { page, errors } = await sandbox.newPage({ storageState: session });
    const block = page.locator('li[data-offer-id="zone-check-1"] .offer-time');

    await page.goto('/flex/dashboard');
    await settled(page);
    // "Coming up" and the Won list both hold it.
    await block.nth(1).waitFor();
    const [comingUp, wonTab] = await block.allTextContents();
    expect(comingUp).toBe(wonTab);
    // 6:15 in Chicago, never 7:15 as New York reads it, and marked with the zone.
    expect(comingUp!.replace(/\s/g, ' ')).toMatch(
      new RegExp(`^${chicago.replace(/ (AM|PM)$/, '')}\\b`),
    );
    expect(comingUp).not.toContain(newYork.replace(/ (AM|PM)$/, ''));
    expect(comingUp).toMatch(/C[SD]T/);
    await page
      .getByText(/Times in Central Time/)
      .first()
      .waitFor();

    await page.goto('/flex/calendar');
    await settled(page);
    await block.first().waitFor();
    expect(await block.first().textContent()).toBe(comingUp);
    await page
      .getByTestId('zone-note')
      .getByText(/Central Time/)
      .waitFor();
    expect(errors).toEqual([]);
  });
});
