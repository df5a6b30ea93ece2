// The invite screen past a driver's invitation limit says, in the driver's language, at what time
// they can invite again; an account that may not invite yet is told why; the admin dashboard
// shows the invitation texts kept for a later hour by the service's hourly total; and the sign-up
// form refuses a name a stranger's invitation text could carry a link in.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  type BrowserSandbox,
  DRIVER,
  extendService,
  type StorageState,
  startBrowserSandbox,
} from './harness.js';

const HOUR = 3_600_000;
let sandbox: BrowserSandbox;
let driverSession: StorageState;

/** The driver's user id; `paid` gives them one succeeded payment, as invitations need. */
const US_ZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Phoenix',
  'America/Los_Angeles',
];

async function driverId(paid: boolean): Promise<string> {
  const [user] = await sandbox.gateway.db.query<{ id: string }>(
    "SELECT id FROM users WHERE product = 'flex' AND phone_number = $1",
    [DRIVER.phoneNumber],
  );
  if (paid) {
    await sandbox.gateway.db.query(
      `INSERT INTO payments (id, user_id, idempotency_key, request_hash, provider, weeks,
         amount_cents, card_last4, status, lease_until_ts, created_ts, settled_ts)
       VALUES ($1, $2, $3, 'h', 'sandbox', 1, 2500, '4242', 'succeeded', 0, $4, $4)`,
      [randomUUID(), user!.id, randomUUID(), Date.now()],
    );
  }
  return user!.id;
}

beforeAll(async () => {
  sandbox = await startBrowserSandbox();
  await extendService(sandbox.gateway, DRIVER.phoneNumber);
  driverSession = await sandbox.sessionOf(DRIVER);
});

afterAll(async () => {
  await sandbox?.close();
});

async function inviteOnScreen(language: 'en' | 'es', phone: string) {
  const { page, errors } = await sandbox.newPage({ storageState: driverSession, language });
  await page.goto('/flex/invite');
  await page.getByLabel(/Friend's phone number|Número de teléfono/).fill(phone);
  await page.locator('form button[type="submit"]').click();
  return { page, errors };
}

describe('the invite screen', () => {
  it('tells a driver who never paid that invitations open after the first payment', async () => {
    const { page } = await inviteOnScreen('en', '(305) 555-0901');
    await page
      .getByRole('alert')
      .getByText('Invitations open once your phone number is verified and you have paid')
      .waitFor();
  });

  it('says at what time the driver can invite again, in English and in Spanish', async () => {
    await driverId(true);
    const start = Date.now();
    for (const phone of ['(305) 555-0911', '(305) 555-0912', '(305) 555-0913']) {
      const { page } = await inviteOnScreen('en', phone);
      await page.getByText(/Invitation queued for/).waitFor();
    }
    const english = await inviteOnScreen('en', '(305) 555-0914');
    const alert = english.page.getByRole('alert').filter({ hasText: 'You can invite again at' });
    await alert.waitFor();
    // The time the hour is over, as the screen formats times (the window began with the first).
    const text = (await alert.textContent()) ?? '';
    const shown = text.match(/invite again at (.+)\.$/)?.[1];
    expect(shown).toBeDefined();
    // On the driver's zone, which the screen names when it is not the device's (New York here).
    const formatted = (ts: number, timeZone: string) => {
      const time = new Intl.DateTimeFormat('en', {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone,
      }).format(ts);
      if (timeZone === 'America/New_York') return time;
      const zone = new Intl.DateTimeFormat('en', { timeZone, timeZoneName: 'short' })
        .formatToParts(ts)
        .find((part) => part.type === 'timeZoneName')?.value;
      return `${time} ${zone}`;
    };
    const candidates: string[] = [];
    for (let ts = start + HOUR - 60_000; ts <= Date.now() + HOUR + 60_000; ts += 30_000) {
      for (const zone of US_ZONES) candidates.push(formatted(ts, zone));
    }
    expect(candidates).toContain(shown);
    expect(english.errors.filter((e) => !e.includes('429'))).toEqual([]);

    const spanish = await inviteOnScreen('es', '(305) 555-0915');
    await spanish.page
      .getByRole('alert')
      .filter({ hasText: 'Podrás invitar de nuevo a las' })
      .waitFor();
  });
});

describe('the sign-up form', () => {
  it('refuses a name with a link under the name field, and creates nothing', async () => {
    const { page, context } = await sandbox.newPage();
    await page.goto('/register');
    await page.getByLabel('Full name').fill('Claim $500 http://evil.example/x');
    await page.getByLabel('Phone number').fill('(305) 555-0931');
    await page.getByLabel('Password', { exact: true }).fill('Rosa-pass-2026');
    await page.getByLabel('Confirm password').fill('Rosa-pass-2026');
    await page.getByLabel(/I agree to the Terms and Conditions/).check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Type only your name, without a web address or an email').waitFor();
    expect(new URL(page.url()).pathname).toBe('/register');
    const [account] = await sandbox.gateway.db.query(
      'SELECT 1 FROM identity_accounts WHERE username = $1',
      ['+13055550931'],
    );
    expect(account).toBeUndefined();
    await context.close();
  });
});

describe('the admin dashboard', () => {
  it('shows how many invitation texts wait for a later hour, and when the next goes', async () => {
    const next = (Math.floor(Date.now() / HOUR) + 2) * HOUR;
    await sandbox.gateway.messaging.enqueue({
      createdBy: await driverId(false),
      key: 'invitation:+13055550999',
      to: '+13055550999',
      body: 'A friend invited you to BlockCatch.',
      sendAt: next,
    });
    const { page } = await sandbox.newPage({ storageState: await sandbox.sessionOf(ADMIN) });
    await page.goto('/admin');
    const line = page.getByTestId('invitation-backlog');
    await line.getByText('1 invitation text waits for a later hour').waitFor();
    const when = new Intl.DateTimeFormat('en', {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'America/New_York',
    }).format(next);
    expect(await line.textContent()).toContain(`the next goes at ${when}`);
  });
});
