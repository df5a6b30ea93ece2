// The admin area as staff meet it, in a real browser: the Admin entry first in their navigation and
// a card on the dashboard they land on; a non-owner admin shown no Send SMS (owner) link, no
// Billing and no tour step that leads to a dead end; Users filtered by standing and service ending
// soon; invitation figures that agree with Leads and Notifications; tables scrolling with the page
// under a header that stays in sight.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import {
  ADMIN,
  type BrowserSandbox,
  extendService,
  OWNER,
  type StorageState,
  settled,
  startBrowserSandbox,
} from './harness.js';

let sandbox: BrowserSandbox;
let admin: StorageState;
let owner: StorageState;
beforeAll(async () => {
  sandbox = await startBrowserSandbox();
  await extendService(sandbox.gateway, ADMIN.phoneNumber);
  await extendService(sandbox.gateway, OWNER.phoneNumber);
  admin = await sandbox.sessionOf(ADMIN);
  owner = await sandbox.sessionOf(OWNER);
}, 120_000);
afterAll(async () => {
  await sandbox?.close();
});

const count = (text: string | null) => Number(text?.match(/^([\d,]+)/)?.[1]?.replace(/,/g, ''));

describe('staff', () => {
  it('find the admin area first in their navigation and on the dashboard they land on', async () => {
    const { page, errors } = await sandbox.newPage({ width: 1366, storageState: admin });
    await page.goto('/flex/dashboard');
    await settled(page);
    const first = page.getByRole('navigation', { name: 'Main' }).getByRole('link').first();
    expect(await first.textContent()).toBe('Admin');
    await page.getByRole('link', { name: 'Open the admin area' }).click();
    await page.waitForURL('**/admin');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect(errors).toEqual([]);
  });

  it('show a non-owner admin no owner link, no Billing and a tour with no dead end', async () => {
    const { page, errors } = await sandbox.newPage({ width: 1366, storageState: admin });
    await page.goto('/admin');
    await settled(page);
    await page.getByText('Step 1 of 2', { exact: false }).waitFor();
    expect(await page.getByText('Send SMS (owner)').count()).toBe(0);
    expect(await page.locator('a[href="/admin/billing"]').count()).toBe(0);
    expect(await page.locator('.admin-tabs').getByRole('link', { name: 'Billing' }).count()).toBe(
      0,
    );
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Step 2 of 2', { exact: false }).waitFor();
    // The last step closes the tour; nothing about payments was shown.
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.locator('#figures-payments').count()).toBe(0);
    expect(errors).toEqual([]);

    const ownerTab = await sandbox.newPage({ width: 1366, storageState: owner });
    await ownerTab.page.goto('/admin');
    await settled(ownerTab.page);
    await ownerTab.page.getByText('Step 1 of 3', { exact: false }).waitFor();
    await ownerTab.page.getByText('Send SMS (owner)').waitFor();
  });

  it('filter Users by standing and by service ending within N days', async () => {
    const { page, errors } = await sandbox.newPage({ width: 1366, storageState: owner });
    await page.goto('/admin/users');
    await settled(page);
    const total = page.getByTestId('user-total');
    await total.waitFor();
    const [expected] = await sandbox.gateway.db.query<{ bad: number; soon: number }>(
      `SELECT count(*) FILTER (WHERE NOT good_standing)::int AS bad,
              count(*) FILTER (WHERE expiration_ts > $1 AND expiration_ts <= $1 + 7 * 86400000)::int AS soon
       FROM users WHERE product = 'flex'`,
      [Date.now()],
    );
    await page.getByLabel('Good standing').selectOption('no');
    await eventually(async () => expect(count(await total.textContent())).toBe(expected!.bad));
    await page.getByLabel('Good standing').selectOption('all');
    await page.getByLabel('Service ends within').fill('7');
    // Within a second of the query: a driver ending exactly at the edge could move; none does.
    await eventually(async () => expect(count(await total.textContent())).toBe(expected!.soon));
    expect(errors).toEqual([]);
  });

  it('scroll a table with the page, its header staying under the top bar', async () => {
    const { page } = await sandbox.newPage({ width: 1366, storageState: owner });
    await page.goto('/admin/users');
    await settled(page);
    await page.locator('table tbody tr').first().waitFor();
    const box = page.locator('.table-scroll').first();
    // One scrollbar: the box does not scroll on its own.
    expect(await box.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
    await page.evaluate(() => window.scrollTo(0, 900));
    await eventually(async () => {
      const header = (await page.locator('table thead th').first().boundingBox())!;
      const nav = (await page.locator('header.top-nav').boundingBox())!;
      expect(header.y).toBeGreaterThanOrEqual(nav.y + nav.height - 1);
      expect(header.y).toBeLessThan(nav.y + nav.height + 4);
    });
  });

  it('count people not signed up the same on Invitations, Leads and Notifications', async () => {
    const { page, errors } = await sandbox.newPage({ width: 1366, storageState: owner });
    await page.goto('/admin/invitations');
    await settled(page);
    const figure = page.locator('[data-count="notSignedUp"]');
    await figure.waitFor();
    const notSignedUp = count(await figure.textContent());
    const invitees = count(await page.locator('[data-count="invitees"]').textContent());
    await page.goto('/admin/leads');
    await settled(page);
    expect(count(await page.getByTestId('lead-total').textContent())).toBe(notSignedUp);
    await page.goto('/admin/notifications');
    await settled(page);
    const matching = page.getByTestId('invitee-count');
    await matching.waitFor();
    expect(count(await matching.textContent())).toBe(invitees);
    await page.getByLabel('Registered?').selectOption('no');
    await eventually(async () => expect(count(await matching.textContent())).toBe(notSignedUp));
    expect(errors).toEqual([]);
  });
});
