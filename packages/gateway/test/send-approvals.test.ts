// A second pair of eyes on large sends: a send over the owner's threshold waits, nothing goes, the
// approver sees the same review, nobody approves their own send, and a rejection cancels it.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import { HELD_TS } from '../src/storage/send-approvals.js';
import { client } from './helpers/drivers.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { ADMIN, DRIVER, OWNER } from './helpers/people.js';

let running: RunningGateway;

beforeAll(async () => {
  running = await startGateway();
});

afterAll(async () => {
  await running?.gateway.close();
});

const call = (as: string) => client(running.url, running.as(as).authorization);
const numbers = (...lines: number[]) =>
  lines.map((n) => ({ number: `+1202555${String(n).padStart(4, '0')}` }));

async function send(as: string, message: string, to: { number: string }[]) {
  return call(as)(
    'POST',
    '/api/flex/v1/admin/sendsms',
    { message, numbers: to },
    { 'idempotency-key': randomUUID() },
  );
}

async function outboxTo(phone: string): Promise<string[]> {
  const rows = await running.gateway.db.query<{ body: string }>(
    'SELECT body FROM outbox_messages WHERE to_number = $1 ORDER BY id',
    [phone],
  );
  return rows.map((r) => r.body);
}

async function setApprover(phone: string, may: boolean) {
  await running.gateway.db.query(
    "UPDATE users SET can_approve_sends = $2 WHERE product = 'flex' AND phone_number = $1",
    [phone, may],
  );
}

