// The staff audit trail: each staff action a user can take through the API leaves one event with
// who, when, what and from which address; refused requests leave none; only owners read it; and
// the table refuses to be rewritten on both databases.
import { randomUUID } from 'node:crypto';
import type { AuditEvent } from '@blockcatch/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutAndPay } from './helpers/checkout.js';
import { client } from './helpers/drivers.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { ADMIN, DRIVER, OWNER } from './helpers/people.js';
import { type DbKind, openTestDb } from './messaging-harness.js';

let running: RunningGateway;

beforeAll(async () => {
  running = await startGateway();
});

afterAll(async () => {
  await running?.gateway.close();
});

const call = (as: string) => client(running.url, running.as(as).authorization);

async function trail(query = ''): Promise<AuditEvent[]> {
  const answer = await call(OWNER)('GET', `/api/flex/v1/admin/audit?limit=500${query}`);
  expect(answer.status).toBe(200);
  return answer.body.Items;
}

/** The newest event of `action`, which must exist. */
async function latest(action: string): Promise<AuditEvent> {
  const [event] = await trail(`&action=${action}`);
  expect(event, `an event ${action}`).toBeDefined();
  return event!;
}

describe('the audit trail records', () => {
  it('each staff sign-in, with the address it came from, and no driver sign-in', async () => {
    const events = await trail('&action=admin.sign-in');
    const phones = events.map((e) => e.actorPhone);
    expect(phones).toContain(OWNER);
    expect(phones).toContain(ADMIN);
    expect(phones).not.toContain(DRIVER);
    expect(events[0]!.ip).toBe('127.0.0.1');
  });

  it('a send with its job and counts, and its cancellation', async () => {
    const sendAt = new Date(Date.now() + 3 * 24 * 3600_000).toISOString();
    const sent = await call(OWNER)(
      'POST',
      '/api/flex/v1/admin/sendsms',
      { message: 'Audit me', numbers: [{ number: '+12025550199' }], sendAt },
      { 'idempotency-key': randomUUID() },
    );
    expect(sent.status).toBe(202);
    const created = await latest('send.create');
    expect(created).toMatchObject({
      actorPhone: OWNER,
      target: sent.body.jobId,
      detail: { channel: 'sms', added: 1, queued: 1 },
      ip: '127.0.0.1',
      tokenId: null,
    });
    expect(Math.abs(created.at - Date.now())).toBeLessThan(60_000);

    const cancelled = await call(OWNER)(
      'POST',
      `/api/flex/v1/admin/send-jobs/${sent.body.jobId}/cancel`,
    );
    expect(cancelled.status).toBe(200);
    expect(await latest('send.cancel')).toMatchObject({
      actorPhone: OWNER,
      target: sent.body.jobId,
    });
  });

  it('nothing for a refused action', async () => {
    const before = (await trail()).length;
    // An admin may not cancel the owner's send, nor send to users who are not pending invitees.
    const [job] = await trail('&action=send.create');
    const refused = await call(ADMIN)('POST', `/api/flex/v1/admin/send-jobs/${job!.target}/cancel`);
    expect(refused.status).toBe(403);
    const outsider = await call(ADMIN)(
      'POST',
      '/api/flex/v1/admin/sendsms',
      { message: 'Not mine to send', numbers: [{ number: '+12025550199' }] },
      { 'idempotency-key': randomUUID() },
    );
    expect(outsider.status).toBe(403);
    expect((await trail()).length).toBe(before);
  });

  it('exports of users and invitations, with their filters', async () => {
    const users = await fetch(`${running.url}/api/admin/v1/users-export?format=csv&product=flex`, {
      headers: running.as(ADMIN),
    });
    expect(users.status).toBe(200);
    await users.text();
    expect(await latest('export.users')).toMatchObject({
      actorPhone: ADMIN,
      detail: { query: { format: 'csv', product: 'flex' } },
    });
    const invitations = await fetch(`${running.url}/api/admin/v1/invitations-export?format=csv`, {
      headers: running.as(ADMIN),
    });
    expect(invitations.status).toBe(200);
    await invitations.text();
    expect((await latest('export.invitations')).actorPhone).toBe(ADMIN);
  });

  it('a machine token created and revoked, and what that token then does', async () => {
    const created = await call(ADMIN)('POST', '/api/flex/v1/admin/api-tokens', {
      name: 'nightly-export',
      expiresInDays: 7,
    });
    expect(created.status).toBe(201);
    expect(await latest('token.create')).toMatchObject({
      actorPhone: ADMIN,
      target: created.body.id,
      detail: { name: 'nightly-export', expiresInDays: 7 },
    });
    expect(JSON.stringify(await trail())).not.toContain(created.body.token);

    const exported = await fetch(`${running.url}/api/admin/v1/invitations-export?format=csv`, {
      headers: { authorization: `Bearer ${created.body.token}` },
    });
    expect(exported.status).toBe(200);
    await exported.text();
    expect(await latest('export.invitations')).toMatchObject({
      actorPhone: ADMIN,
      tokenId: created.body.id,
    });

    const revoked = await call(ADMIN)('DELETE', `/api/flex/v1/admin/api-tokens/${created.body.id}`);
    expect(revoked.status).toBe(200);
    expect(await latest('token.revoke')).toMatchObject({
      actorPhone: ADMIN,
      target: created.body.id,
    });
  });

  it('a refund with its payment, weeks and reason', async () => {
    const { page } = await checkoutAndPay(running.url, call(DRIVER), { mode: 'payment', weeks: 2 });
    expect(page.status).toBe(303);
    const [payment] = await running.gateway.db.query<{ id: string }>(
      `SELECT p.id FROM payments p JOIN users u ON u.id = p.user_id
       WHERE u.phone_number = $1 AND p.status = 'succeeded' ORDER BY p.created_ts DESC LIMIT 1`,
      [DRIVER],
    );
    const refund = await call(OWNER)('POST', '/api/flex/v1/admin/billing/refunds', {
      paymentId: payment!.id,
      weeks: 1,
      reason: '=HYPERLINK("x") charged twice',
    });
    expect(refund.status).toBe(201);
    expect(await latest('refund.create')).toMatchObject({
      actorPhone: OWNER,
      target: payment!.id,
      detail: { weeks: 1, reason: '=HYPERLINK("x") charged twice' },
    });
  });

  it('its own export, as CSV of the filtered events', async () => {
    const exported = await call(OWNER)(
      'GET',
      '/api/flex/v1/admin/audit/export?action=refund.create',
    );
    expect(exported.status).toBe(200);
    const lines = (exported.body.csv as string).trimEnd().split('\n');
    expect(lines[0]).toBe('id,time_utc,actor,actor_phone,action,target,detail,ip,token_id');
    expect(lines).toHaveLength(exported.body.rows + 1);
    expect(lines[1]).toContain(',refund.create,');
    expect(lines.slice(1).every((l) => l.includes(',refund.create,'))).toBe(true);
    expect(await latest('export.audit')).toMatchObject({
      actorPhone: OWNER,
      detail: { filter: { action: 'refund.create' }, rows: exported.body.rows },
    });
  });
});

