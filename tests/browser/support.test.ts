// Support that exists, in a real browser: a driver sends a request from the Contact page (name and
// phone filled in from the account), staff find it in the admin Support inbox and answer it by
// text, and the driver reads the answer on the Contact page. Words that look like markup are shown
// as words on both sides, never run.
import { readOutbox } from '@blockcatch/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import {
  ADMIN,
  type BrowserSandbox,
  DRIVER,
  extendService,
  settled,
  startBrowserSandbox,
} from './harness.js';

let sandbox: BrowserSandbox;
beforeAll(async () => {
  sandbox = await startBrowserSandbox();
  await extendService(sandbox.gateway, DRIVER.phoneNumber);
}, 120_000);
afterAll(async () => {
  await sandbox?.close();
});

const MARKUP = '<img src=x onerror="window.__hacked=1"><script>window.__hacked=2</script>';
const hacked = (page: import('playwright-core').Page) =>
  page.evaluate(() => (window as unknown as { __hacked?: number }).__hacked ?? null);

describe('a support request', () => {
  it('goes from the driver to the Support inbox and back with the answer', async () => {
    const question = `My block did not show up. ${MARKUP}`;
    const driver = await sandbox.newPage({
      width: 375,
      storageState: await sandbox.sessionOf(DRIVER),
    });
    await driver.page.goto('/contact');
    await settled(driver.page);
    const form = driver.page.locator('form.contact-form');
    await form.getByText(DRIVER.name, { exact: true }).waitFor();
    await driver.page.getByText('Support hours: 7 am to 10 pm EST.').waitFor();
    await driver.page.getByRole('link', { name: 'How is the service sold?' }).waitFor();
    await driver.page.getByLabel('Topic').selectOption('blocks');
    await driver.page.getByLabel('Message').fill(question);
    await driver.page.getByRole('button', { name: 'Send request' }).click();
    await driver.page.getByText('We got your request.', { exact: false }).waitFor();
    const history = driver.page.locator('.support-history');
    await history.getByText('Waiting for an answer').waitFor();
    await history.getByText(question).waitFor();

    const staff = await sandbox.newPage({
      width: 1366,
      storageState: await sandbox.sessionOf(ADMIN),
    });
    await staff.page.goto('/admin');
    await settled(staff.page);
    await staff.page.getByRole('link', { name: 'Support', exact: true }).click();
    await staff.page.getByRole('heading', { name: 'Support inbox' }).waitFor();
    const item = staff.page
      .locator('.support-item')
      .filter({ hasText: 'My block did not show up.' });
    // The words are shown as written; nothing in them became an element or ran.
    await item.getByText(question).waitFor();
    expect(await item.locator('img, script').count()).toBe(0);
    expect(await hacked(staff.page)).toBeNull();
    await item
      .getByLabel('Answer', { exact: true })
      .fill('Your filters skipped it: the pay was under $20.');
    await item.getByRole('button', { name: 'Send answer' }).click();
    await staff.page.getByText('Answer sent by text', { exact: false }).waitFor();
    await item.waitFor({ state: 'detached' });
    await staff.page.getByRole('button', { name: 'Answered' }).click();
    await staff.page.getByText('Your filters skipped it', { exact: false }).waitFor();

    const [text] = await eventually(async () => {
      const texts = (await readOutbox(sandbox.gateway.db, { to: DRIVER.phoneNumber, limit: 5 }))
        .map((m) => m.body)
        .filter((body) => body.startsWith('BlockCatch support:'));
      expect(texts.length).toBe(1);
      return texts;
    });
    expect(text).toContain('Your filters skipped it: the pay was under $20.');

    await driver.page.reload();
    await settled(driver.page);
    await history.getByText('Answered', { exact: true }).waitFor();
    await history.getByText('Your filters skipped it: the pay was under $20.').waitFor();
    await history.getByText('also sent by text', { exact: false }).waitFor();
    expect(await history.locator('img, script').count()).toBe(0);
    expect(await hacked(driver.page)).toBeNull();
    expect(driver.errors).toEqual([]);
    expect(staff.errors).toEqual([]);
  });

  it('asks a visitor to sign in first, in Spanish too', async () => {
    const { page, errors } = await sandbox.newPage({ width: 375, language: 'es' });
    await page.goto('/contact');
    await settled(page);
    await page.getByText('Inicia sesión para enviarnos una solicitud', { exact: false }).waitFor();
    await page.getByText('Horario de soporte', { exact: false }).first().waitFor();
    expect(await page.locator('form.contact-form').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
