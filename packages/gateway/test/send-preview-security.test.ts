// The send preview is the send without the sending: a non-owner admin who may not message a
// registered user cannot learn, through the preview, whether that user opted out, has a landline
// or is in quiet hours. Run against the whole gateway with real id tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { ADMIN, DRIVER, invitations, OWNER } from './helpers/people.js';

let running: RunningGateway;

beforeAll(async () => {
  running = await startGateway();
  // What the attacker is after: the registered driver opted out.
  await running.gateway.db.query(
    'INSERT INTO opt_outs (phone_number, opted_out_ts) VALUES ($1, $2)',
    [DRIVER, Date.now()],
  );
});

afterAll(async () => {
  await running?.gateway.close();
});

const post = (path: string, as: string, body: unknown) =>
  fetch(`${running.url}${path}`, {
    method: 'POST',
    headers: {
      ...running.as(as),
      'content-type': 'application/json',
      'idempotency-key': `preview-security-${Math.random()}`,
    },
    body: JSON.stringify(body),
  });

const message = 'Hello from an admin';

describe('the send preview', () => {
  it('refuses a non-owner admin previewing a registered user exactly as the send does, and reveals nothing of them', async () => {
    const numbers = [{ number: DRIVER }];
    const send = await post('/api/flex/v1/admin/sendsms', ADMIN, { numbers, message });
    const preview = await post('/api/flex/v1/admin/send-preview', ADMIN, {
      channel: 'sms',
      numbers,
      message,
    });
    expect(send.status).toBe(403);
    expect(preview.status).toBe(send.status);
    const [sent, previewed] = [await send.json(), await preview.json()];
    expect(previewed).toEqual(sent);
    expect(JSON.stringify(previewed)).not.toContain('opted-out');
  });

  it('refuses the whole preview when one number among pending invitees is not one', async () => {
    const pending = invitations.find((i) => !i.freeWeek)!;
    const preview = await post('/api/flex/v1/admin/send-preview', ADMIN, {
      channel: 'sms',
      numbers: [{ number: pending.phoneNumber }, { number: DRIVER }],
      message,
    });
    expect(preview.status).toBe(403);
    expect(await preview.json()).toMatchObject({ code: 'forbidden' });
  });

  it('still previews pending invitees for a non-owner admin, and anyone for the owner', async () => {
    const pending = invitations.find((i) => !i.freeWeek)!;
    const invitee = await post('/api/flex/v1/admin/send-preview', ADMIN, {
      channel: 'sms',
      numbers: [{ number: pending.phoneNumber }],
      message,
    });
    expect(invitee.status).toBe(200);
    const owner = await post('/api/flex/v1/admin/send-preview', OWNER, {
      channel: 'sms',
      numbers: [{ number: DRIVER }],
      message,
    });
    expect(owner.status).toBe(200);
    expect(await owner.json()).toMatchObject({
      queued: 0,
      skipped: [{ number: DRIVER, reason: 'opted-out' }],
    });
  });
});
