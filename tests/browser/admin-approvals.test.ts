// The second pair of eyes in a real browser against the real gateway: the owner lowers the
// threshold and gives another admin the approval permission, a send over it waits (its review says
// so, with the cost), the owner cannot approve their own send, the other admin is alerted by text
// and on screen, reviews and approves it and it goes; a second send is rejected with a note and
// never goes.

import { listUsers, readJobReport, readOutbox, toFlexUser } from '@blockcatch/gateway/testing';
import { filterAudience, normalizePhone } from '@blockcatch/sdk';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import {
  ADMIN,
  type BrowserSandbox,
  OWNER,
  outboxMark,
  settled,
  signIn,
  startBrowserSandbox,
} from './harness.js';

const TIME_ZONE = 'America/New_York';
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
const PRICES = { smsSegment: 0, whatsappMessage: 0 };

let sandbox: BrowserSandbox;
beforeAll(async () => {
  sandbox = await startBrowserSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});

const FILTERS = { byRegion: 'Miami', startDate: daysAgo(115), endDate: daysAgo(24) };

async function jobOf(body: string): Promise<string> {
  const [row] = await sandbox.gateway.db.query<{ id: string }>(
    'SELECT id FROM send_jobs WHERE body = $1',
    [body],
  );
  expect(row, `a job for ${body}`).toBeDefined();
  return row!.id;
}

/** The owner sets the threshold to 5 on the Approvals page. */
async function lowerThreshold(page: Page) {
  await page.goto('/admin/approvals');
  await settled(page);
  await page.getByRole('textbox', { name: 'Approval threshold' }).fill('5');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Threshold saved.').waitFor();
}

