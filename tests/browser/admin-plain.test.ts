// What an admin reads at a desk, in a real browser: pagers with totals, states as badges, lapsed
// dates marked, no tab the role cannot use, a refused paste that says why, and a confirmation
// that shows what is sent, to how many and when.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  type BrowserSandbox,
  OWNER,
  settled,
  signIn,
  startBrowserSandbox,
} from './harness.js';

const LAPSED_PHONE = '+13055550105';

let sandbox: BrowserSandbox;
beforeAll(async () => {
  sandbox = await startBrowserSandbox();
  await sandbox.gateway.db.query(
    "UPDATE users SET expiration_ts = $1 WHERE phone_number = $2 AND product = 'flex'",
    [Date.now() - 3 * 86_400_000, LAPSED_PHONE],
  );
});
afterAll(async () => {
  await sandbox?.close();
});

describe('the admin area', () => {
  it('pages users with the page count and total, and shows states as badges', async () => {
    const { page, errors } = await sandbox.newPage();
    await signIn(page, OWNER);
    await page.goto('/admin/users');
    await settled(page);
    const total = Number(
      (await page.getByTestId('user-total').textContent())?.match(/^(\d+) users$/)?.[1],
    );
    expect(total).toBeGreaterThan(20);
    const pages = Math.ceil(total / 20);
    await expect
      .poll(() => page.getByTestId('pager-position').textContent())
      .toBe(`Page 1 of ${pages} · ${total} users`);
    const rows = page.locator('.table-scroll tbody tr');
    await rows.first().waitFor();
    // Good standing, Account connected, Filters complete and Status are badges, not bare words.
    const firstRow = rows.first();
    expect(await firstRow.locator('.badge').count()).toBeGreaterThanOrEqual(4);
    expect(await firstRow.locator('.badge').allTextContents()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^(Yes|No)$/),
        expect.stringMatching(/^(ON|OFF)$/),
      ]),
    );

    await page.getByPlaceholder('Search user...').fill('Patricia Lee');
    await expect.poll(() => rows.count()).toBe(1);
    await rows.first().locator('.badge.lapsed', { hasText: 'Lapsed' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('shows a non-owner admin without billing details no Billing tab', async () => {
    const { page } = await sandbox.newPage();
    await signIn(page, ADMIN);
    await page.goto('/admin/users');
    await settled(page);
    const tabs = page.getByRole('navigation', { name: 'Admin' });
    await tabs.getByRole('link', { name: 'Users' }).waitFor();
    expect(await tabs.getByRole('link', { name: 'Billing' }).count()).toBe(0);

    const { page: ownerPage } = await sandbox.newPage();
    await signIn(ownerPage, OWNER);
    await ownerPage.goto('/admin/users');
    await settled(ownerPage);
    await ownerPage
      .getByRole('navigation', { name: 'Admin' })
      .getByRole('link', { name: 'Billing' })
      .waitFor();
  });

  it('says why a pasted message was refused, and confirms with channel, message and count', async () => {
    const { page } = await sandbox.newPage();
    await signIn(page, OWNER);
    await page.goto('/admin/tools');
    await settled(page);
    const box = page.getByLabel('Message', { exact: true });
    // 80 characters with an emoji: over the 70 a text holds once it carries one.
    await box.fill(`Hola 👋 ${'a'.repeat(73)}`);
    await page
      .getByTestId('message-refused')
      .getByText(/emoji or special character/)
      .waitFor();
    expect(await box.inputValue()).toBe('');
    const body = `Plain test ${Date.now()}`;
    await box.fill(body);
    expect(await page.getByTestId('message-refused').count()).toBe(0);

    await page.getByLabel('Region').selectOption('Miami');
    await page.getByRole('button', { name: 'Review' }).click();
    const count = await page.getByTestId('recipient-count').textContent();
    expect(count).toMatch(/^\d+ recipients$/);
    await expect.poll(() => page.getByTestId('send-when').textContent()).toBe('Sends now.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const details = page.getByRole('dialog').getByTestId('confirm-details');
    await details.waitFor();
    const text = await details.textContent();
    expect(text).toContain('ChannelSMS');
    expect(text).toContain(body);
    expect(text).toContain(`Recipients${count}`);
    expect(text).toContain('WhenSends now.');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  });
});
