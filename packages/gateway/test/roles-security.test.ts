// Attacks by signed-in staff and drivers on other people's data: reading another member's
// one-time code in the sandbox outbox, inviting a registered user so that any admin may message
// them as a "pending invitee", and cancelling someone else's send or the service's own texts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutAndPay } from './helpers/checkout.js';
import { client } from './helpers/drivers.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { ADMIN, DRIVER, OWNER } from './helpers/people.js';
import { cognitoCall } from './identity-harness.js';

let running: RunningGateway;

beforeAll(async () => {
  running = await startGateway();
});

afterAll(async () => {
  await running?.gateway.close();
});

const api = (path: string, as: string, init: { method?: string; body?: unknown } = {}) =>
  fetch(`${running.url}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...running.as(as),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      'idempotency-key': `key-${Math.random()}`,
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });

async function resetCodeSentTo(phone: string): Promise<string> {
  await cognitoCall(`${running.url}/`, 'ForgotPassword', {
    ClientId: running.gateway.config.clientId,
    Username: phone,
  });
  const [row] = await running.gateway.db.query<{ body: string }>(
    'SELECT body FROM outbox_messages WHERE to_number = $1 ORDER BY id DESC LIMIT 1',
    [phone],
  );
  return row!.body.match(/(\d{6})$/)![1]!;
}

const outboxBodies = async (as: string, to: string) => {
  const response = await api(`/api/sandbox/outbox?to=${encodeURIComponent(to)}`, as);
  expect(response.status).toBe(200);
  return ((await response.json()) as { Items: { body: string }[] }).Items.map((i) => i.body);
};

describe('the sandbox outbox', () => {
  it("masks a staff member's code for another admin, shows it to the owner and to its addressee", async () => {
    const code = await resetCodeSentTo(DRIVER);
    const seenByAdmin = (await outboxBodies(ADMIN, DRIVER)).join('\n');
    expect(seenByAdmin).not.toContain(code);
    expect(seenByAdmin).toContain('password reset code is ••••••');
    expect((await outboxBodies(OWNER, DRIVER)).join('\n')).toContain(code);

    const own = await resetCodeSentTo(ADMIN);
    expect((await outboxBodies(ADMIN, ADMIN)).join('\n')).toContain(own);
  });
});

describe('invitations', () => {
  // Both have paid once, as invitations need: only the number they invite is refused.
  beforeAll(async () => {
    for (const who of [DRIVER, ADMIN]) {
      const { page } = await checkoutAndPay(
        running.url,
        client(running.url, running.as(who).authorization),
        {
          mode: 'payment',
          weeks: 1,
        },
      );
      expect(page.status).toBe(303);
    }
  });

  it('refuses a driver inviting a number that already has an account', async () => {
    const response = await api('/api/flex/v1/invitations', DRIVER, {
      method: 'POST',
      body: { phoneNumber: OWNER },
    });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ code: 'conflict', field: 'phoneNumber' });
  });

  it('keeps a non-owner admin from making a registered user a pending invitee and messaging them', async () => {
    const invite = await api('/api/flex/v1/invitations', ADMIN, {
      method: 'POST',
      body: { phoneNumber: DRIVER },
    });
    expect(invite.status).toBe(409);
    const send = await api('/api/flex/v1/admin/sendsms', ADMIN, {
      method: 'POST',
      body: { numbers: [{ number: DRIVER }], message: 'Hello from an admin' },
    });
    expect(send.status).toBe(403);
    const [sent] = await running.gateway.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM outbox_messages WHERE body = 'Hello from an admin'",
    );
    expect(sent!.n).toBe(0);
  });
});

describe('cancelling a send', () => {
  const tomorrow = () => new Date(Date.now() + 24 * 3600_000).toISOString();
  const scheduleAs = async (as: string, to: string) => {
    const response = await api('/api/flex/v1/admin/sendsms', as, {
      method: 'POST',
      body: { numbers: [{ number: to }], message: 'Blocks open tomorrow', sendAt: tomorrow() },
    });
    expect(response.status).toBe(202);
    return ((await response.json()) as { jobId: string }).jobId;
  };
  const cancel = (as: string, jobId: string) =>
    api(`/api/flex/v1/admin/send-jobs/${jobId}/cancel`, as, { method: 'POST' });
  const queuedOf = async (jobId: string) => {
    const [row] = await running.gateway.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM send_recipients WHERE job_id = $1 AND status = 'queued'",
      [jobId],
    );
    return row!.n;
  };

  it("refuses a non-owner admin cancelling the owner's scheduled send, and leaves it queued", async () => {
    const jobId = await scheduleAs(OWNER, DRIVER);
    const response = await cancel(ADMIN, jobId);
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'forbidden' });
    expect(await queuedOf(jobId)).toBe(1);
    expect((await cancel(OWNER, jobId)).status).toBe(200);
    expect(await queuedOf(jobId)).toBe(0);
  });

  it('lets an admin cancel a send they created themselves', async () => {
    const [invitee] = await running.gateway.db.query<{ normalized_phone: string }>(
      `SELECT normalized_phone FROM invitations
       WHERE NOT free_week AND normalized_phone IS NOT NULL LIMIT 1`,
    );
    const jobId = await scheduleAs(ADMIN, invitee!.normalized_phone);
    expect((await cancel(ADMIN, jobId)).status).toBe(200);
    expect(await queuedOf(jobId)).toBe(0);
  });

  it("refuses anyone, the owner too, cancelling the service's own texts (an invitation, an alert)", async () => {
    for (const key of ['invitation:+15555550142', 'alert:block-won:1']) {
      const queued = await running.gateway.messaging.enqueue({
        createdBy: 'some-driver',
        key,
        to: '+15555550142',
        body: 'A text the service sends',
        sendAt: Date.now() + 24 * 3600_000,
      });
      const jobId = queued.jobId!;
      for (const as of [ADMIN, OWNER]) {
        const response = await cancel(as, jobId);
        expect(response.status).toBe(403);
        expect(await response.json()).toMatchObject({ code: 'forbidden' });
      }
      expect(await queuedOf(jobId)).toBe(1);
    }
  });
});
