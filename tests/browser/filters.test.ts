// The Filters page on a phone, in a real browser: one form of four sections whose save bar stays in
// reach, warehouses' own rules closed until opened, a new driver's defaults saved at once, and
// saving staying on the page.
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
}, 120_000);
afterAll(async () => {
  await sandbox?.close();
});

/** Saves filters for every warehouse, so the page holds the most per-warehouse rules it can. */
async function chooseEveryWarehouse(): Promise<void> {
  const areas = ['DAU1', 'DAU5', 'DFW6', 'DHO2', 'DMI3', 'DNY4'];
  const day = [{ start: '06:00', end: '22:00' }];
  const filters = {
    warehouses: areas,
    minHourlyPay: 20,
    minBlockPay: 40,
    timeBufferMinutes: 30,
    weeklySchedule: { mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: day },
    timeZone: 'America/Chicago',
    stationRules: { DHO2: { minHourlyPay: 25 } },
    minBlockHours: 0,
    maxBlockHours: null,
  };
  await sandbox.gateway.db.query(
    `INSERT INTO driver_settings (user_id, filters, updated_ts) VALUES ($1, $2, $3)
     ON CONFLICT (user_id) DO UPDATE SET filters = $2, updated_ts = $3`,
    [userId, JSON.stringify(filters), Date.now()],
  );
  await sandbox.gateway.db.query('UPDATE users SET setup_complete = true WHERE id = $1', [userId]);
}

describe('the Filters page on a phone', () => {
  const SECTIONS = {
    en: ['Warehouses', 'Pay', 'Schedule', 'Alerts'],
    es: ['Almacenes', 'Pago', 'Horario', 'Alertas'],
  };
  for (const language of ['en', 'es'] as const) {
    it(`is under 2,500 px tall at 375 px in ${language} with every warehouse chosen and their rules closed`, async () => {
      await chooseEveryWarehouse();
      const { page, errors } = await sandbox.newPage({
        width: 375,
        language,
        storageState: session,
      });
      await page.goto('/flex/settings');
      await settled(page);
      for (const name of SECTIONS[language]) {
        await page.getByRole('heading', { name, exact: true }).waitFor();
      }
      const toggles = page.locator('.station-rule-toggle');
      await eventually(async () => expect(await toggles.count()).toBe(6));
      for (const toggle of await toggles.all()) {
        expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      }
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      expect(height).toBeLessThan(2500);
      expect(errors).toEqual([]);
    });
  }

  it("opens a warehouse's own rules on demand, saying while closed whether it has any", async () => {
    await chooseEveryWarehouse();
    const { page, errors } = await sandbox.newPage({ width: 375, storageState: session });
    await page.goto('/flex/settings');
    await settled(page);
    // The warehouse with a rule of its own says so while closed.
    await page.getByRole('button', { name: /Houston \(DHO2\).*1 own rule/ }).waitFor();
    expect(await page.getByLabel('Min amount per hour (DHO2)').count()).toBe(0);
    // Opened, a warehouse shows its fields, each still 64 px wide for its digits.
    await page.getByRole('button', { name: /Houston \(DHO2\)/ }).click();
    const own = page.getByLabel('Min amount per hour (DHO2)');
    expect(await own.inputValue()).toBe('25');
    expect((await own.boundingBox())!.width).toBeGreaterThanOrEqual(64);
    expect(errors).toEqual([]);
  });

  it('shows a save bar in reach once something changed, and saving stays on the page', async () => {
    await chooseEveryWarehouse();
    const { page, errors } = await sandbox.newPage({ width: 375, storageState: session });
    await page.goto('/flex/settings');
    await settled(page);
    const bar = page.getByRole('region', { name: 'Save your changes' });
    await page.getByLabel('Min amount per hour', { exact: true }).waitFor();
    expect(await bar.count()).toBe(0);

    await page.getByLabel('Min amount per hour', { exact: true }).fill('22');
    // An alert changed in the same form is saved by the same button.
    await page.getByRole('radio', { name: 'WhatsApp' }).check();
    await bar.waitFor();
    // At the top of a long page the bar is on screen, at the bottom of the viewport.
    await page.evaluate(() => window.scrollTo(0, 0));
    await eventually(async () => {
      const box = (await bar.boundingBox())!;
      const viewport = page.viewportSize()!;
      expect(box.y + box.height).toBeLessThanOrEqual(viewport.height + 1);
      expect(box.y).toBeGreaterThan(viewport.height / 2);
    });
    await bar.getByRole('button', { name: 'Save filters' }).click();
    await page.getByText('Your filters were saved.').waitFor();
    await bar.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/flex/settings');
    const [saved] = await sandbox.gateway.db.query<{ pay: number }>(
      "SELECT (filters->>'minHourlyPay')::float AS pay FROM driver_settings WHERE user_id = $1",
      [userId],
    );
    expect(saved!.pay).toBe(22);
    const [alerts] = await sandbox.gateway.db.query<{ channel: string }>(
      "SELECT settings->>'channel' AS channel FROM driver_alert_settings WHERE user_id = $1",
      [userId],
    );
    expect(alerts!.channel).toBe('whatsapp');

    // Discard puts back what is saved.
    await page.getByLabel('Min amount per hour', { exact: true }).fill('30');
    await bar.getByRole('button', { name: 'Discard' }).click();
    await bar.waitFor({ state: 'detached' });
    expect(await page.getByLabel('Min amount per hour', { exact: true }).inputValue()).toBe('22');
    expect(errors).toEqual([]);
  });

  it('lets a new driver save the filled-in defaults at once, with no error', async () => {
    await sandbox.gateway.db.query('DELETE FROM driver_settings WHERE user_id = $1', [userId]);
    await sandbox.gateway.db.query('UPDATE users SET setup_complete = false WHERE id = $1', [
      userId,
    ]);
    const { page, errors } = await sandbox.newPage({ width: 375, storageState: session });
    await page.goto('/flex/settings');
    await settled(page);
    const bar = page.getByRole('region', { name: 'Save your changes' });
    await bar.getByText('These filters are not saved yet.').waitFor();
    await bar.getByRole('button', { name: 'Save filters' }).click();
    await page.getByText('Your filters were saved.').waitFor();
    expect(await page.locator('.field-error, .form-alert').count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/flex/settings');
    const [row] = await sandbox.gateway.db.query<{ setup_complete: boolean }>(
      'SELECT setup_complete FROM users WHERE id = $1',
      [userId],
    );
    expect(row!.setup_complete).toBe(true);
    expect(errors).toEqual([]);
  });
});
