// Delivery through Twilio's REST API, against a fake Twilio on 127.0.0.1 that checks the account
// path, Basic auth and form fields and can be told to fail; and the inbound webhook's signature.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { twilioSignature } from '../src/messaging/webhook-signature.js';
import { upsertTemplates } from '../src/storage/templates.js';
import { insertUsers } from '../src/storage/users.js';
import {
  type MessagingServer,
  openTestDb,
  startMessagingServer,
  type TestDb,
  waitForJob,
} from './messaging-harness.js';

const SID = 'AC0123456789abcdef';
const TOKEN = 'test-auth-token';
const OWNER = 'owner-1';

interface Received {
  path: string;
  authorization: string | undefined;
  form: Record<string, string>;
}

/** The fake's behaviour per destination number: answers to give, in order, before succeeding. */
type Answer = { status: number; code?: number };

describe('the twilio provider', () => {
  let fake: Server;
  let fakeUrl: string;
  let received: Received[] = [];
  let script = new Map<string, Answer[]>();
  let testDb: TestDb;
  let server: MessagingServer;

  beforeAll(async () => {
    fake = createServer(async (req: IncomingMessage, res) => {
      let raw = '';
      for await (const chunk of req) raw += chunk;
      const form = Object.fromEntries(new URLSearchParams(raw));
      received.push({ path: req.url ?? '', authorization: req.headers.authorization, form });
      const expectedAuth = `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`;
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST' || req.url !== `/2010-04-01/Accounts/${SID}/Messages.json`) {
        return reply(404, { code: 20404, message: 'The requested resource was not found' });
      }
      if (req.headers.authorization !== expectedAuth) {
        return reply(401, { code: 20003, message: 'Authenticate' });
      }
      if (!form.To || !form.From || !form.Body) {
        return reply(400, { code: 21604, message: "A 'To', 'From' and 'Body' are required" });
      }
      const answer = script.get(form.To.replace('whatsapp:', ''))?.shift();
      if (answer && answer.status >= 300) {
        return reply(answer.status, {
          code: answer.code ?? answer.status,
          message: 'scripted failure',
        });
      }
      reply(201, { sid: `SM${received.length}`, status: 'queued' });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const address = fake.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    fakeUrl = `http://127.0.0.1:${address.port}`;

    testDb = await openTestDb('pglite');
    await insertUsers(testDb.db, [
      {
        id: OWNER,
        product: 'flex',
        phone_number: '+15559990001',
        name: 'Owner',
        is_admin: true,
        role: 'owner',
        can_see_billing: true,
      },
    ]);
    await upsertTemplates(testDb.db, [
      {
        id: 't1',
        name: 'hello',
        language: 'en',
        components: [
          { type: 'HEADER', text: 'Hi' },
          { type: 'BODY', text: 'Blocks are open' },
        ],
      },
    ]);
    server = await startMessagingServer(testDb.db, {
      retryBaseMs: 20,
      config: {
        sendRate: 0,
        messageProvider: 'twilio',
        twilio: {
          accountSid: SID,
          authToken: TOKEN,
          from: '+15550000000',
          whatsappFrom: '+15550000001',
          baseUrl: fakeUrl,
        },
      },
    });
  });

  afterAll(async () => {
    await server?.close();
    await testDb?.close();
    await new Promise((resolve) => fake?.close(resolve));
  });

  beforeEach(() => {
    received = [];
    script = new Map();
  });

  async function post(path: string, body: unknown) {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-test-user': OWNER,
        'idempotency-key': `k-${Math.random()}`,
      },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(202);
    const answer = (await response.json()) as { jobId: string };
    await waitForJob(testDb.db, answer.jobId, 20_000);
    return testDb.db.query<{
      to_number: string;
      status: string;
      attempts: number;
      last_error: string | null;
    }>(
      'SELECT to_number, status, attempts, last_error FROM send_recipients WHERE job_id = $1 ORDER BY seq',
      [answer.jobId],
    );
  }

  it('sends SMS with the account path, Basic auth and To, From and Body', async () => {
    const rows = await post('/api/flex/v1/admin/sendsms', {
      numbers: [{ number: '5551230001' }],
      message: 'Hello',
    });
    expect(rows).toEqual([
      { to_number: '+15551230001', status: 'sent', attempts: 1, last_error: null },
    ]);
    expect(received).toHaveLength(1);
    expect(received[0]!.form).toEqual({ To: '+15551230001', From: '+15550000000', Body: 'Hello' });
  });

  it('sends WhatsApp from the whatsapp: number with the template rendered as the body', async () => {
    const rows = await post('/api/flex/v1/admin/sendWhatsapp', {
      numbers: [{ number: '5551230002' }],
      msgTemplate: { name: 'hello', language: 'en', components: [] },
    });
    expect(rows[0]?.status).toBe('sent');
    expect(received[0]!.form).toEqual({
      To: 'whatsapp:+15551230002',
      From: 'whatsapp:+15550000001',
      Body: 'Hi\n\nBlocks are open',
    });
  });

  it('marks a number Twilio calls invalid as skipped-invalid without retrying', async () => {
    script.set('+15551230003', [{ status: 400, code: 21211 }]);
    const rows = await post('/api/flex/v1/admin/sendsms', {
      numbers: [{ number: '5551230003' }],
      message: 'Hello',
    });
    expect(rows[0]).toMatchObject({ status: 'skipped-invalid', attempts: 1 });
    expect(rows[0]?.last_error).toContain('21211');
    expect(received).toHaveLength(1);
  });

  it('retries rate limits and server errors with backoff, then sends', async () => {
    script.set('+15551230004', [{ status: 429, code: 20429 }, { status: 500 }]);
    const rows = await post('/api/flex/v1/admin/sendsms', {
      numbers: [{ number: '5551230004' }],
      message: 'Hello',
    });
    expect(rows[0]).toMatchObject({ status: 'sent', attempts: 3 });
    expect(received).toHaveLength(3);
  });

  it('gives up after 5 attempts and records the failure', async () => {
    script.set(
      '+15551230005',
      Array.from({ length: 10 }, () => ({ status: 503 })),
    );
    const rows = await post('/api/flex/v1/admin/sendsms', {
      numbers: [{ number: '5551230005' }],
      message: 'Hello',
    });
    expect(rows[0]).toMatchObject({ status: 'failed', attempts: 5 });
    expect(rows[0]?.last_error).toContain('503');
    expect(received).toHaveLength(5);
  });

  describe('the inbound webhook', () => {
    const params = { From: '+15551230006', To: '+15550000000', Body: 'STOP', MessageSid: 'SM9' };
    const inbound = (signature: string | null) =>
      fetch(`${server.url}/api/webhooks/twilio/inbound`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(signature === null ? {} : { 'x-twilio-signature': signature }),
        },
        body: new URLSearchParams(params).toString(),
      });
    const optedOut = async () =>
      (await testDb.db.query('SELECT 1 FROM opt_outs WHERE phone_number = $1', [params.From]))
        .length;

    it('refuses a request without a valid X-Twilio-Signature and opts no one out', async () => {
      expect((await inbound(null)).status).toBe(403);
      const forged = twilioSignature(
        'another-token',
        `${server.url}/api/webhooks/twilio/inbound`,
        params,
      );
      expect((await inbound(forged)).status).toBe(403);
      expect(await optedOut()).toBe(0);
    });

    it('accepts a correctly signed STOP and opts the number out', async () => {
      const signature = twilioSignature(TOKEN, `${server.url}/api/webhooks/twilio/inbound`, params);
      const response = await inbound(signature);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('<Response/>');
      expect(await optedOut()).toBe(1);
    });
  });

  it('delivers a confirmation code at once through Twilio, and says so when it cannot', async () => {
    await server.messaging.deliverNow({
      channel: 'sms',
      to: '+15551230007',
      body: 'Your code is 123456',
    });
    expect(received[0]!.form).toMatchObject({ To: '+15551230007', Body: 'Your code is 123456' });
    script.set('+15551230008', [{ status: 400, code: 21211 }]);
    await expect(
      server.messaging.deliverNow({ channel: 'sms', to: '+15551230008', body: 'code' }),
    ).rejects.toThrow(/21211/);
  });
});