describe('a send over the threshold', () => {
  it('only an owner changes the threshold, and the change is audited', async () => {
    const refused = await call(ADMIN)('PUT', '/api/flex/v1/admin/send-approvals/settings', {
      threshold: 2,
    });
    expect(refused.status).toBe(403);
    const set = await call(OWNER)('PUT', '/api/flex/v1/admin/send-approvals/settings', {
      threshold: 2,
    });
    expect(set.status).toBe(200);
    const [event] = (await call(OWNER)('GET', '/api/flex/v1/admin/audit?action=settings.change'))
      .body.Items;
    expect(event).toMatchObject({
      actorPhone: OWNER,
      target: 'approvalThreshold',
      detail: { from: 1000, to: 2 },
    });
    expect((await call(ADMIN)('GET', '/api/flex/v1/admin/send-approvals')).body.threshold).toBe(2);
  });

  it('is flagged in the review; one at the threshold is not', async () => {
    const preview = (to: { number: string }[]) =>
      call(OWNER)('POST', '/api/flex/v1/admin/send-preview', {
        channel: 'sms',
        message: 'Preview me',
        numbers: to,
      });
    expect((await preview(numbers(9101, 9102, 9103))).body.approval).toBe('size');
    expect((await preview(numbers(9101, 9102))).body.approval).toBeUndefined();
  });

  it('waits held, is approved by another admin with the permission only, then goes', async () => {
    const to = numbers(9201, 9202, 9203);
    const sent = await send(OWNER, 'Held until approved', to);
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ pendingApproval: true, queued: 3 });
    expect(sent.body.message).toMatch(/^Waiting for approval/);
    const jobId = sent.body.jobId as string;
    const held = await running.gateway.db.query<{ due: number }>(
      'SELECT next_attempt_ts AS due FROM send_recipients WHERE job_id = $1',
      [jobId],
    );
    expect(held.map((r) => Number(r.due))).toEqual([HELD_TS, HELD_TS, HELD_TS]);
    const report = await call(OWNER)('GET', `/api/flex/v1/admin/send-jobs/${jobId}`);
    expect(report.body.approval).toMatchObject({ status: 'pending', reason: 'size' });
    expect(report.body.waiting).toBeUndefined();

    // The approver's review: the same count, message, schedule and cost.
    const list = await call(ADMIN)('GET', '/api/flex/v1/admin/send-approvals');
    const review = list.body.Items.find((i: { jobId: string }) => i.jobId === jobId);
    expect(review).toMatchObject({
      reason: 'size',
      requestedBy: { phoneNumber: OWNER },
      channel: 'sms',
      message: 'Held until approved',
      preview: { to: to[0]!.number, text: 'Held until approved' },
      recipients: 3,
      segments: 1,
      sendAt: null,
      estimatedCost: sent.body.estimatedCost,
      canDecide: false,
    });

    // Attacks: an admin without the permission, a driver, and the requester themself.
    const noPermission = await call(ADMIN)(
      'POST',
      `/api/flex/v1/admin/send-approvals/${jobId}/approve`,
      {},
    );
    expect(noPermission.status).toBe(403);
    expect(
      (await call(DRIVER)('POST', `/api/flex/v1/admin/send-approvals/${jobId}/approve`, {})).status,
    ).toBe(403);
    const own = await call(OWNER)('POST', `/api/flex/v1/admin/send-approvals/${jobId}/approve`, {
      note: 'looks fine to me',
    });
    expect(own.status).toBe(403);
    expect(own.body.message).toMatch(/^You asked for this send/);
    expect(await outboxTo(to[0]!.number)).toEqual([]);

    await setApprover(ADMIN, true);
    const approved = await call(ADMIN)(
      'POST',
      `/api/flex/v1/admin/send-approvals/${jobId}/approve`,
      { note: 'Checked the link' },
    );
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', note: 'Checked the link' });
    await eventually(async () => {
      for (const { number } of to) expect(await outboxTo(number)).toEqual(['Held until approved']);
    });
    const again = await call(OWNER)('POST', `/api/flex/v1/admin/send-approvals/${jobId}/reject`, {
      note: 'too late',
    });
    expect(again.status).toBe(409);
    const [event] = (await call(OWNER)('GET', '/api/flex/v1/admin/audit?action=send.approve')).body
      .Items;
    expect(event).toMatchObject({
      actorPhone: ADMIN,
      target: jobId,
      detail: { note: 'Checked the link' },
    });
  });

  it('is cancelled by a rejection, which must say why', async () => {
    await setApprover(ADMIN, true);
    const to = numbers(9301, 9302, 9303);
    const sent = await send(OWNER, 'Rejected send', to);
    const jobId = sent.body.jobId as string;
    const silent = await call(ADMIN)(
      'POST',
      `/api/flex/v1/admin/send-approvals/${jobId}/reject`,
      {},
    );
    expect(silent.status).toBe(400);
    expect(silent.body.field).toBe('note');
    const rejected = await call(ADMIN)(
      'POST',
      `/api/flex/v1/admin/send-approvals/${jobId}/reject`,
      { note: 'Wrong audience' },
    );
    expect(rejected.status).toBe(200);
    const report = await call(OWNER)('GET', `/api/flex/v1/admin/send-jobs/${jobId}`);
    expect(report.body).toMatchObject({
      approval: { status: 'rejected', note: 'Wrong audience' },
      counts: { cancelled: 3, queued: 0 },
      done: true,
    });
    expect(report.body.cancelledAt).not.toBeNull();
    const pending = await call(ADMIN)('GET', '/api/flex/v1/admin/send-approvals');
    expect(pending.body.Items.map((i: { jobId: string }) => i.jobId)).not.toContain(jobId);
    expect(
      (await call(OWNER)('GET', '/api/flex/v1/admin/audit?action=send.reject')).body.Items[0],
    ).toMatchObject({ actorPhone: ADMIN, target: jobId, detail: { note: 'Wrong audience' } });
  });

  it("holds recipients added later under the send's key while it waits", async () => {
    const key = randomUUID();
    const first = await call(OWNER)(
      'POST',
      '/api/flex/v1/admin/sendsms',
      { message: 'Grows while held', numbers: numbers(9401, 9402, 9403) },
      { 'idempotency-key': key },
    );
    expect(first.body.pendingApproval).toBe(true);
    const more = await call(OWNER)(
      'POST',
      '/api/flex/v1/admin/sendsms',
      { message: 'Grows while held', numbers: numbers(9404) },
      { 'idempotency-key': key },
    );
    expect(more.status).toBe(202);
    expect(more.body.pendingApproval).toBe(true);
    const due = await running.gateway.db.query<{ due: number }>(
      'SELECT next_attempt_ts AS due FROM send_recipients WHERE job_id = $1',
      [first.body.jobId],
    );
    expect(due.map((r) => Number(r.due))).toEqual([HELD_TS, HELD_TS, HELD_TS, HELD_TS]);
  });
});

