// Owners make a Flex user an admin or take admin away, and nobody else can: every change is in the
// audit trail, a removed admin's signed-in session is refused the admin area at its next request,
// and a WhatsApp template sync is recorded with the templates whose status changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
const setAdmin = (as: string, phone: string, body: unknown) =>
  call(as)('PUT', `/api/flex/v1/admin/users/${encodeURIComponent(phone)}/role`, body);
/** An admin-only read: what a session with the admin area may open. */
const adminArea = async (as: string) =>
  (await call(as)('GET', '/api/flex/v1/admin/send-approvals')).status;
const trail = async (action: string) =>
  (await call(OWNER)('GET', `/api/flex/v1/admin/audit?action=${action}`)).body.Items as {
    actorPhone: string;
    target: string | null;
    detail: Record<string, unknown>;
  }[];

describe("an admin's role", () => {
  it('is given and taken by an owner, audited, and applies to the signed-in session at once', async () => {
    expect(await adminArea(DRIVER)).toBe(403);

    const made = await setAdmin(OWNER, DRIVER, { admin: true });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ phoneNumber: DRIVER, admin: true });
    expect(made.body.name).toEqual(expect.any(String));
    // The same session, already signed in, opens the admin area on its next request.
    expect(await adminArea(DRIVER)).toBe(200);
    expect((await trail('role.change'))[0]).toMatchObject({
      actorPhone: OWNER,
      target: DRIVER,
      detail: { role: 'admin', from: false, to: true },
    });

    // An approval permission given meanwhile goes with the role.
    const approver = await call(OWNER)(
      'PUT',
      `/api/flex/v1/admin/send-approvals/approvers/${encodeURIComponent(DRIVER)}`,
      { canApprove: true },
    );
    expect(approver.status).toBe(200);

    const removed = await setAdmin(OWNER, DRIVER, { admin: false });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ phoneNumber: DRIVER, admin: false });
    // Refused at its very next request: no waiting for the session's cached principal to expire.
    expect(await adminArea(DRIVER)).toBe(403);
    expect((await trail('role.change'))[0]).toMatchObject({
      actorPhone: OWNER,
      target: DRIVER,
      detail: { role: 'admin', from: true, to: false },
    });
    const admins = (await call(OWNER)('GET', '/api/flex/v1/admin/send-approvals/approvers')).body
      .Items as { phoneNumber: string }[];
    expect(admins.map((a) => a.phoneNumber)).not.toContain(DRIVER);

    expect((await setAdmin(OWNER, DRIVER, { admin: true })).status).toBe(200);
    const again = (await call(OWNER)('GET', '/api/flex/v1/admin/send-approvals/approvers')).body
      .Items as { phoneNumber: string; canApprove: boolean }[];
    expect(again.find((a) => a.phoneNumber === DRIVER)?.canApprove).toBe(false);
    expect((await setAdmin(OWNER, DRIVER, { admin: false })).status).toBe(200);
  });

  it('cannot be changed by an admin or a driver, for themselves or anyone, and nothing is recorded', async () => {
    const before = (await trail('role.change')).length;
    // An admin making a driver an admin, keeping themselves one, or demoting the owner.
    const byAdmin = await setAdmin(ADMIN, DRIVER, { admin: true });
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.code).toBe('forbidden');
    expect((await setAdmin(ADMIN, ADMIN, { admin: true })).status).toBe(403);
    expect((await setAdmin(ADMIN, OWNER, { admin: false })).status).toBe(403);
    // A driver making themselves an admin.
    expect((await setAdmin(DRIVER, DRIVER, { admin: true })).status).toBe(403);
    expect(await adminArea(DRIVER)).toBe(403);
    expect(await adminArea(OWNER)).toBe(200);
    expect(await trail('role.change')).toHaveLength(before);
  });

  it('refuses the owner themselves, an unknown number and a body that is not a yes or no', async () => {
    const before = (await trail('role.change')).length;
    const self = await setAdmin(OWNER, OWNER, { admin: false });
    expect(self.status).toBe(409);
    expect(self.body).toMatchObject({ code: 'conflict', field: 'phone' });
    expect(self.body.message).toMatch(/owner stays an admin/);
    expect(await adminArea(OWNER)).toBe(200);

    const unknown = await setAdmin(OWNER, '+12025550000', { admin: true });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');

    expect((await setAdmin(OWNER, 'x'.repeat(100), { admin: true })).status).toBe(400);
    for (const body of [{ admin: 'yes' }, {}, { admin: null }]) {
      const bad = await setAdmin(OWNER, DRIVER, body);
      expect(bad.status).toBe(400);
      expect(bad.body.field).toBe('admin');
    }
    // Nothing else rides along: no owner role through the same body.
    expect((await setAdmin(OWNER, DRIVER, { admin: true, role: 'owner' })).status).toBe(400);
    expect(await adminArea(DRIVER)).toBe(403);
    expect(await trail('role.change')).toHaveLength(before);
  });
});

describe('a WhatsApp template sync', () => {
  it('is recorded with the templates whose status changed, and refused to staff without billing details', async () => {
    const before = (await trail('template.change')).length;
    expect((await call(ADMIN)('POST', '/api/flex/v1/admin/templates/sync', {})).status).toBe(403);
    expect((await call(DRIVER)('POST', '/api/flex/v1/admin/templates/sync', {})).status).toBe(403);
    expect(await trail('template.change')).toHaveLength(before);

    // The sandbox has no Content API: nothing changes, and the trail says so.
    const synced = await call(OWNER)('POST', '/api/flex/v1/admin/templates/sync', {});
    expect(synced.status).toBe(200);
    const events = await trail('template.change');
    expect(events).toHaveLength(before + 1);
    expect(events[0]).toMatchObject({
      actorPhone: OWNER,
      target: 'templates',
      detail: { changed: [], failed: [] },
    });
  });
});
