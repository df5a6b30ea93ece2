// Tokens for machines from the admin web, in a real browser: an owner creates one and sees its
// secret once, the gateway takes it as the owner, its last use shows in the list, and once revoked
// from the page the gateway refuses it. A name the gateway would refuse is stopped by the form; the
// page reads in Spanish too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserSandbox,
  OWNER,
  overflowsHorizontally,
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

/** The gateway's answer to a machine sending `token`: what a cron job with BLOCKCATCH_TOKEN gets. */
async function asMachine(token: string): Promise<number> {
  const answer = await fetch(`${sandbox.url}/api/flex/v1/admin/api-tokens`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await answer.arrayBuffer();
  return answer.status;
}

describe('tokens for machines in the admin web', () => {
  it('creates a token shown once, lists its last use, and revokes it so the gateway refuses it', async () => {
    const { page, errors } = await sandbox.newPage();
    await signIn(page, OWNER);
    await page.goto('/admin/tools');
    await settled(page);
    await page.getByRole('link', { name: 'Tokens for machines' }).click();
    await page.getByRole('heading', { name: 'Tokens for machines', level: 1 }).waitFor();

    await page.getByLabel('Name').fill('nightly cron');
    await page.getByLabel('Expires after').selectOption('30');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = (await page.getByTestId('new-token-secret').textContent()) ?? '';
    expect(secret).toMatch(/^bct_[A-Za-z0-9_-]{56}$/);
    expect(await page.getByTestId('new-token').textContent()).toContain('shown this once');

    const row = page.getByTestId('token-row').filter({ hasText: 'nightly cron' });
    await row.waitFor();
    expect(await row.getAttribute('data-state')).toBe('active');
    expect(await row.textContent()).toContain('Never');

    expect(await asMachine(secret)).toBe(200);
    // Once dismissed, the secret is gone from the page for good, and the list shows the use.
    await page.getByRole('button', { name: 'I copied it' }).click();
    await page.reload();
    await settled(page);
    await row.waitFor();
    expect(await page.getByText(secret).count()).toBe(0);
    await expect.poll(async () => (await row.textContent())?.includes('Never')).toBe(false);

    // Under the pointer the red button turns darker red, its white text still readable.
    const revoke = page.getByRole('button', { name: 'Revoke token nightly cron' });
    await revoke.hover();
    await expect
      .poll(() => revoke.evaluate((el) => getComputedStyle(el).backgroundColor))
      .toBe('rgb(143, 28, 19)');
    expect(await revoke.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(255, 255, 255)');
    await revoke.click();
    await expect.poll(() => row.getAttribute('data-state')).toBe('revoked');
    await page.getByText('Token nightly cron revoked: it no longer works.').waitFor();
    expect(await asMachine(secret)).toBe(401);
    expect(errors).toEqual([]);
  });

  it('stops a name the gateway would refuse before sending it', async () => {
    const { page } = await sandbox.newPage();
    await signIn(page, OWNER);
    await page.goto('/admin/tokens');
    await settled(page);
    // The list has loaded: rows, or the line saying there are none.
    await page.locator('[data-testid="token-row"], [data-testid="no-tokens"]').first().waitFor();
    const before = await page.getByTestId('token-row').count();
    await page.getByLabel('Name').fill('cron; rm -rf /');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByText(/Give the token a name of up to 60 letters/).waitFor();
    expect(await page.getByTestId('new-token').count()).toBe(0);
    expect(await page.getByTestId('token-row').count()).toBe(before);
  });

  it('reads in Spanish on a phone, fits its width, and passes the accessibility checks', async () => {
    const { page, errors } = await sandbox.newPage({ language: 'es', width: 375 });
    await signIn(page, OWNER);
    await page.goto('/admin/tokens');
    await settled(page);
    await page.getByRole('heading', { name: 'Tokens para máquinas', level: 1 }).waitFor();
    await page.getByLabel('Nombre').fill('respaldo nocturno');
    await page.getByLabel('Vence después de').selectOption('365');
    await page.getByRole('button', { name: 'Crear token' }).click();
    await page.getByTestId('new-token-secret').waitFor();
    const row = page.getByTestId('token-row').filter({ hasText: 'respaldo nocturno' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Nunca');
    expect(await row.textContent()).toContain('Activo');
    expect(await overflowsHorizontally(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
