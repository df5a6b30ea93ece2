// The admin send screens in a real browser against the real gateway: the owner's Send SMS flow
// down to the outbox, who may reach it, and the unpaid-invitations send of a non-owner admin.

import {
  insertUsers,
  listInvitations,
  listUsers,
  readJobReport,
  readOutbox,
  toFlexUser,
} from '@blockcatch/gateway/testing';
import { filterAudience, normalizePhone } from '@blockcatch/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInviteeList } from '../../web/src/lib/admin/invitee-list.js';
import { eventually } from '../support/eventually.js';
import {
  ADMIN,
  type BrowserSandbox,
  DRIVER,
  OWNER,
  outboxMark,
  screenshot,
  settled,
  signIn,
  startBrowserSandbox,
} from './harness.js';

// The harness's browser context reads days in New York; the expected audiences do too.
const TIME_ZONE = 'America/New_York';
/** The day `n` days before today: seeding dates the sample data relative to its own start. */
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

let sandbox: BrowserSandbox;
beforeAll(async () => {
  sandbox = await startBrowserSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});

/** The phones (normalised) of the review rows whose checkbox is cleared, in view order. */
async function deselectRows(page: Page, indexes: number[]): Promise<string[]> {
  const rows = page.locator('.user-table tbody tr');
  const phones: string[] = [];
  for (const index of indexes) {
    const row = rows.nth(index);
    const phone = normalizePhone((await row.locator('td').nth(2).textContent()) ?? '');
    if (!phone) throw new Error(`row ${index} shows no phone`);
    await row.getByRole('checkbox').uncheck();
    phones.push(phone);
  }
  return phones;
}

const PRICES = { smsSegment: 0, whatsappMessage: 0 };

/** Waits for the send job of the messages after `mark` to finish; its id and the numbers sent. */
async function jobDeliveredAfter(
  mark: number,
  body: string,
): Promise<{ jobId: string; numbers: string[] }> {
  return eventually(
    async () => {
      const messages = await readOutbox(sandbox.gateway.db, { afterId: mark, limit: 1000 });
      const jobId = messages.find((m) => m.body === body)?.jobId;
      expect(jobId, 'a message of the send in the outbox').toBeDefined();
      const progress = await readJobReport(sandbox.gateway.db, jobId!, PRICES, { limit: 0 });
      expect(progress?.done, 'the send job is done').toBe(true);
      const all = await readOutbox(sandbox.gateway.db, { afterId: mark, limit: 1000 });
      return { jobId: jobId!, numbers: all.filter((m) => m.jobId === jobId).map((m) => m.to) };
    },
    { timeout: 30_000 },
  );
}

async function deliveredAfter(mark: number, body: string): Promise<string[]> {
  return (await jobDeliveredAfter(mark, body)).numbers;
}

/** A job in the recent sends list, once it is in `phase`. */
function jobItem(page: Page, jobId: string, phase: string) {
  return page.locator(`[data-testid="send-job"][data-job-id="${jobId}"][data-phase="${phase}"]`);
}

async function idToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    for (let i = 0; i < window.localStorage.length; i++) {
      const key = window.localStorage.key(i);
      if (key?.endsWith('.idToken')) return window.localStorage.getItem(key);
    }
    return null;
  });
  if (!token) throw new Error('no id token in localStorage');
  return token;
}