describe('reading the trail', () => {
  it('is for owners only', async () => {
    expect((await call(ADMIN)('GET', '/api/flex/v1/admin/audit')).status).toBe(403);
    expect((await call(DRIVER)('GET', '/api/flex/v1/admin/audit')).status).toBe(403);
    expect((await call(ADMIN)('GET', '/api/flex/v1/admin/audit/export')).status).toBe(403);
  });

  it('filters by actor and day, and pages back without repeating an event', async () => {
    const mine = await trail(`&actor=${encodeURIComponent('bennett')}`);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((e) => e.actorPhone === ADMIN)).toBe(true);
    const tomorrow = new Date(Date.now() + 24 * 3600_000).toISOString().slice(0, 10);
    expect(await trail(`&from=${tomorrow}`)).toEqual([]);
    const first = await call(OWNER)('GET', '/api/flex/v1/admin/audit?limit=2');
    expect(first.body.more).toBe(true);
    const last = first.body.Items.at(-1).id;
    const next = await call(OWNER)('GET', `/api/flex/v1/admin/audit?limit=2&before=${last}`);
    expect(next.body.Items[0].id).toBeLessThan(last);
  });

  it('answers 400 naming the field for a range that runs backwards or an unknown action', async () => {
    const backwards = await call(OWNER)(
      'GET',
      '/api/flex/v1/admin/audit?from=2026-05-02&to=2026-05-01',
    );
    expect(backwards.status).toBe(400);
    expect(backwards.body.field).toBe('to');
    const unknown = await call(OWNER)('GET', '/api/flex/v1/admin/audit?action=drop.table');
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/^action/);
  });
});

describe.each(['pglite', 'postgres'] as DbKind[])('the table on %s', (kind) => {
  it('refuses UPDATE, DELETE and TRUNCATE, and keeps the row', async () => {
    const test = await openTestDb(kind);
    try {
      await test.db.query(
        `INSERT INTO audit_events (ts, actor_id, actor_name, actor_phone, action)
         VALUES (1, 'u1', 'Ana', '+12025550100', 'send.create')`,
      );
      await expect(
        test.db.query("UPDATE audit_events SET actor_name = 'Someone else'"),
      ).rejects.toThrow(/append-only: UPDATE is refused/);
      await expect(test.db.query('DELETE FROM audit_events')).rejects.toThrow(
        /append-only: DELETE is refused/,
      );
      await expect(test.db.query('TRUNCATE audit_events')).rejects.toThrow(
        /append-only: TRUNCATE is refused/,
      );
      expect(await test.db.query('SELECT actor_name FROM audit_events')).toEqual([
        { actor_name: 'Ana' },
      ]);
    } finally {
      await test.close();
    }
  });
});
