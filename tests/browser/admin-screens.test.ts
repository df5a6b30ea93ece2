// The admin area in a real browser: the review step and its dialog pass axe and fit 375 px, dates
// and Spanish texts read right, and the users and review tables behave. Every admin screen's
// console errors, axe, fit and screenshots are the visual pass's (visual.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  type BrowserSandbox,
  OWNER,
  overflowsHorizontally,
  screenshot,
  seriousViolations,
  settled,
  signIn,
  startBrowserSandbox,
} from './harness.js';

let sandbox: BrowserSandbox;
beforeAll(async () => {
  sandbox = await startBrowserSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});

describe('admin screens', () => {
  it('the review step has no axe violations and fits 375 px', async () => {
    const { page, errors } = await sandbox.newPage({ width: 375 });
    await signIn(page, OWNER);
    await page.goto('/admin/tools');
    await settled(page);
    await page.getByLabel('Message', { exact: true }).fill('Hello');
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByTestId('recipient-count').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(await overflowsHorizontally(page)).toBe(false);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('dialog').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await screenshot(page, 'en-admin-review-375');
    expect(errors).toEqual([]);
  });

  it('keeps Nombre, Teléfono and DD/MM/YY in the English notifications review, dates elsewhere as words', async () => {
    const { page, errors } = await sandbox.newPage({ language: 'en' });
    await signIn(page, OWNER);
    await page.goto('/admin/notifications');
    await settled(page);
    await page.getByLabel('Message', { exact: true }).fill('Hello');
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByRole('columnheader', { name: 'Nombre', exact: true }).waitFor();
    await page.getByRole('columnheader', { name: 'Teléfono', exact: true }).waitFor();
    const expiration = page.locator('tbody time').first();
    expect(await expiration.textContent()).toMatch(/^\d{2}\/\d{2}\/\d{2}$/);
    expect(await expiration.getAttribute('title')).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    expect(
      await page
        .locator('tbody td')
        .filter({ hasText: /^\+1 \(\d{3}\) \d{3}-\d{4}$/ })
        .count(),
    ).toBeGreaterThan(0);

    // The users table writes the same dates as "Dec 21, 2026".
    await page.goto('/admin/users');
    await settled(page);
    const cells = page.getByRole('cell').filter({ hasText: /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/ });
    await cells.first().waitFor();
    expect(
      await page
        .getByRole('cell')
        .filter({ hasText: /^\d{2}\/\d{2}\/\d{2}$/ })
        .count(),
    ).toBe(0);
    expect(errors).toEqual([]);
  });

  it('shows the screens in Spanish', async () => {
    const { page, errors } = await sandbox.newPage({ language: 'es' });
    await signIn(page, ADMIN);
    await page.goto('/admin/notifications');
    await settled(page);
    await page.getByRole('heading', { name: 'Enviar SMS a invitados que no han pagado' }).waitFor();
    await page.getByLabel('Mensaje', { exact: true }).fill('Hola');
    await page.getByRole('button', { name: 'Revisar' }).click();
    await page.getByRole('columnheader', { name: 'Nombre', exact: true }).waitFor();
    await page.getByRole('columnheader', { name: 'Teléfono', exact: true }).waitFor();
    await screenshot(page, 'es-admin-notifications-review');
    await page.goto('/admin/tools');
    await settled(page);
    await page.getByTestId('owner-only').waitFor();
    await screenshot(page, 'es-admin-tools');
    expect(errors).toEqual([]);
  });
});

describe('the users table', () => {
  it('searches, sorts, pages and leads to a user and their dashboard', async () => {
    const { page, errors } = await sandbox.newPage();
    await signIn(page, OWNER);
    await page.goto('/admin/users');
    await settled(page);
    const rows = page.locator('.table-scroll tbody tr');
    await rows.first().waitFor();
    const total = await page.getByTestId('user-total').textContent();
    expect(total).toMatch(/^\d+ users$/);

    // The pager says how the rows are paged.
    const users = Number(total?.split(' ')[0]);
    await page.getByLabel('Rows per page').selectOption('40');
    await page
      .getByTestId('pager-position')
      .filter({ hasText: `Page 1 of ${Math.ceil(users / 40)} · ${users} users` })
      .first()
      .waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2').waitFor();

    // Sorting by name the other way round puts a later name first.
    const firstAsc = await rows.first().locator('td').first().textContent();
    await page.getByRole('button', { name: 'Name' }).click();
    await page.getByText('Page 1').waitFor();
    const firstDesc = await rows.first().locator('td').first().textContent();
    expect((firstDesc ?? '').localeCompare(firstAsc ?? '')).toBeGreaterThan(0);

    await page.getByPlaceholder('Search user...').fill('Patricia Lee');
    await expect.poll(() => rows.count()).toBe(1);
    await page.getByRole('link', { name: 'Patricia Lee', exact: true }).click();
    await page.waitForURL('**/admin/users/%2B13055550105');
    await page.getByRole('heading', { name: 'Patricia Lee' }).waitFor();
    await page.getByRole('main').getByRole('link', { name: 'Dashboard', exact: true }).click();
    await page.waitForURL('**/admin/users/%2B13055550105/dashboard');
    await page.getByText('Offers won').waitFor();

    // Spark users are listed too.
    await page.goto('/admin/users');
    await page.getByLabel('Spark').check();
    await expect.poll(() => page.getByTestId('user-total').textContent()).not.toBe(total);
    expect(errors).toEqual([]);
  });
});

describe("a user's admin role", () => {
  it('is given and taken by the owner from the user page, in Spanish too', async () => {
    const { page, errors } = await sandbox.newPage();
    await signIn(page, OWNER);
    await page.goto('/admin/users/%2B13055550105');
    await page.getByRole('heading', { name: 'Patricia Lee' }).waitFor();
    await page.getByRole('button', { name: 'Make admin' }).click();
    await page.getByRole('status').filter({ hasText: 'Patricia Lee is now an admin.' }).waitFor();
    await screenshot(page, 'en-admin-user-role');
    await page.getByRole('button', { name: 'Remove admin' }).click();
    await page.getByRole('status').filter({ hasText: 'is no longer an admin' }).waitFor();
    await page.getByRole('button', { name: 'Make admin' }).waitFor();
    expect(errors).toEqual([]);

    const spanish = await sandbox.newPage({ language: 'es' });
    await signIn(spanish.page, OWNER);
    await spanish.page.goto('/admin/users/%2B13055550105');
    await spanish.page.getByRole('button', { name: 'Hacer administrador' }).waitFor();
    expect(spanish.errors).toEqual([]);
  });

  it('is not offered to an admin who is not the owner', async () => {
    const { page, errors } = await sandbox.newPage();
    await signIn(page, ADMIN);
    await page.goto('/admin/users/%2B13055550105');
    await page.getByRole('heading', { name: 'Patricia Lee' }).waitFor();
    await settled(page);
    expect(await page.getByRole('button', { name: /admin/i }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
