// The delivery platform asks the driver to complete a check in its own app, seen in a real
// browser: the catcher stops, the dashboard says why with "I've done it", which is refused while
// the platform still asks, one text goes out, and searching resumes once the check is done and the
// driver confirms. The check itself is never attempted by the product.
import { readOutbox } from '@blockcatch/gateway/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, openFilters } from '../../packages/gateway/test/driver-harness.js';
import { signIn } from '../../packages/gateway/test/helpers/sign-in.js';
import { eventually } from '../support/eventually.js';
import {
  type BrowserSandbox,
  DRIVER,
  extendService,
  outboxMark,
  settled,
  startBrowserSandbox,
} from './harness.js';

const CHECK_ALERT = /asks you to complete a check in its app/;

let sandbox: BrowserSandbox;
beforeAll(async () => {
  // No offers from the sandbox: the test looks at searching, not at blocks won.
  sandbox = await startBrowserSandbox({
    sandboxPlatform: { failureRate: 0, offerIntervalMs: 0 },
    catcher: { pollIntervalMs: 200 },
  });
  await extendService(sandbox.gateway, DRIVER.phoneNumber);
}, 120_000);
afterAll(async () => {
  await sandbox?.close();
});

it('stops searching when the platform asks for a check, says why, and resumes once the driver has done it', async () => {
  const token = await signIn(
    sandbox.url,
    sandbox.gateway.config.clientId,
    DRIVER.phoneNumber,
    DRIVER.password,
  );
  const driver = api(sandbox.url, token);
  // Every hour of every day, so the test does not depend on the hour it runs.
  expect((await driver.put('/settings', openFilters())).status).toBe(200);
  expect((await driver.put('/status', { status: 'start' })).status).toBe(200);
  await eventually(
    async () => expect((await driver.get('/dashboard')).body.Item.searching).toBe(true),
    {
      timeout: 30_000,
    },
  );

  const { page, errors } = await sandbox.newPage({ storageState: await sandbox.sessionOf(DRIVER) });
  await page.goto('/flex/dashboard');
  await settled(page);
  await page.getByTestId('system-state').filter({ hasText: 'Searching for blocks' }).waitFor();

  const mark = await outboxMark(sandbox.gateway);
  expect(await sandbox.gateway.driver.platform.requireVerification(DRIVER.phoneNumber)).toBe(true);
  await eventually(
    async () =>
      expect((await driver.get('/dashboard')).body.Item.notSearchingBecause).toBe(
        'needs-verification',
      ),
    { timeout: 30_000 },
  );

  await page.reload();
  await settled(page);
  const notice = page
    .getByRole('alert')
    .filter({ hasText: 'Complete the check in your delivery app' });
  await notice.waitFor();
  await page.getByTestId('system-state').filter({ hasText: 'Not searching for blocks' }).waitFor();

  // Not done yet in the platform's app: the platform still asks, so searching stays off.
  await notice.getByRole('button', { name: "I've done it" }).click();
  await notice.getByText('Your delivery platform still asks for the check.').waitFor();
  expect((await driver.get('/dashboard')).body.Item.searching).toBe(false);

  // Done in the platform's app (the sandbox's switch stands for it), then confirmed here.
  expect(await sandbox.gateway.driver.platform.completeVerification(DRIVER.phoneNumber)).toBe(true);
  await notice.getByRole('button', { name: "I've done it" }).click();
  await page.getByText('Thanks. Searching for blocks again.').waitFor();
  await notice.waitFor({ state: 'detached' });
  await page.getByTestId('system-state').filter({ hasText: 'Searching for blocks' }).waitFor();

  // One text told the driver, however many polls saw the check.
  await eventually(async () => {
    const texts = (await readOutbox(sandbox.gateway.db, { afterId: mark, limit: 100 }))
      .filter((m) => m.to === DRIVER.phoneNumber)
      .map((m) => m.body);
    expect(texts.filter((body) => CHECK_ALERT.test(body))).toHaveLength(1);
  });
  // The browser logs the refused first confirmation (409); nothing else went wrong.
  expect(errors).toEqual([
    'Failed to load resource: the server responded with a status of 409 (Conflict) (/api/flex/v1/platform/verified)',
  ]);
});