describe('the Send SMS screen', () => {
  it('sends to exactly the reviewed recipients the owner left selected', async () => {
    const { page, errors } = await sandbox.newPage();
    await signIn(page, OWNER);
    await page.goto('/admin/tools');
    await settled(page);

    const filters = { byRegion: 'Miami', startDate: daysAgo(115), endDate: daysAgo(24) };
    const users = (await listUsers(sandbox.gateway.db, 'flex')).map(toFlexUser);
    const audience = filterAudience(users, filters, {
      product: 'flex',
      billingDetails: true,
      timeZone: TIME_ZONE,
    });
    expect(audience.length).toBeGreaterThanOrEqual(10);
    expect(audience.length).toBeLessThanOrEqual(30);

    await page.getByLabel('Region').selectOption('Miami');
    await page.getByLabel('Creation date from').fill(filters.startDate);
    await page.getByLabel('Creation date to').fill(filters.endDate);
    const body = `Owner test ${Date.now()}`;
    await page.getByLabel('Message', { exact: true }).fill(body);
    await page.getByRole('button', { name: 'Review' }).click();

    await expect
      .poll(() => page.getByTestId('recipient-count').textContent())
      .toBe(`${audience.length} recipients`);
    await page.getByText(body).waitFor();
    const deselected = await deselectRows(page, [1, 3]);
    const expected = audience.map((u) => u.phoneNumber).filter((p) => !deselected.includes(p));
    await expect
      .poll(() => page.getByTestId('recipient-count').textContent())
      .toBe(`${expected.length} recipients`);
    await screenshot(page, 'en-admin-send-review');

    const mark = await outboxMark(sandbox.gateway);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog
      .getByText(`Are you sure you want to send this message to ${expected.length} users?`)
      .waitFor();
    // A double click on the confirmation still sends once: one key per review.
    await dialog.getByRole('button', { name: 'Send' }).dblclick();
    await page.getByText(`Message queued for ${expected.length} users.`).first().waitFor();
    // Success clears the form: the message box is empty and Review waits for a new message.
    await expect.poll(() => page.getByLabel('Message', { exact: true }).inputValue()).toBe('');
    await expect.poll(() => page.getByLabel('Region').inputValue()).toBe('');

    const { jobId, numbers: delivered } = await jobDeliveredAfter(mark, body);
    expect(delivered.sort()).toEqual(expected.map((p) => normalizePhone(p)).sort());
    for (const phone of deselected) expect(delivered).not.toContain(phone);

    // The screen follows the job it queued to delivered: every recipient on the bar.
    const done = jobItem(page, jobId, 'done');
    await done.waitFor();
    await expect
      .poll(() => done.getByRole('progressbar').getAttribute('aria-valuenow'))
      .toBe(String(expected.length));
    expect(errors).toEqual([]);

    // The list comes from the gateway, not from this tab: another browser sees the same job.
    const other = await sandbox.newPage({ storageState: await page.context().storageState() });
    await other.page.goto('/admin/notifications');
    await jobItem(other.page, jobId, 'done').getByText(`Delivered ${expected.length}`).waitFor();
    expect(other.errors).toEqual([]);
  });

  it('sends a WhatsApp template, previewed read-only, to a small region', async () => {
    const { page, errors } = await sandbox.newPage();
    await signIn(page, OWNER);
    await page.goto('/admin/tools');
    await settled(page);
    const users = (await listUsers(sandbox.gateway.db, 'flex')).map(toFlexUser);
    const audience = users.filter((u) => u.humanRegion === 'Las Vegas');
    expect(audience.length).toBeGreaterThan(0);

    await page.getByLabel('Region').selectOption('Las Vegas');
    await page.getByLabel('WhatsApp').check();
    const select = page.getByLabel('Template');
    const option = select.locator('option', { hasText: '(service_expiring)' }).first();
    await select.selectOption({ label: (await option.textContent()) ?? '' });
    const preview = page.getByLabel('Preview');
    expect(await preview.getAttribute('readonly')).not.toBeNull();
    expect(await preview.inputValue()).toContain('Your BlockCatch week ends soon');
    await page.getByRole('button', { name: 'Review' }).click();
    await expect
      .poll(() => page.getByTestId('recipient-count').textContent())
      .toBe(`${audience.length} recipients`);

    const mark = await outboxMark(sandbox.gateway);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Send' }).click();
    await page.getByText(`Message queued for ${audience.length} users.`).first().waitFor();
    const expected = audience.map((u) => normalizePhone(u.phoneNumber)).sort();
    await eventually(async () => {
      const messages = await readOutbox(sandbox.gateway.db, { afterId: mark, limit: 100 });
      const sent = messages.filter((m) => m.channel === 'whatsapp').map((m) => m.to);
      expect(sent.sort()).toEqual(expected);
    });
    expect(errors).toEqual([]);
  });

  it('schedules a send, lists it as scheduled and cancels it before it starts', async () => {
    const { page, errors } = await sandbox.newPage();
    await signIn(page, OWNER);
    await page.goto('/admin/tools');
    await settled(page);
    const users = (await listUsers(sandbox.gateway.db, 'flex')).map(toFlexUser);
    const audience = users.filter((u) => u.humanRegion === 'Las Vegas');

    await page.getByLabel('Region').selectOption('Las Vegas');
    const body = `Scheduled test ${Date.now()}`;
    await page.getByLabel('Message', { exact: true }).fill(body);
    const sendAt = page.getByLabel('Send at (optional)', { exact: true });
    // A time in the past is explained next to the field, and Review waits for a fix.
    await sendAt.fill('2020-01-01T09:00');
    await page.getByText('Choose a time in the future').waitFor();
    expect(await page.getByRole('button', { name: 'Review' }).isDisabled()).toBe(true);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await sendAt.fill(`${tomorrow}T09:00`);
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByText(/^Sends on /).waitFor();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Send' }).click();
    await page
      .getByText(new RegExp(`^Message scheduled for ${audience.length} users on `))
      .first()
      .waitFor();

    const scheduled = page.locator('[data-testid="send-job"][data-phase="scheduled"]', {
      hasText: body,
    });
    await scheduled.getByText(/^Scheduled for /).waitFor();
    await scheduled.getByRole('button', { name: 'Cancel send' }).click();
    const cancelled = page.locator('[data-testid="send-job"][data-phase="cancelled"]', {
      hasText: body,
    });
    await cancelled.waitFor();
    const jobId = (await cancelled.getAttribute('data-job-id'))!;
    const report = await readJobReport(sandbox.gateway.db, jobId, PRICES, { limit: 0 });
    expect(report?.counts.cancelled).toBe(audience.length);
    expect(errors).toEqual([]);
  });

  it('scrolls the review table with the page, its header staying under the top bar', async () => {
    const { page, errors } = await sandbox.newPage({ width: 1366 });
    await signIn(page, OWNER);
    await page.goto('/admin/tools');
    await settled(page);
    await page.getByLabel('Message', { exact: true }).fill('Scroll test');
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByLabel('Rows per page').selectOption('100');
    const rows = page.locator('.user-table tbody tr');
    await expect.poll(() => rows.count()).toBeGreaterThan(40);
    // One scrollbar: the table's box does not scroll on its own, the page does.
    const box = page.locator('.user-table');
    expect(await box.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
    const header = page.locator('.user-table thead th').nth(1);
    const nav = (await page.locator('header.top-nav').boundingBox())!;
    await rows.nth(40).evaluate((row) => row.scrollIntoView({ block: 'center' }));
    await eventually(async () => {
      const stuck = (await header.boundingBox())!;
      expect(stuck.y).toBeGreaterThanOrEqual(nav.y + nav.height - 1);
      expect(stuck.y).toBeLessThan(nav.y + nav.height + 4);
    });
    expect(errors).toEqual([]);
  });

  it('limits an SMS to one segment while Limit characters is checked', async () => {
    const { page } = await sandbox.newPage();
    await signIn(page, OWNER);
    await page.goto('/admin/tools');
    await settled(page);
    const box = page.getByLabel('Message', { exact: true });
    await box.fill('a'.repeat(150));
    await page.getByText('10 characters remaining').waitFor();
    await box.fill('a'.repeat(161));
    await expect.poll(() => box.inputValue()).toBe('a'.repeat(150));
    // The owner has the multi-segment permission and may clear the box.
    await page.getByLabel('Limit characters').uncheck();
    await box.fill('a'.repeat(161));
    await expect.poll(() => box.inputValue()).toBe('a'.repeat(161));
  });

  it('is not for an admin who is not the owner, and the gateway refuses them too', async () => {
    const { page, errors } = await sandbox.newPage();
    await signIn(page, ADMIN);
    await page.goto('/admin/tools');
    await settled(page);
    await page.getByTestId('owner-only').waitFor();
    expect(await page.getByRole('button', { name: 'Review' }).count()).toBe(0);
    expect(await page.getByLabel('Creation date from').count()).toBe(0);

    expect(errors).toEqual([]);
    const token = await idToken(page);
    const status = await page.evaluate(
      async ({ token, to }) => {
        const response = await fetch('/api/flex/v1/admin/sendsms', {
          method: 'POST',
          headers: {
            authorization: token,
            'content-type': 'application/json',
            'idempotency-key': 'not-owner-direct-post',
          },
          body: JSON.stringify({ numbers: [{ number: to }], message: 'Hi' }),
        });
        return response.status;
      },
      { token, to: OWNER.phoneNumber },
    );
    expect(status).toBe(403);
  });

  it('bounces a driver from /admin to /', async () => {
    const { page } = await sandbox.newPage();
    await signIn(page, DRIVER);
    await page.goto('/admin/tools');
    await page.waitForURL((u) => !u.pathname.startsWith('/admin'));
    await settled(page);
    expect(new URL(page.url()).pathname).not.toMatch(/^\/admin/);
    expect(await page.locator('.admin-tabs').count()).toBe(0);
  });
});

describe('the unpaid-invitations screen', () => {
  it('lets a non-owner admin filter invitees and send them an SMS', async () => {
    const { page, errors } = await sandbox.newPage();
    await signIn(page, ADMIN);
    await page.goto('/admin/notifications');
    await settled(page);

    const filters = {
      invitedFrom: daysAgo(54),
      invitedTo: daysAgo(40),
      registered: 'no' as const,
    };
    const users = (await listUsers(sandbox.gateway.db, 'flex')).map(toFlexUser);
    const invitations = await listInvitations(sandbox.gateway.db);
    const list = buildInviteeList(users, invitations, filters, TIME_ZONE);
    if (list.status !== 'ready') throw new Error('no invitee list');
    expect(list.invitees.length).toBeGreaterThan(3);

    await page.getByRole('heading', { name: 'Send SMS to unpaid invitations' }).waitFor();
    await page.getByLabel('Invited from', { exact: true }).fill(filters.invitedFrom);
    await page.getByLabel('Invited to', { exact: true }).fill(filters.invitedTo);
    await page.getByLabel('Registered?').selectOption('no');
    await page.getByText(`${list.invitees.length} invitations match these filters.`).waitFor();
    // Clear undoes a day filter, and the day can be set again.
    await page.getByRole('button', { name: 'Clear: Invited to' }).click();
    await expect.poll(() => page.getByLabel('Invited to', { exact: true }).inputValue()).toBe('');
    await page.getByLabel('Invited to', { exact: true }).fill(filters.invitedTo);

    const body = `Invitee test ${Date.now()}`;
    await page.getByLabel('Message', { exact: true }).fill(body);
    await page.getByRole('button', { name: 'Review' }).click();
    await expect
      .poll(() => page.getByTestId('recipient-count').textContent())
      .toBe(`${list.invitees.length} recipients`);
    // The review keeps the headers Nombre and Teléfono in English too.
    for (const column of ['Nombre', 'Teléfono', 'Expiration date', 'Status']) {
      await page.getByRole('columnheader', { name: column, exact: true }).waitFor();
    }
    await page.getByPlaceholder('Search user...').waitFor();
    await screenshot(page, 'en-admin-notifications-review');

    const mark = await outboxMark(sandbox.gateway);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Send' }).click();
    await page.getByText(`Message queued for ${list.invitees.length} users.`).first().waitFor();
    const delivered = await deliveredAfter(mark, body);
    expect(delivered.sort()).toEqual(
      list.invitees.map((i) => normalizePhone(i.phoneNumber)).sort(),
    );
    expect(errors).toEqual([]);
  });
});

describe('a review with recipients who cannot be reached', () => {
  // A region of its own: one driver the outbox delivers to, one it reports unreachable (a
  // documented test number), one opted out, one known landline and one number that is no number.
  const RENO = [
    { phone_number: '+17755550101', name: 'Rita Reno' },
    { phone_number: '+15550030003', name: 'Uma Reno' },
    { phone_number: '+17755550102', name: 'Olga Reno' },
    { phone_number: '+17755550103', name: 'Lana Reno' },
    { phone_number: '775-555', name: 'Ivan Reno' },
  ];
  beforeAll(async () => {
    const { db } = sandbox.gateway;
    await insertUsers(
      db,
      RENO.map((u) => ({ ...u, product: 'flex' as const, human_region: 'Reno' })),
    );
    await db.query('INSERT INTO opt_outs (phone_number, opted_out_ts) VALUES ($1, $2)', [
      '+17755550102',
      Date.now(),
    ]);
    await db.query(
      `INSERT INTO undeliverable_numbers (phone_number, reason, error_code, reported_ts)
       VALUES ($1, 'landline', 30006, $2)`,
      ['+17755550103', Date.now()],
    );
  });

  it('strikes them out with the reason, previews the first message and reports delivery', async () => {
    const { page, errors } = await sandbox.newPage();
    await signIn(page, OWNER);
    // The sandbox keeps quiet hours off; the gateway's count is passed through to the review.
    await page.route('**/api/flex/v1/admin/send-preview', async (route) => {
      const response = await route.fetch();
      const json = await response.json();
      await route.fulfill({ response, json: { ...json, waitingForQuietHours: json.queued } });
    });
    await page.goto('/admin/tools');
    await settled(page);
    await page.getByLabel('Region').selectOption('Reno');
    await page.getByLabel('WhatsApp').check();
    const select = page.getByLabel('Template');
    const option = select.locator('option', { hasText: '(finish_setup)' }).first();
    await select.selectOption({ label: (await option.textContent()) ?? '' });
    await page.getByRole('button', { name: 'Review' }).click();

    const marked = page.locator('.user-table tbody tr[data-mark]');
    await expect.poll(() => marked.count()).toBe(3);
    for (const [name, reason] of [
      ['Olga Reno', 'Opted out'],
      ['Lana Reno', 'Landline'],
      ['Ivan Reno', 'Invalid number'],
    ]) {
      const box = page.getByLabel(`${name} can't be selected: ${reason}`);
      expect(await box.isDisabled()).toBe(true);
      expect(await box.isChecked()).toBe(false);
    }
    await expect.poll(() => page.getByTestId('recipient-count').textContent()).toBe('2 recipients');
    await page.getByText("3 can't receive messages").waitFor();
    await expect
      .poll(() => page.getByTestId('send-when').textContent())
      .toMatch(/^Sends all 2 at 8:00\sAM in their time zone \(after quiet hours\)\.$/);
    // The message as the first selected recipient reads it: their first name filled in.
    const rendered = page.getByTestId('rendered-preview');
    await expect.poll(() => rendered.textContent()).toMatch(/\nHi (Rita|Uma), /);
    const first = (await rendered.textContent())!.match(/Hi (\w+),/)![1];
    expect(await page.getByTestId('preview-for').textContent()).toContain(`${first} Reno`);

    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Send' }).click();
    await page.getByText('Message queued for 2 users.').first().waitFor();
    // Delivery as it happens: one delivered, one the provider reported unreachable, and why.
    const job = page.locator('[data-testid="send-job"]', { hasText: 'finish_setup' }).first();
    await job.locator('[data-state="delivered"]', { hasText: 'Delivered 1' }).waitFor();
    await job.locator('[data-state="failed"]', { hasText: 'Failed 1' }).waitFor();
    await job.getByText('Why some were not delivered').click();
    await job
      .getByTestId('failure-reasons')
      .getByText('Unreachable (phone off or out of coverage) (error 30003): 1')
      .waitFor();
    expect(errors).toEqual([]);
  });
});
