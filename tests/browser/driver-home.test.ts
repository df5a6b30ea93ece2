// The driver's home screen in a real browser whose zone (New York) is not the driver's saved one
// (Chicago): the same won block reads the same everywhere, on the driver's zone, marked with it;
// "I've arrived" only in a block's check-in window; a searching driver whose service ends today is
// told both; inviting your own number answers with a sentence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
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
  // No offers from the sandbox's generator: a block the catcher won would join the test's own.
  sandbox = await startBrowserSandbox({ sandboxPlatform: { failureRate: 0, offerIntervalMs: 0 } });
  await extendService(sandbox.gateway, DRIVER.phoneNumber);
  const users = await sandbox.gateway.db.query<{ id: string }>(
    "SELECT id FROM users WHERE phone_number = $1 AND product = 'flex'",
    [DRIVER.phoneNumber],
  );
  userId = users[0]!.id;
  session = await sandbox.sessionOf(DRIVER);
});

/** Turns the driver's system on or off, as the switch does. */
async function setSystem(status: 'start' | 'stop'): Promise<void> {
  await sandbox.gateway.db.query('UPDATE users SET status = $2 WHERE id = $1', [userId, status]);
}

/** Forgets every block the driver won, so the test's own are the only ones. */
async function clearWonBlocks(): Promise<void> {
  await sandbox.gateway.db.query("DELETE FROM driver_offers WHERE user_id = $1 AND kind = 'won'", [
    userId,
  ]);
}
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

    // The calendar's week holding the block (tomorrow may be next week).
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: DRIVER_ZONE }).format(start);
    await page.goto(`/flex/calendar?week=${day}`);
    await settled(page);
    await block.first().waitFor();
    expect(await block.first().textContent()).toBe(comingUp);
    await page
      .getByTestId('zone-note')
      .getByText(/Central Time/)
      .waitFor();
    expect(errors).toEqual([]);
  });

  it("offer I've arrived only from half an hour before a won block until its end", async () => {
    await setSystem('stop');
    await clearWonBlocks();
    await wonBlock('later-today', Date.now() + 6 * HOUR, 4);
    const { page, errors } = await sandbox.newPage({ storageState: session });
    const arrived = page.getByRole('button', { name: "I've arrived" });
    await page.goto('/flex/dashboard');
    await settled(page);
    await page.locator('li[data-offer-id="later-today"]').first().waitFor();
    expect(await arrived.count()).toBe(0);

    await wonBlock('soon', Date.now() + 10 * 60_000, 3);
    await page.reload();
    await settled(page);
    await arrived.click();
    // Off, the check-in is refused with the spec's sentence.
    await page.getByText("You must turn on the system to use I've arrived").waitFor();
    expect(errors).toEqual([]);
  });

  it('tell a searching driver whose service ends today both', async () => {
    await setSystem('start');
    await extendService(sandbox.gateway, DRIVER.phoneNumber, 0.5);
    const { page } = await sandbox.newPage({ storageState: session });
    await page.goto('/flex/dashboard');
    await settled(page);
    const card = page.getByTestId('system-state');
    // The catcher takes the driver on within seconds of the switch.
    await eventually(
      async () => {
        await page.reload();
        await settled(page);
        expect(await card.locator('.state-headline').textContent()).toBe('Searching for blocks');
      },
      { timeout: 30_000, interval: 500 },
    );
    await card.getByText('Expiring today').waitFor();
    await extendService(sandbox.gateway, DRIVER.phoneNumber);
  });

  it('answer an invitation to your own number with a sentence', async () => {
    const { page } = await sandbox.newPage({ storageState: session, language: 'es' });
    await page.goto('/flex/invite');
    await settled(page);
    await page.getByLabel('Número de teléfono de tu amigo').fill(DRIVER.phoneNumber);
    await page.getByRole('button', { name: 'Enviar invitación' }).click();
    await page.getByText('Ese es tu propio número.', { exact: false }).waitFor();
    expect(await page.getByText('phoneNumber').count()).toBe(0);
  });

  it('list offers in start order with dollars written $90.00 in Spanish too', async () => {
    const now = Date.now();
    // Seen newest-first in the opposite order of their starts.
    for (const [offerId, startsIn, seenAgo] of [
      ['late', 30, 3],
      ['middle', 20, 2],
      ['early', 10, 1],
    ] as const) {
      await sandbox.gateway.db.query(
        `INSERT INTO driver_offers (user_id, offer_id, kind, reason, service_area_id, start_ts,
           end_ts, pay, seen_ts)
         VALUES ($1, $2, 'disliked', 'hourly-pay', 'DAU1', $3, $4, 90, $5)`,
        [
          userId,
          `order-${offerId}`,
          now + startsIn * HOUR,
          now + (startsIn + 3) * HOUR,
          now - seenAgo,
        ],
      );
    }
    const { page } = await sandbox.newPage({ storageState: session, language: 'es' });
    await page.goto('/flex/dashboard');
    await settled(page);
    await page.getByRole('button', { name: /Descartadas/ }).click();
    const ours = page.locator('li[data-offer-id^="order-"]');
    await ours.nth(2).waitFor();
    const ids = await ours.evaluateAll((items) =>
      items.map((li) => li.getAttribute('data-offer-id')),
    );
    expect(ids).toEqual(['order-early', 'order-middle', 'order-late']);
    expect(await ours.first().textContent()).toContain('$90.00');
    expect(await page.locator('main').textContent()).not.toContain('US$');
  });
});