describe("the approvers' alert", () => {
  const setUser = (phone: string, column: 'name' | 'preferred_language', value: string) =>
    running.gateway.db.query(
      `UPDATE users SET ${column} = $2 WHERE product = 'flex' AND phone_number = $1`,
      [phone, value],
    );
  /** The alert texts queued for one send, by the number they go to. */
  const alertsFor = async (jobId: string) =>
    running.gateway.db.query<{ to: string; body: string }>(
      `SELECT r.to_number AS to, j.body FROM send_jobs j JOIN send_recipients r ON r.job_id = j.id
       WHERE j.idempotency_key LIKE $1 ORDER BY r.to_number`,
      [`alert:approval:${jobId}:%`],
    );
  const askFor = (key: string, message: string, to: { number: string }[]) =>
    call(OWNER)(
      'POST',
      '/api/flex/v1/admin/sendsms',
      { message, numbers: to },
      { 'idempotency-key': key },
    );

  it('texts every approver but the asker once, in their language, with the link to Approvals', async () => {
    await call(OWNER)('PUT', '/api/flex/v1/admin/send-approvals/settings', { threshold: 2 });
    await setApprover(ADMIN, true);
    await setUser(OWNER, 'name', 'Olivia Owner');
    await setUser(ADMIN, 'preferred_language', 'es');
    const key = randomUUID();
    const sent = await askFor(key, 'Alert the approvers', numbers(9501, 9502, 9503));
    expect(sent.body.pendingApproval).toBe(true);
    // The same send grown under its key is still one request for approval.
    expect((await askFor(key, 'Alert the approvers', numbers(9504))).body.pendingApproval).toBe(
      true,
    );
    const alerts = await alertsFor(sent.body.jobId);
    // Neither the asker nor a driver is asked; the one approver is, once.
    expect(alerts.map((a) => a.to)).toEqual([ADMIN]);
    expect(alerts[0]!.body).toMatch(
      /^BlockCatch: Olivia te pide aprobar un envío\. Destinatarios: 3\. Revísalo en Aprobaciones: http:\/\/\S+\/admin\/approvals$/,
    );
    await eventually(async () => expect(await outboxTo(ADMIN)).toContain(alerts[0]!.body));
  });

  it('names an asker whose name carries a link as "another admin"', async () => {
    await setApprover(ADMIN, true);
    await setUser(ADMIN, 'preferred_language', 'en');
    await setUser(OWNER, 'name', 'Claim $500 http://evil.example/x');
    const sent = await askFor(randomUUID(), 'Asked by a strange name', numbers(9601, 9602, 9603));
    expect(sent.body.pendingApproval).toBe(true);
    const [alert] = await alertsFor(sent.body.jobId);
    expect(alert!.body).toMatch(
      /^BlockCatch: another admin asks you to approve a send\. Recipients: 3\./,
    );
    expect(alert!.body).not.toMatch(/evil|Claim|\$500/);
  });
});

describe('who may approve', () => {
  const approvers = (as: string) => call(as)('GET', '/api/flex/v1/admin/send-approvals/approvers');
  const setFor = (as: string, phone: string, canApprove: unknown) =>
    call(as)('PUT', `/api/flex/v1/admin/send-approvals/approvers/${encodeURIComponent(phone)}`, {
      canApprove,
    });

  it('is listed and changed by an owner only, audited, and takes effect', async () => {
    await setApprover(ADMIN, false);
    const listed = await approvers(OWNER);
    expect(listed.status).toBe(200);
    expect(listed.body.Items).toContainEqual(
      expect.objectContaining({ phoneNumber: OWNER, owner: true, canApprove: true }),
    );
    expect(listed.body.Items).toContainEqual(
      expect.objectContaining({ phoneNumber: ADMIN, owner: false, canApprove: false }),
    );
    expect(listed.body.Items.map((a: { phoneNumber: string }) => a.phoneNumber)).not.toContain(
      DRIVER,
    );

    // Attacks: an admin granting themself the permission, a driver, and reading the list.
    expect((await setFor(ADMIN, ADMIN, true)).status).toBe(403);
    expect((await setFor(DRIVER, ADMIN, true)).status).toBe(403);
    expect((await approvers(ADMIN)).status).toBe(403);
    expect((await approvers(DRIVER)).status).toBe(403);

    const granted = await setFor(OWNER, ADMIN, true);
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({ phoneNumber: ADMIN, canApprove: true });
    const [event] = (await call(OWNER)('GET', '/api/flex/v1/admin/audit?action=role.change')).body
      .Items;
    expect(event).toMatchObject({
      actorPhone: OWNER,
      target: ADMIN,
      detail: { permission: 'approveSends', from: false, to: true },
    });
    // The admin's own view of the Approvals page now says they may decide.
    await eventually(async () =>
      expect((await call(ADMIN)('GET', '/api/flex/v1/admin/send-approvals')).body.canApprove).toBe(
        true,
      ),
    );
    expect((await setFor(OWNER, ADMIN, false)).body.canApprove).toBe(false);
    await eventually(async () =>
      expect((await call(ADMIN)('GET', '/api/flex/v1/admin/send-approvals')).body.canApprove).toBe(
        false,
      ),
    );
  });

  it('refuses a driver, an owner, an unknown number and a body that is not a yes or no', async () => {
    const driver = await setFor(OWNER, DRIVER, true);
    expect(driver.status).toBe(404);
    expect(driver.body.code).toBe('not_found');
    const owner = await setFor(OWNER, OWNER, false);
    expect(owner.status).toBe(409);
    expect(owner.body.message).toMatch(/owners always approve/);
    expect((await setFor(OWNER, '+12025550000', true)).status).toBe(404);
    const notAPhone = await setFor(OWNER, 'x'.repeat(100), true);
    expect(notAPhone.status).toBe(400);
    const notABoolean = await setFor(OWNER, ADMIN, 'yes');
    expect(notABoolean.status).toBe(400);
    expect(notABoolean.body.field).toBe('canApprove');
  });
});
