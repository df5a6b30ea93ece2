// Paying in Chromium through the sandbox processor's hosted checkout: the app never shows a card
// field; the checkout page takes Stripe's test cards (success, decline, the bank's authentication
// approved or denied), sends the driver back, and the app shows the outcome in clear words, in
// English and Spanish. A failed renewal brings "Update card" to the dashboard, and the portal's
// card update pays it; a billing admin refunds a week from the billing page.
import { insertUsers } from '@blockcatch/gateway/testing';
import { WEEK_MS } from '@blockcatch/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserSandbox,
  OWNER,
  screenshot,
  settled,
  signIn,
  startBrowserSandbox,
} from './harness.js';

let sandbox: BrowserSandbox;
let next = 0;

beforeAll(async () => {
  sandbox = await startBrowserSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});

/** A driver who has linked their account and set filters, but not paid: the app sends them to /payment. */
async function unpaidDriver() {
  next += 1;
  const account = {
    phoneNumber: `+1786555${String(200 + next).padStart(4, '0')}`,
    password: 'Pay-test-2026',
  };
  await sandbox.gateway.identity.ensureAccount({ ...account, name: 'Paula Pagos' });
  await insertUsers(sandbox.gateway.db, [
    {
      product: 'flex',
      phone_number: account.phoneNumber,
      name: 'Paula Pagos',
      proxy_installed: true,
      setup_complete: true,
      good_standing: false,
    },
  ]);
  return account;
}

async function toCheckout(language: 'en' | 'es' = 'en', weeks?: number) {
  const account = await unpaidDriver();
  const opened = await sandbox.newPage({ language });
  const { page } = opened;
  await signIn(page, account);
  await page.waitForURL('**/payment', { timeout: 15_000 });
  await settled(page);
  expect(await page.locator('input[autocomplete^="cc-"]').count()).toBe(0);
  if (weeks) {
    await page
      .getByLabel(language === 'es' ? /Pagar varias semanas/ : /Pay for a number of weeks/)
      .check();
    await page
      .getByLabel(language === 'es' ? 'Semanas' : 'Weeks', { exact: true })
      .fill(String(weeks));
  }
  await page
    .getByRole('button', {
      name: language === 'es' ? /Continuar al pago seguro/ : /Continue to secure checkout/,
    })
    .click();
  await page.waitForURL('**/sandbox/checkout/**', { timeout: 15_000 });
  return { ...opened, account };
}

async function typeCard(
  page: import('playwright-core').Page,
  number: string,
  language: 'en' | 'es' = 'en',
) {
  await page.getByLabel(language === 'es' ? 'Número de tarjeta' : 'Card number').fill(number);
  await page.getByLabel(language === 'es' ? 'Vencimiento (MM/AA)' : 'Expiry (MM/YY)').fill('12/30');
  await page.getByLabel('CVC').fill('123');
  await page.locator('form:has(input[name="number"]) button[type="submit"]').click();
}

describe('the order page', () => {
  it('follows the weeks in its address when one link or a step back changes only them', async () => {
    const account = await unpaidDriver();
    const { page, goInApp, quiet } = await sandbox.newPage();
    await signIn(page, account);
    await page.waitForURL('**/payment', { timeout: 15_000 });
    await settled(page);
    const weeksPlan = page.getByLabel(/Pay for a number of weeks/);
    const weeks = page.getByLabel('Weeks', { exact: true });
    expect(await weeksPlan.isChecked()).toBe(false);

    await goInApp('/payment?weeks=3');
    await quiet();
    expect(await weeksPlan.isChecked()).toBe(true);
    expect(await weeks.inputValue()).toBe('3');

    await page.goBack();
    await quiet();
    expect(new URL(page.url()).search).toBe('');
    expect(await weeksPlan.isChecked()).toBe(false);
  });
});

