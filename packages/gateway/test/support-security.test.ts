// Support requests under attack: a body past its bounds, a driver reading or answering someone
// else's requests, a name or phone sent in the body, more open requests than allowed; and the way
// an answer reaches the driver (texted, or in the app only).
import { MAX_OPEN_SUPPORT_REQUESTS, MAX_SUPPORT_MESSAGE_LENGTH } from '@blockcatch/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import { readOutbox } from '../src/storage/outbox.js';
import { addDriver, type Client, client } from './helpers/drivers.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { ADMIN, DRIVER } from './helpers/people.js';

let running: RunningGateway;
let staff: Client;
let driverOfStaff: Client;

beforeAll(async () => {
  running = await startGateway();
  staff = client(running.url, running.as(ADMIN).authorization);
  driverOfStaff = client(running.url, running.as(DRIVER).authorization);
});
afterAll(async () => {
  await running?.gateway.close();
});

const ask = (call: Client, body: unknown) => call('POST', '/api/flex/v1/support', body);

describe('a support request', () => {
  it('is stored with the name and phone of the account, not of the body', async () => {
    const { phone, call } = await addDriver(running, { name: 'Rosa Díaz' });
    const sent = await ask(call, { topic: 'payment', message: 'My card was charged twice.' });
    expect(sent.status).toBe(201);
    expect(sent.body.Item).toMatchObject({
      topic: 'payment',
      name: 'Rosa Díaz',
      phoneNumber: phone,
      status: 'open',
      reply: null,
    });
    const forged = await ask(call, {
      topic: 'other',
      message: 'hello',
      name: 'Someone Else',
      phoneNumber: '+13055550100',
    });
    expect(forged.status).toBe(400);
    expect(forged.body.code).toBe('validation');
  });

  it('refuses a message past its bound, an empty one and an unknown topic, naming the field', async () => {
    const { call } = await addDriver(running);
    const long = await ask(call, {
      topic: 'other',
      message: 'x'.repeat(MAX_SUPPORT_MESSAGE_LENGTH + 1),
    });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ code: 'validation', field: 'message' });
    expect(long.body.message).toContain(String(MAX_SUPPORT_MESSAGE_LENGTH));
    const blank = await ask(call, { topic: 'other', message: ' \n\t ' });
    expect(blank.body).toMatchObject({ code: 'validation', field: 'message' });
    const topic = await ask(call, { topic: 'refund-now', message: 'hi' });
    expect(topic.body).toMatchObject({ code: 'validation', field: 'topic' });
    // A megabyte is refused before it is parsed.
    const huge = await ask(call, { topic: 'other', message: 'y'.repeat(1_000_000) });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('payload_too_large');
    expect((await call('GET', '/api/flex/v1/support')).body.Items).toEqual([]);
  });

  it(`allows ${MAX_OPEN_SUPPORT_REQUESTS} waiting requests and refuses the next until one is answered`, async () => {
    const { call } = await addDriver(running);
    for (let i = 0; i < MAX_OPEN_SUPPORT_REQUESTS; i++) {
      expect((await ask(call, { topic: 'other', message: `question ${i}` })).status).toBe(201);
    }
    const refused = await ask(call, { topic: 'other', message: 'one more' });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate_limited');
    const [first] = (await call('GET', '/api/flex/v1/support')).body.Items;
    await staff('POST', `/api/flex/v1/admin/support/${first.id}/reply`, {
      reply: 'Answered.',
      channel: 'app',
    });
    expect((await ask(call, { topic: 'other', message: 'one more' })).status).toBe(201);
  });
});

describe("another driver's requests", () => {
  it('are neither listed, read from the inbox nor answered by a driver', async () => {
    const asker = await addDriver(running);
    const other = await addDriver(running);
    const { body } = await ask(asker.call, { topic: 'account', message: 'private words' });
    const id = body.Item.id as string;

    const own = await other.call('GET', '/api/flex/v1/support');
    expect(own.status).toBe(200);
    expect(JSON.stringify(own.body)).not.toContain('private words');
    for (const status of ['open', 'answered']) {
      const inbox = await other.call('GET', `/api/flex/v1/admin/support?status=${status}`);
      expect(inbox.status).toBe(403);
      expect(JSON.stringify(inbox.body)).not.toContain('private words');
    }
    // Staff on their own driver account are drivers there; only the admin flag opens the inbox.
    const answered = await other.call('POST', `/api/flex/v1/admin/support/${id}/reply`, {
      reply: 'hijacked',
      channel: 'sms',
    });
    expect(answered.status).toBe(403);
    const mine = await asker.call('GET', '/api/flex/v1/support');
    expect(mine.body.Items[0]).toMatchObject({ status: 'open', reply: null });
    expect((await driverOfStaff('GET', '/api/flex/v1/admin/support')).status).toBe(403);
  });
});

describe("staff's answer", () => {
  it('is texted to the driver when sent by SMS, and shown in the app either way', async () => {
    const { phone, call } = await addDriver(running);
    const { body } = await ask(call, { topic: 'blocks', message: 'Why no blocks today?' });
    const inbox = await staff('GET', '/api/flex/v1/admin/support?status=open');
    expect(inbox.body.Items.map((r: { id: string }) => r.id)).toContain(body.Item.id);

    const answer = await staff('POST', `/api/flex/v1/admin/support/${body.Item.id}/reply`, {
      reply: 'The platform had no offers in Austin.',
      channel: 'sms',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.Item).toMatchObject({ status: 'answered', replyChannel: 'sms' });
    const texts = await eventually(async () => {
      const found = await readOutbox(running.gateway.db, { to: phone, limit: 5 });
      expect(found.length).toBeGreaterThan(0);
      return found;
    });
    expect(texts[0]!.body).toContain('BlockCatch support: The platform had no offers in Austin.');
    expect(texts[0]!.body).toContain('/contact');
    const mine = await call('GET', '/api/flex/v1/support');
    expect(mine.body.Items[0]).toMatchObject({
      status: 'answered',
      reply: 'The platform had no offers in Austin.',
    });
    const answered = await staff('GET', '/api/flex/v1/admin/support?status=answered');
    expect(answered.body.Items.map((r: { id: string }) => r.id)).toContain(body.Item.id);
  });

  it('sends no text when shown in the app only, and names a request that does not exist', async () => {
    const { phone, call } = await addDriver(running);
    const { body } = await ask(call, { topic: 'filters', message: 'How do I set hours?' });
    const answer = await staff('POST', `/api/flex/v1/admin/support/${body.Item.id}/reply`, {
      reply: 'Open Filters, then Schedule.',
      channel: 'app',
    });
    expect(answer.status).toBe(200);
    // The text would be queued before the answer returns: no job means no text.
    const jobs = await running.gateway.db.query(
      `SELECT j.id FROM send_jobs j JOIN users u ON u.id = j.created_by
       WHERE u.phone_number = $1 AND j.idempotency_key LIKE 'support:%'`,
      [phone],
    );
    expect(jobs).toEqual([]);
    const missing = await staff('POST', '/api/flex/v1/admin/support/no-such-id/reply', {
      reply: 'x',
      channel: 'app',
    });
    expect(missing.status).toBe(404);
    const tooLong = await staff('POST', `/api/flex/v1/admin/support/${body.Item.id}/reply`, {
      reply: 'z'.repeat(1001),
      channel: 'sms',
    });
    expect(tooLong.body).toMatchObject({ code: 'validation', field: 'reply' });
  });
});
