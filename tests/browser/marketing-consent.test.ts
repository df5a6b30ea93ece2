// Consent to marketing in a real browser against the real gateway, with consent required: the
// sign-up page asks for it in a box of its own (not needed to sign up), the driver's settings turn
// it off and on and say what was last answered, and the owner's Send SMS review says how many are
// left out for no consent.
import { listUsers, toFlexUser } from '@blockcatch/gateway/testing';
import { filterAudience } from '@blockcatch/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json' with { type: 'json' };
import {
  type BrowserSandbox,
  DRIVER,
  OWNER,
  settled,
  signIn,
  startBrowserSandbox,
} from './harness.js';

let sandbox: BrowserSandbox;
beforeAll(async () => {
  sandbox = await startBrowserSandbox({ marketingConsent: true });
});
afterAll(async () => {
  await sandbox?.close();
});

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

async function consentOf(phone: string) {
  const [row] = await sandbox.gateway.db.query<{
    consented: boolean;
    method: string;
    words: string;
  }>('SELECT consented, method, words FROM marketing_consents WHERE phone_number = $1', [phone]);
  return row ?? null;
}

async function register(phone: string, name: string, marketing: boolean) {
  const { page, errors } = await sandbox.newPage();
  await page.goto('/register');
  await page.getByLabel('Full name').fill(name);
  await page.getByLabel('Phone number').fill(phone.slice(2));
  await page.getByLabel('Password', { exact: true }).fill('Marta-pass-2026');
  await page.getByLabel('Confirm password').fill('Marta-pass-2026');
  await page.getByLabel(/I agree to the Terms and Conditions/).check();
  const box = page.getByLabel(en.auth.register.marketingConsent);
  expect(await box.isChecked()).toBe(false);
  if (marketing) await box.check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL('**/confirm-account');
  expect(errors).toEqual([]);
  await page.context().close();
}

describe('marketing consent', () => {
  it('asks at sign-up in a box apart from the terms, recording its words only when ticked', async () => {
    await register('+17865559181', 'Marta Yes', true);
    expect(await consentOf('+17865559181')).toEqual({
      consented: true,
      method: 'sign-up',
      words: en.auth.register.marketingConsent,
    });
    await register('+17865559182', 'Nico No', false);
    expect(await consentOf('+17865559182')).toBeNull();
  });

  it('lets a driver turn marketing off and on in settings, saying what they answered', async () => {
    const { page, errors } = await sandbox.newPage();
    await signIn(page, DRIVER);
    await page.goto('/flex/settings');
    await settled(page);
    // The section is closed until opened.
    await page.getByRole('heading', { name: en.flex.marketing.title }).click();
    const box = page.getByLabel(en.flex.marketing.switch);
    await box.waitFor();
    // The sample driver ticked the box at sign-up.
    expect(await box.isChecked()).toBe(true);
    await page
      .getByTestId('marketing-status')
      .getByText(/when you created your account/)
      .waitFor();

    await box.uncheck();
    const section = page.locator('form', { has: page.getByText(en.flex.marketing.title) });
    await section.getByRole('button', { name: en.flex.marketing.save }).click();
    await page
      .getByTestId('marketing-status')
      .getByText(/You said no in settings/)
      .waitFor();
    expect(await consentOf(DRIVER.phoneNumber)).toMatchObject({
      consented: false,
      method: 'settings',
    });

    await box.check();
    await section.getByRole('button', { name: en.flex.marketing.save }).click();
    await page
      .getByTestId('marketing-status')
      .getByText(/You said yes in settings/)
      .waitFor();
    expect(await consentOf(DRIVER.phoneNumber)).toEqual({
      consented: true,
      method: 'settings',
      words: en.flex.marketing.switch,
    });
    expect(errors).toEqual([]);
  });

  it("says in the owner's review how many are left out for no consent", async () => {
    const { page, errors } = await sandbox.newPage();
    await signIn(page, OWNER);
    await page.goto('/admin/tools');
    await settled(page);
    const filters = { byRegion: 'Miami', startDate: daysAgo(115), endDate: daysAgo(24) };
    const users = (await listUsers(sandbox.gateway.db, 'flex')).map(toFlexUser);
    const audience = filterAudience(users, filters, {
      product: 'flex',
      billingDetails: true,
      timeZone: 'America/New_York',
    });
    const consented = new Set(
      (
        await sandbox.gateway.db.query<{ phone_number: string }>(
          'SELECT phone_number FROM marketing_consents WHERE consented',
        )
      ).map((r) => r.phone_number),
    );
    const without = audience.filter((u) => !consented.has(u.phoneNumber)).length;
    expect(without).toBeGreaterThan(0);
    expect(without).toBeLessThan(audience.length);

    await page.getByLabel('Region').selectOption('Miami');
    await page.getByLabel('Creation date from').fill(filters.startDate);
    await page.getByLabel('Creation date to').fill(filters.endDate);
    await page.getByLabel('Message', { exact: true }).fill('Weekend blocks are open');
    await page.getByRole('button', { name: 'Review' }).click();
    await expect
      .poll(() => page.getByTestId('blocked-reasons').textContent(), { timeout: 15_000 })
      .toContain(`${en.admin.review.reason['no-consent']} (${without})`);
    expect(errors).toEqual([]);
  });
});
