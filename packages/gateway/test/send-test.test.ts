// "Send a test to me": the exact message, rendered for a recipient the admin picks, goes to the
// admin's own phone only, marked as a test in the trail and left out of every job and count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertTemplates } from '../src/storage/templates.js';
import { client } from './helpers/drivers.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { ADMIN, DRIVER, flexUsers, OWNER } from './helpers/people.js';

let running: RunningGateway;
const someone = flexUsers[0]!;

beforeAll(async () => {
  running = await startGateway();
  await upsertTemplates(running.gateway.db, [
    {
      id: 'tpl-hello',
      name: 'hello_driver',
      language: 'en',
      components: [{ type: 'BODY', text: 'Hi {{1}}, your week is ready.' }],
      variables: [{ key: '1', type: 'text', source: 'firstName' }],
      // Only a template WhatsApp approved, under its Content SID, is sent.
      contentSid: `HX${'a'.repeat(32)}`,
      approvalStatus: 'approved',
    },
  ]);
});

afterAll(async () => {
  await running?.gateway.close();
});

const call = (as: string) => client(running.url, running.as(as).authorization);

async function outbox() {
  return running.gateway.db.query<{ to_number: string; body: string; job_id: string | null }>(
    'SELECT to_number, body, job_id FROM outbox_messages ORDER BY id',
  );
}

async function jobCount(): Promise<number> {
  const [row] = await running.gateway.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM send_jobs',
  );
  return row!.n;
}

describe('a test send', () => {
  it("goes only to the admin's own phone, in no job, and is audited as a test", async () => {
    const jobs = await jobCount();
    const before = (await outbox()).length;
    const sent = await call(OWNER)('POST', '/api/flex/v1/admin/send-test', {
      channel: 'sms',
      message: 'Renewals open today',
      renderFor: someone.phoneNumber,
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({
      to: OWNER,
      renderedFor: someone.phoneNumber,
      text: 'Renewals open today',
      segments: 1,
      test: true,
    });
    const after = (await outbox()).slice(before);
    expect(after).toEqual([{ to_number: OWNER, body: 'Renewals open today', job_id: null }]);
    expect(await jobCount()).toBe(jobs);
    const listed = await call(OWNER)('GET', '/api/flex/v1/admin/send-jobs?origin=all');
    expect(listed.body.Items).toHaveLength(jobs);
    const [event] = (await call(OWNER)('GET', '/api/flex/v1/admin/audit?action=send.test')).body
      .Items;
    expect(event).toMatchObject({
      actorPhone: OWNER,
      target: OWNER,
      detail: { channel: 'sms', renderedFor: someone.phoneNumber },
    });
  });

  it('renders a WhatsApp template with the chosen recipient’s own values', async () => {
    const before = (await outbox()).length;
    const sent = await call(OWNER)('POST', '/api/flex/v1/admin/send-test', {
      channel: 'whatsapp',
      msgTemplate: {
        name: 'hello_driver',
        language: 'en',
        components: [{ type: 'BODY', text: 'Hi {{1}}, your week is ready.' }],
      },
      renderFor: someone.phoneNumber,
    });
    expect(sent.status).toBe(200);
    const firstName = someone.name.split(' ')[0]!;
    expect(sent.body.text).toBe(`Hi ${firstName}, your week is ready.`);
    expect((await outbox()).slice(before)).toEqual([
      { to_number: OWNER, body: `Hi ${firstName}, your week is ready.`, job_id: null },
    ]);
  });

  it("keeps the sender's permissions: a multi-segment test needs that permission, a driver none", async () => {
    const long = await call(ADMIN)('POST', '/api/flex/v1/admin/send-test', {
      channel: 'sms',
      message: 'x'.repeat(161),
    });
    expect(long.status).toBe(403);
    const short = await call(ADMIN)('POST', '/api/flex/v1/admin/send-test', {
      channel: 'sms',
      message: 'Short one',
    });
    expect(short.status).toBe(200);
    expect(short.body.to).toBe(ADMIN);
    expect(
      (
        await call(DRIVER)('POST', '/api/flex/v1/admin/send-test', {
          channel: 'sms',
          message: 'hi',
        })
      ).status,
    ).toBe(403);
  });

  it('answers 400 naming renderFor for a number that is not one', async () => {
    const bad = await call(OWNER)('POST', '/api/flex/v1/admin/send-test', {
      channel: 'sms',
      message: 'hi',
      renderFor: 'not a phone',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('renderFor');
  });
});