describe('the sandbox checkout', () => {
  it('subscribes with 4242…, returns to the dashboard, and the billing page cancels and resumes', async () => {
    const { page } = await toCheckout();
    await page.getByText('renews every week until you cancel').waitFor();
    await screenshot(page, 'en-sandbox-checkout');
    await typeCard(page, '4242 4242 4242 4242');
    await page.waitForURL('**/flex/dashboard', { timeout: 15_000 });
    await page.getByText('Payment received. Your service is active.').waitFor();

    await page.getByRole('link', { name: 'Billing' }).first().click();
    await page.waitForURL('**/flex/billing');
    await page
      .getByTestId('subscription-status')
      .getByText(/Active: renews on/)
      .waitFor();
    await page.getByText('Weekly renewal').waitFor();
    await page.getByRole('button', { name: 'Cancel at the end of the week' }).click();
    await page
      .getByText(/It will not renew/)
      .first()
      .waitFor();
    await page.getByRole('button', { name: 'Resume weekly renewal' }).click();
    await page.getByText('Your subscription renews every week again.').waitFor();
    await screenshot(page, 'en-flex-billing');
  });

  it('refuses 4000 0000 0000 0002 on the page, and the app says why on return', async () => {
    const { page } = await toCheckout('en', 2);
    await typeCard(page, '4000 0000 0000 0002');
    await page.getByText('Your bank declined the card: try another card.').waitFor();
    await page.getByRole('link', { name: /Back to BlockCatch/ }).click();
    await page.waitForURL('**/payment?checkout=*');
    await page.getByText('Payment failed').waitFor();
    await page.getByText('Your bank declined the card: try another card').waitFor();
    await page.getByRole('link', { name: 'Try again' }).waitFor();
  });

  it('refuses 4000 0000 0000 9995 for insufficient funds, in Spanish', async () => {
    const { page } = await toCheckout('es', 1);
    await typeCard(page, '4000 0000 0000 9995', 'es');
    await page
      .getByText('Tu tarjeta no tiene fondos suficientes: prueba con otra tarjeta.')
      .waitFor();
    await page.getByRole('link', { name: /Volver a BlockCatch/ }).click();
    await page.getByText('El pago no se pudo completar').waitFor();
  });

  it('asks the bank for 4000 0025 0000 3155: approved, it pays', async () => {
    const { page, account } = await toCheckout('en', 1);
    await typeCard(page, '4000 0025 0000 3155');
    await page.getByText('Confirm this payment with your bank').waitFor();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL('**/flex/dashboard', { timeout: 15_000 });
    const user = await sandbox.gateway.db.query<{ good_standing: boolean }>(
      'SELECT good_standing FROM users WHERE phone_number = $1',
      [account.phoneNumber],
    );
    expect(user[0]?.good_standing).toBe(true);
  });

  it('asks the bank for 4000 0025 0000 3155: denied, nothing is paid and the page says so', async () => {
    const { page, account } = await toCheckout('en', 1);
    await typeCard(page, '4000 0025 0000 3155');
    await page.getByRole('button', { name: 'Deny' }).click();
    await page
      .getByText('Your bank could not confirm the payment: try again or use another card.')
      .waitFor();
    await page.getByRole('link', { name: /Back to BlockCatch/ }).click();
    await page
      .getByText('Your bank could not confirm the payment: try again or use another card')
      .waitFor();
    const user = await sandbox.gateway.db.query<{ good_standing: boolean }>(
      'SELECT good_standing FROM users WHERE phone_number = $1',
      [account.phoneNumber],
    );
    expect(user[0]?.good_standing).toBe(false);
  });

  it('a failed renewal puts "Update card" on the dashboard, and a new card in the portal pays it', async () => {
    const { page, account } = await toCheckout();
    await typeCard(page, '4242 4242 4242 4242');
    await page.waitForURL('**/flex/dashboard', { timeout: 15_000 });
    // The saved card starts failing; the sandbox's billing clock reaches the renewal.
    await sandbox.gateway.db.query(
      `UPDATE sandbox_customers SET card_kind = 'fails_later' WHERE id IN
         (SELECT customer_ref FROM billing_customers b JOIN users u ON u.id = b.user_id
          WHERE u.phone_number = $1)`,
      [account.phoneNumber],
    );
    await sandbox.gateway.payments.sandbox?.advance(Date.now() + WEEK_MS + 60_000);
    await page.reload();
    await settled(page);
    const notice = page.getByTestId('billing-notice');
    await notice
      .getByText('Your last payment failed: Your bank declined the card: try another card.')
      .waitFor();
    await screenshot(page, 'en-dashboard-update-card');
    await notice.getByRole('link', { name: 'Update card' }).click();
    await page.waitForURL('**/flex/billing');
    await page.getByText(/Your last renewal failed/).waitFor();
    await page.getByRole('button', { name: 'Update card' }).click();
    await page.waitForURL('**/sandbox/portal/**');
    await typeCard(page, '4242 4242 4242 4242');
    await page.getByText('Card saved.').waitFor();
    await page.getByRole('link', { name: /Back to BlockCatch/ }).click();
    await page.waitForURL('**/flex/billing');
    await page
      .getByTestId('subscription-status')
      .getByText(/Active: renews on/)
      .waitFor();
  });

  it('a billing admin refunds a week with a reason from the billing page, and the overview lists it', async () => {
    const { page: driverPage, account } = await toCheckout('en', 3);
    await typeCard(driverPage, '4242 4242 4242 4242');
    await driverPage.waitForURL('**/flex/dashboard', { timeout: 15_000 });
    const before = await sandbox.gateway.db.query<{ expiration_ts: number }>(
      'SELECT expiration_ts FROM users WHERE phone_number = $1',
      [account.phoneNumber],
    );

    const { page } = await sandbox.newPage({ storageState: await sandbox.sessionOf(OWNER) });
    await page.goto('/admin/billing');
    await settled(page);
    await page.getByText('Subscriptions now').waitFor();
    const row = page
      .getByRole('row')
      .filter({ hasText: 'Paula Pagos' })
      .filter({ hasText: '$75.00' });
    await row.getByRole('button', { name: 'Refund' }).click();
    await row.getByLabel('Weeks to refund').fill('1');
    await row.getByLabel('Reason (kept with the refund)').fill('Outage on the first day');
    await row.getByRole('button', { name: 'Refund', exact: true }).click();
    await page
      .getByText("Refund recorded. The weeks are taken back from the driver's paid time.")
      .waitFor();
    await page.getByRole('cell', { name: 'Outage on the first day' }).waitFor();
    const after = await sandbox.gateway.db.query<{ expiration_ts: number }>(
      'SELECT expiration_ts FROM users WHERE phone_number = $1',
      [account.phoneNumber],
    );
    expect(Number(before[0]?.expiration_ts) - Number(after[0]?.expiration_ts)).toBe(WEEK_MS);
  });
});