describe('a send over the approval threshold', () => {
  it('waits for another admin, who is alerted, reviews and approves it; the requester cannot', async () => {
    const users = (await listUsers(sandbox.gateway.db, 'flex')).map(toFlexUser);
    const audience = filterAudience(users, FILTERS, {
      product: 'flex',
      billingDetails: true,
      timeZone: TIME_ZONE,
    });
    expect(audience.length).toBeGreaterThan(5);

    const owner = await sandbox.newPage();
    await signIn(owner.page, OWNER);
    await lowerThreshold(owner.page);
    // The owner lets the other admin approve: the owner's own box is ticked and cannot change.
    const approvers = owner.page.getByTestId('approvers');
    expect(
      await approvers.getByRole('checkbox', { name: new RegExp(OWNER.name) }).isChecked(),
    ).toBe(true);
    expect(
      await approvers.getByRole('checkbox', { name: new RegExp(OWNER.name) }).isDisabled(),
    ).toBe(true);
    const adminBox = approvers.getByRole('checkbox', { name: new RegExp(ADMIN.name) });
    expect(await adminBox.isChecked()).toBe(false);
    // The box shows what the gateway holds: it ticks once the change is saved.
    await adminBox.click();
    await owner.page.getByText(`${ADMIN.name} can now approve sends.`).waitFor();
    await eventually(async () => expect(await adminBox.isChecked()).toBe(true));

    await owner.page.goto('/admin/tools');
    await settled(owner.page);
    await owner.page.getByLabel('Region').selectOption('Miami');
    await owner.page.getByLabel('Creation date from').fill(FILTERS.startDate);
    await owner.page.getByLabel('Creation date to').fill(FILTERS.endDate);
    const body = `Needs a second look ${Date.now()}`;
    await owner.page.getByLabel('Message', { exact: true }).fill(body);
    await owner.page.getByRole('button', { name: 'Review' }).click();
    await owner.page.getByTestId('needs-approval').waitFor();
    expect(await owner.page.getByTestId('needs-approval').textContent()).toMatch(
      /wait until another admin approves it/,
    );
    expect(await owner.page.getByTestId('estimated-cost').textContent()).toMatch(
      /^Estimated cost: \$\d+\.\d\d \(1 segment per message\)\.$/,
    );
    const mark = await outboxMark(sandbox.gateway);
    await owner.page.getByRole('button', { name: 'Send', exact: true }).click();
    await owner.page.getByRole('dialog').getByRole('button', { name: 'Send' }).click();
    await owner.page
      .getByText(/^Waiting for approval/)
      .first()
      .waitFor();
    const jobId = await jobOf(body);

    // The requester sees it waiting, but is not alerted and cannot approve it.
    await owner.page.goto('/admin/approvals');
    await settled(owner.page);
    const ownCard = owner.page.getByTestId('approval-card');
    await ownCard.getByText(body).waitFor();
    expect(await owner.page.getByTestId('approval-alert').count()).toBe(0);
    await ownCard.getByRole('button', { name: 'Approve' }).click();
    await owner.page
      .getByText(
        'You asked for this send; another admin with the approval permission must approve it.',
      )
      .waitFor();
    expect(
      (await readJobReport(sandbox.gateway.db, jobId, PRICES, { limit: 0 }))?.counts,
    ).toMatchObject({ queued: audience.length, sent: 0, delivered: 0 });

    // Another admin with the permission is texted the Approvals page's address...
    await eventually(async () => {
      const texts = await readOutbox(sandbox.gateway.db, { afterId: mark, limit: 1000 });
      expect(
        texts.filter((m) => m.to === normalizePhone(ADMIN.phoneNumber)).map((m) => m.body),
      ).toEqual([expect.stringMatching(/asks you to approve a send\. .*\/admin\/approvals$/)]);
    });
    // ...and alerted on any admin screen.
    const admin = await sandbox.newPage();
    await signIn(admin.page, ADMIN);
    await admin.page.goto('/admin');
    await admin.page
      .getByTestId('approval-alert')
      .getByText('1 send waits for your approval.')
      .waitFor();
    await admin.page.getByTestId('approval-alert').getByRole('link', { name: 'Review' }).click();
    await admin.page.waitForURL('**/admin/approvals');
    const card = admin.page.getByTestId('approval-card');
    expect(await card.getByTestId('approval-message').textContent()).toBe(body);
    expect(await card.getByTestId('approval-recipients').textContent()).toBe(
      `${audience.length} recipients`,
    );
    expect(await card.getByTestId('approval-cost').textContent()).toMatch(/^\$\d+\.\d\d$/);
    await card.getByLabel(/^Note/).fill('Checked the audience');
    await card.getByRole('button', { name: 'Approve' }).click();
    await admin.page.getByTestId('approvals-none').waitFor();

    const expected = audience.map((u) => normalizePhone(u.phoneNumber)).sort();
    await eventually(
      async () => {
        const messages = await readOutbox(sandbox.gateway.db, { afterId: mark, limit: 1000 });
        expect(
          messages
            .filter((m) => m.jobId === jobId)
            .map((m) => m.to)
            .sort(),
        ).toEqual(expected);
      },
      { timeout: 30_000 },
    );
    expect(owner.errors.filter((e) => !e.includes('403'))).toEqual([]);
    expect(admin.errors).toEqual([]);
  });

  it('is rejected with a note by another admin and never goes', async () => {
    // The permission the first test gives on the page, so that this one also runs alone.
    await sandbox.gateway.db.query(
      "UPDATE users SET can_approve_sends = true WHERE product = 'flex' AND phone_number = $1",
      [ADMIN.phoneNumber],
    );
    const owner = await sandbox.newPage();
    await signIn(owner.page, OWNER);
    await lowerThreshold(owner.page);
    await owner.page.goto('/admin/tools');
    await settled(owner.page);
    await owner.page.getByLabel('Region').selectOption('Miami');
    await owner.page.getByLabel('Creation date from').fill(FILTERS.startDate);
    await owner.page.getByLabel('Creation date to').fill(FILTERS.endDate);
    const body = `Wrong audience ${Date.now()}`;
    await owner.page.getByLabel('Message', { exact: true }).fill(body);
    await owner.page.getByRole('button', { name: 'Review' }).click();
    await owner.page.getByTestId('needs-approval').waitFor();

    // A test to the owner's own phone first: it is no send and needs no approval.
    await owner.page.getByRole('button', { name: 'Send a test to me' }).click();
    await owner.page
      .getByTestId('send-test-result')
      .getByText(/^Test sent to your phone/)
      .waitFor();
    const tests = await sandbox.gateway.db.query<{ to_number: string; job_id: string | null }>(
      'SELECT to_number, job_id FROM outbox_messages WHERE body = $1',
      [body],
    );
    expect(tests).toEqual([{ to_number: OWNER.phoneNumber, job_id: null }]);
    await owner.page.getByRole('button', { name: 'Send', exact: true }).click();
    await owner.page.getByRole('dialog').getByRole('button', { name: 'Send' }).click();
    await owner.page
      .getByText(/^Waiting for approval/)
      .first()
      .waitFor();
    const jobId = await jobOf(body);

    const admin = await sandbox.newPage();
    await signIn(admin.page, ADMIN);
    await admin.page.goto('/admin/approvals');
    await settled(admin.page);
    const card = admin.page.getByTestId('approval-card');
    await card.getByText(body).waitFor();
    await card.getByRole('button', { name: 'Reject' }).click();
    await card.getByText('Say why you reject it, so the requester can fix the send.').waitFor();
    await card.getByLabel(/^Note/).fill('Miami drivers already renewed');
    await card.getByRole('button', { name: 'Reject' }).click();
    await admin.page.getByTestId('approvals-none').waitFor();

    const report = await readJobReport(sandbox.gateway.db, jobId, PRICES, { limit: 0 });
    expect(report).toMatchObject({ done: true, counts: { queued: 0, sent: 0, delivered: 0 } });
    expect(report!.counts.cancelled).toBeGreaterThan(5);
    expect(admin.errors).toEqual([]);
  });
});
